// FuzzCommand: the seeded mutation loop. For each format it mutates corpus inputs, reads each
// mutant twice — in tiny chunks and in one chunk — and checks that the reader neither
// crashes nor hangs (CrashGuard) and that both readings agree (for XML, only when both
// succeed: libxml2 may word errors differently by chunking). Inputs with a new outcome join
// the corpus. Memory is bounded and watched: the address space is capped (RLIMIT_AS,
// --max-memory) so a runaway allocation fails fast, and the peak resident set size is checked
// every --rss-every inputs against --max-rss (MemoryWatch). Findings are saved under --out and
// reported, with each format's peak RSS; the exit status is 1 if any. ReplayCommand reads a saved
// finding again.

import ArgumentParser
import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Mutate reader inputs and check that reading neither crashes, hangs nor diverges.")

    @Option(help: "The format to fuzz, or all.")
    var format = FormatChoice(argument: "all")!

    @Option(help: "Inputs per format (when --seconds is 0).")
    var iterations = 20000

    @Option(help: "Seconds to fuzz, shared among the formats (0: run --iterations inputs instead).")
    var seconds = 0

    @OptionGroup var runOptions: FuzzRunOptions

    @Option(help: "Check the resident set every N inputs.")
    var rssEvery = 1000

    func validate() throws {
        guard rssEvery > 0 else { throw ValidationError("--rss-every must be more than 0") }
    }

    func run() throws {
        let formats = format.formats
        var watch = try runOptions.startWatching(every: rssEvery)
        CrashGuard.install()
        var findings = 0
        var peak = 0
        for format in formats {
            let budget = seconds > 0 ? Double(seconds) / Double(formats.count) : 0
            findings += Self.fuzz(
                format, iterations: iterations, seconds: budget, seed: runOptions.seed, directory: runOptions.out,
                watch: &watch)
            peak = max(peak, watch.formatPeak)
        }
        print(
            "memory: address space \(runOptions.maxMemory > 0 ? "capped at \(runOptions.maxMemory) MiB" : "not capped") "
                + "(--max-memory), "
                + "peak RSS \(MemoryUsage.mebibytes(peak)) MiB, cap \(runOptions.maxRss) MiB (--max-rss), "
                + "\(watch.peakResets ? "peak" : "current") RSS checked every \(watch.every) inputs"
        )
        print("findings: \(findings)")
        if findings > 0 { throw ExitCode(1) }
    }

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

    static func readFile(_ path: String) -> [UInt8]? {
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

    static func save(_ bytes: [UInt8], as name: String, in directory: String) {
        let descriptor = open("\(directory)/\(name)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        _ = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}

/// `replay FILE --format F`: reads a saved input with the options the fuzz loop derived for it,
/// in small and whole chunks, and prints the digests; fails when they differ.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Read a saved finding again, in small and whole chunks.")

    @Argument(help: "The saved input.")
    var file: String

    @Option(help: "The input's format.")
    var format: RecordFormat

    func run() throws {
        guard let bytes = FuzzCommand.readFile(file) else {
            printError("seedkit-fuzz: cannot read \(file)")
            throw ExitCode(1)
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
        if Set(digests).count != 1 { throw ExitCode(1) }
    }
}
