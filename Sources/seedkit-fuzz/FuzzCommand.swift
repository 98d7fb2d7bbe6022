// FuzzCommand: the seeded mutation loop. For each format it mutates corpus inputs, reads each
// mutant twice — in tiny chunks and in one chunk — and checks that the reader neither
// crashes nor hangs (CrashGuard) and that both readings agree (for XML, only when both
// succeed: libxml2 may word errors differently by chunking). Inputs with a new outcome join
// the corpus. Memory is bounded and watched: the address space is capped (RLIMIT_AS,
// --max-memory) so a runaway allocation fails fast, and the peak resident set size is checked
// every --rss-every inputs against --max-rss (MemoryWatch). Findings are saved under --out and
// reported, with each format's peak RSS; the exit status is 1 if any.

import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

enum FuzzCommand {
    static func run(_ arguments: Arguments) -> Int32 {
        guard let formats = arguments.formats() else {
            printError("unknown --format")
            return 2
        }
        let iterations = arguments.int("iterations", 20000)
        let seconds = Double(arguments.int("seconds", 0))
        let seed = UInt64(arguments.int("seed", 1))
        let directory = arguments.string("out") ?? "."
        let maxMemory = arguments.int("max-memory", defaultMaxMemory)
        let maxResident = arguments.int("max-rss", defaultMaxResident)
        guard maxMemory >= 0, maxResident > 0 else {
            printError("--max-memory must be 0 (no cap) or more, --max-rss more than 0 (MiB)")
            return 2
        }
        if maxMemory > 0, !MemoryUsage.limitAddressSpace(to: maxMemory << 20) {
            printError("seedkit-fuzz: cannot cap the address space at \(maxMemory) MiB")
            return 2
        }
        CrashGuard.install()
        var watch = MemoryWatch(maxResident: maxResident << 20, every: arguments.int("rss-every", 1000))
        var findings = 0
        var peak = 0
        for format in formats {
            let budget = seconds > 0 ? seconds / Double(formats.count) : 0
            findings += fuzz(
                format, iterations: iterations, seconds: budget, seed: seed, directory: directory, watch: &watch)
            peak = max(peak, watch.formatPeak)
        }
        print(
            "memory: address space \(maxMemory > 0 ? "capped at \(maxMemory) MiB" : "not capped") (--max-memory), "
                + "peak RSS \(MemoryUsage.mebibytes(peak)) MiB, cap \(maxResident) MiB (--max-rss), "
                + "\(watch.peakResets ? "peak" : "current") RSS checked every \(watch.every) inputs"
        )
        print("findings: \(findings)")
        return findings == 0 ? 0 : 1
    }

    /// The default address-space cap, in MiB (`--max-memory`); the fuzzer itself maps about
    /// 50 MiB, and no input (at most 4 KiB) needs more than a few.
    static let defaultMaxMemory = 1024
    /// The default resident-set cap, in MiB (`--max-rss`); a fuzzing run stays under 20 MiB.
    static let defaultMaxResident = 128

    /// Fuzzes one format; returns the number of findings.
    private static func fuzz(
        _ format: RecordFormat, iterations: Int, seconds: Double, seed: UInt64, directory: String,
        watch: inout MemoryWatch
    ) -> Int {
        CrashGuard.track(format: format.rawValue, directory: directory)
        watch.startFormat()
        var corpus = Seeds.corpus(for: format)
        let formatIndex = RecordFormat.allCases.firstIndex(of: format) ?? 0
        var mutator = Mutator(
            random: SeededGenerator(seed: seed &* 31 &+ UInt64(formatIndex)), tokens: Seeds.tokens(for: format))
        var outcomes: Set<String> = []
        var findings = 0
        var errors = 0
        var rejectedInCorpus = 0
        let start = now()
        var iteration = 0
        while seconds > 0 ? now() - start < seconds : iteration < iterations {
            iteration += 1
            let base = corpus[mutator.below(corpus.count)]
            let input = mutator.mutate(base, other: corpus[mutator.below(corpus.count)])
            let (small, large) = readTwice(input, format: format)
            let comparable =
                format != .xml
                || (!small.contains("\nerror ") && !small.hasPrefix("error ") && !large.contains("error "))
            if comparable && small != large {
                findings += 1
                save(input, as: "divergence-\(format.rawValue)-\(findings).bin", in: directory)
                printError("seedkit-fuzz: \(format): chunked and whole readings differ (input saved)")
            }
            if small.contains(libxml2MemoryError) || large.contains(libxml2MemoryError) {
                findings += 1
                save(input, as: "memory-\(format.rawValue)-\(findings).bin", in: directory)
                printError("seedkit-fuzz: \(format): libxml2 ran out of memory (input saved)")
            }
            if let (culprit, reason) = watch.afterInput(input, reread: { _ = readTwice($0, format: format) }) {
                findings += 1
                save(culprit, as: "memory-\(format.rawValue).bin", in: directory)
                printError("seedkit-fuzz: \(format): \(reason) (input saved to memory-\(format.rawValue).bin)")
                break
            }
            if large.contains("error ") { errors += 1 }
            let outcome = signature(large)
            let rejected = large.contains("error ")
            // Well-formed inputs reach deeper code; rejected ones may fill a quarter of the corpus.
            if !outcomes.contains(outcome), corpus.count < 2000, !rejected || rejectedInCorpus < 500 {
                outcomes.insert(outcome)
                corpus.append(input)
                if rejected { rejectedInCorpus += 1 }
            }
        }
        if let (culprit, reason) = watch.check(reread: { _ = readTwice($0, format: format) }) {
            findings += 1
            save(culprit, as: "memory-\(format.rawValue).bin", in: directory)
            printError("seedkit-fuzz: \(format): \(reason) (input saved to memory-\(format.rawValue).bin)")
        }
        let elapsed = now() - start
        print(
            "\(format): \(iteration) inputs in \(Int(elapsed)) s, \(errors) rejected, corpus \(corpus.count), "
                + "findings \(findings), peak RSS \(MemoryUsage.mebibytes(watch.formatPeak)) MiB"
        )
        return findings
    }

    /// How libxml2 words an allocation failure (under the address-space cap).
    private static let libxml2MemoryError = "Memory allocation failed"

    /// Reads `input` with the options and encoding derived for it, in its small chunks and in
    /// one chunk, under the crash and hang watchdog; returns both digests. A gzip-compressed
    /// input is compared with its plain text read in one chunk.
    private static func readTwice(_ input: [UInt8], format: RecordFormat) -> (small: String, large: String) {
        var (options, smallChunk) = FuzzOptions.derive(for: input, format: format)
        let encoding = FuzzOptions.encoding(for: input)
        let bytes = FuzzOptions.encode(input, encoding)
        CrashGuard.begin(input, seconds: 10)
        options.chunkSize = smallChunk
        let small = RecordDigest.read(bytes, format: format, options: options)
        options.chunkSize = 1 << 16
        let large = RecordDigest.read(encoding == .gzip ? input : bytes, format: format, options: options)
        CrashGuard.end()
        return (small, large)
    }

    /// A coarse outcome class: the error reason without numbers, or the record count and
    /// the shape of the values.
    private static func signature(_ digest: String) -> String {
        if digest.contains("error "), let range = digest.ranges(of: "): ").last {
            return String(digest[range.upperBound...].filter { !$0.isNumber }.prefix(60))
        }
        let lines = digest.split(separator: "\n")
        let shape = lines.prefix(3).map { line in line.filter { "{}[],".contains($0) }.prefix(24) }
        return "ok \(min(lines.count, 10)) " + shape.joined(separator: "|")
    }

    /// `replay FILE --format F`: reads a saved input with the options the fuzz loop derived
    /// for it, in small and whole chunks, and prints the digests.
    static func replay(_ arguments: Arguments) -> Int32 {
        guard let file = arguments.positional.first, let format = arguments.formats()?.first,
            let bytes = readFile(file)
        else {
            printError("usage: seedkit-fuzz replay FILE --format F")
            return 2
        }
        var (options, smallChunk) = FuzzOptions.derive(for: bytes, format: format)
        let encoding = FuzzOptions.encoding(for: bytes)
        print("options: \(options), encoding: \(encoding)")
        var digests: [String] = []
        let sizes = [smallChunk, 1, 1 << 16]
        for chunkSize in sizes {
            options.chunkSize = chunkSize
            digests.append(RecordDigest.read(FuzzOptions.encode(bytes, encoding), format: format, options: options))
        }
        for (index, digest) in digests.enumerated() {
            print("--- chunk size \(sizes[index])\n\(digest)")
        }
        if encoding == .gzip {
            digests.append(RecordDigest.read(bytes, format: format, options: options))
            print("--- the plain input, chunk size \(options.chunkSize)\n\(digests[digests.count - 1])")
        }
        return Set(digests).count == 1 ? 0 : 1
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    private static func save(_ bytes: [UInt8], as name: String, in directory: String) {
        let descriptor = open("\(directory)/\(name)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        _ = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
