// StoreFuzzCommand: the seeded mutation loop over store files (docs/Fuzzing.md "Stores"). Each
// mutant of a seed store (StoreSeeds: stores of both layouts made here, or any `.sqlite` files
// named with --seeds) is written to a work file and read as a server reads a store from
// elsewhere (StoreReading): opened read-only, inspected, every object of every entity read,
// diffed against itself. SeedKit must read it or refuse it cleanly, and leave the file as it was.
// Findings, saved under --out: a crash or a hang (CrashGuard), memory beyond the caps
// (MemoryWatch), an error other than a StoreError or an ObjectError a damaged row can cause, and
// a reading that changed the file's bytes or left a side file. Inputs with a new outcome join the
// corpus. ReplayStoreCommand reads a saved finding again.
import ArgumentParser
import Foundation
import GraphStore

#if canImport(Glibc)
    import Glibc
#endif

struct StoreFuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores",
        abstract: "Mutate store files and check that reading them neither crashes, hangs nor exhausts memory.")

    @Option(
        name: .customLong("seeds"),
        help: "A seed store, or a folder of .sqlite seeds (repeatable; default: built-in stores of both layouts).")
    var seeds: [String] = []

    @Option(
        help:
            "The model the stores are opened with (a model file or an Xcode model; default: each store's own, the built-in seeds' for a store holding none)."
    )
    var model: String?

    @Option(help: "Inputs to read (when --seconds is 0).")
    var iterations = 2000

    @Option(help: "Seconds to fuzz (0: run --iterations inputs instead).")
    var seconds = 0

    @OptionGroup var runOptions: FuzzRunOptions

    @Option(help: "The folder the mutants are written to (default: a new temporary folder).")
    var work: String?

    @Option(help: "Check the resident set every N inputs (the inputs since the last check are kept).")
    var rssEvery = 100

    /// The errors a damaged store may be refused with: a StoreError (damaged, unsafe schema, not
    /// a store…), or an ObjectError about what its rows name (a relationship to a row that is
    /// not there, to another entity's row, a row of an abstract entity). Any other (a raw
    /// SQLiteError, an ObjectError a reader cannot cause) is a finding.
    private static let cleanErrors = [
        "StoreError.", "ObjectError.notFound:", "ObjectError.wrongDestination:", "ObjectError.abstractEntity:",
    ]
    /// Seconds one input may take before it is a hang.
    static let watchdogSeconds: UInt32 = 10
    /// The corpus never grows beyond this many inputs; rejected ones fill at most a quarter.
    private static let corpusLimit = 400

    func validate() throws {
        guard rssEvery > 0 else { throw ValidationError("--rss-every must be more than 0") }
    }

    func run() throws {
        let folder = try work ?? Self.temporaryFolder()
        let model = try StoreReading.model(at: self.model)
        let storeModel = try StoreSeeds.model()
        var corpus = try StoreSeeds.corpus(seeds, work: folder)
        guard !corpus.isEmpty else {
            printError("seedkit-fuzz: no seed stores")
            throw ExitCode(1)
        }
        var watch = try runOptions.startWatching(every: rssEvery)
        let (file, out) = (folder + "/fuzz.sqlite", runOptions.out)
        let read = { (input: [UInt8]) in Self.readGuarded(input, at: file, model: model, storeModel: storeModel) }
        CrashGuard.install()
        CrashGuard.track(format: "store", directory: out)
        watch.startFormat()
        var mutator = StoreMutator(random: SeededGenerator(seed: runOptions.seed))
        var outcomes: Set<String> = []
        var (findings, errors, rejectedInCorpus, iteration) = (0, 0, 0, 0)
        var errorTypes: [String: Int] = [:]
        let start = now()
        while seconds > 0 ? now() - start < Double(seconds) : iteration < iterations {
            iteration += 1
            let input = mutator.mutate(corpus[mutator.below(corpus.count)], other: corpus[mutator.below(corpus.count)])
            let digest = read(input)
            if let (culprit, reason) = watch.afterInput(input, reread: { _ = read($0) }) {
                findings += 1
                Self.saveMemoryFinding(culprit, reason: reason, in: out)
                break
            }
            if digest.hasPrefix("changed ") {
                findings += 1
                FuzzCommand.save(input, as: "changed-store-\(findings).bin", in: out)
                printError("seedkit-fuzz: store: reading \(digest.prefix(300)) (input saved)")
            }
            let rejected = digest.hasPrefix("error ")
            if rejected && !Self.cleanErrors.contains(where: digest.dropFirst(6).hasPrefix) {
                findings += 1
                FuzzCommand.save(input, as: "unclean-store-\(findings).bin", in: out)
                printError("seedkit-fuzz: store: not refused cleanly: \(digest.prefix(300)) (input saved)")
            }
            if rejected {
                errors += 1
                errorTypes[String(digest.dropFirst(6).prefix(while: { $0 != ":" })), default: 0] += 1
            }
            let outcome = Self.signature(digest)
            if !outcomes.contains(outcome), corpus.count < Self.corpusLimit,
                !rejected || rejectedInCorpus < Self.corpusLimit / 4
            {
                outcomes.insert(outcome)
                corpus.append(input)
                if rejected { rejectedInCorpus += 1 }
            }
        }
        if let (culprit, reason) = watch.check(reread: { _ = read($0) }) {
            findings += 1
            Self.saveMemoryFinding(culprit, reason: reason, in: out)
        }
        try? StoreFiles.remove(file)
        let types = errorTypes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print(
            "store: \(iteration) inputs in \(Int(now() - start)) s, \(errors) rejected (\(types)), "
                + "\(outcomes.count) outcomes, corpus \(corpus.count), findings \(findings), "
                + "peak RSS \(MemoryUsage.mebibytes(watch.formatPeak)) MiB")
        print("findings: \(findings)")
        if findings > 0 { throw ExitCode(1) }
    }

    /// Saves the input that took more memory than the cap allows, and says so.
    private static func saveMemoryFinding(_ culprit: [UInt8], reason: String, in out: String) {
        FuzzCommand.save(culprit, as: "memory-store.bin", in: out)
        printError("seedkit-fuzz: store: \(reason) (input saved to memory-store.bin)")
    }

    /// Reads `input` as the store at `file` (with `model`, or its own, or `storeModel` when it
    /// holds none) under the crash and hang watchdog; returns the digest.
    static func readGuarded(_ input: [UInt8], at file: String, model: ObjectModel?, storeModel: ObjectModel?) -> String
    {
        CrashGuard.begin(input, seconds: watchdogSeconds)
        let digest = StoreReading.read(input, at: file, model: model, storeModel: storeModel)
        CrashGuard.end()
        return digest
    }

    /// A coarse outcome class: the error without numbers, or what was read without values.
    private static func signature(_ digest: String) -> String {
        String(digest.filter { !$0.isNumber }.prefix(100))
    }

    private static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-fuzz-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// `replay-store FILE`: reads a saved store input as the store fuzzer does and prints the outcome.
struct ReplayStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-store", abstract: "Read a saved store input again, as the store fuzzer reads it.")

    @Argument(help: "The saved input.")
    var file: String

    @Option(help: "The model the store is opened with (as for `stores --model`; the same default).")
    var model: String?

    func run() throws {
        let model = try StoreReading.model(at: self.model)
        guard let bytes = FuzzCommand.readFile(file) else {
            printError("seedkit-fuzz: cannot read \(file)")
            throw ExitCode(1)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seedkit-replay-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        print(StoreReading.read(bytes, at: folder + "/replay.sqlite", model: model, storeModel: try StoreSeeds.model()))
    }
}
