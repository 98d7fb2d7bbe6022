// FuzzCommand: the seeded mutation loop. For each format it mutates corpus inputs, reads each
// mutant twice — in tiny chunks and in one chunk — and checks that the reader neither
// crashes nor hangs (CrashGuard) and that both readings agree (for XML, only when both
// succeed: libxml2 may word errors differently by chunking). Inputs with a new outcome join
// the corpus. Findings are saved under --out and reported; the exit status is 1 if any.

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
        CrashGuard.install()
        var findings = 0
        for format in formats {
            let budget = seconds > 0 ? seconds / Double(formats.count) : 0
            findings += fuzz(format, iterations: iterations, seconds: budget, seed: seed, directory: directory)
        }
        return findings == 0 ? 0 : 1
    }

    /// Fuzzes one format; returns the number of findings.
    private static func fuzz(_ format: RecordFormat, iterations: Int, seconds: Double, seed: UInt64, directory: String)
        -> Int
    {
        CrashGuard.track(format: format.rawValue, directory: directory)
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
            var (options, smallChunk) = FuzzOptions.derive(for: input, format: format)
            CrashGuard.begin(input, seconds: 10)
            options.chunkSize = smallChunk
            let small = RecordDigest.read(input, format: format, options: options)
            options.chunkSize = 1 << 16
            let large = RecordDigest.read(input, format: format, options: options)
            CrashGuard.end()
            let comparable =
                format != .xml
                || (!small.contains("\nerror ") && !small.hasPrefix("error ") && !large.contains("error "))
            if comparable && small != large {
                findings += 1
                save(input, as: "divergence-\(format.rawValue)-\(findings).bin", in: directory)
                printError("seedkit-fuzz: \(format): chunked and whole readings differ (input saved)")
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
        let elapsed = now() - start
        print(
            "\(format): \(iteration) inputs in \(Int(elapsed)) s, \(errors) rejected, corpus \(corpus.count), findings \(findings)"
        )
        return findings
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
        print("options: \(options)")
        var digests: [String] = []
        let sizes = [smallChunk, 1, 1 << 16]
        for chunkSize in sizes {
            options.chunkSize = chunkSize
            digests.append(RecordDigest.read(bytes, format: format, options: options))
        }
        for (index, digest) in digests.enumerated() {
            print("--- chunk size \(sizes[index])\n\(digest)")
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
