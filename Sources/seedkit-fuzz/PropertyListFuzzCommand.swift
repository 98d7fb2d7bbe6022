// PropertyListFuzzCommand: `seedkit-fuzz plist`, the seeded mutation loop for the binary
// property-list reader, the keyed-archive resolver (PropertyLists) and the decoder of mapping
// models' archived expressions (ModelFiles). Each mutant of a corpus of bplists (Core Data
// metadata, archived expressions, every object type, wide and deep containers) is read under the
// crash and hang watchdog (CrashGuard); when it reads, the value is written and read again, and
// the second writing must give the same bytes as the first (the reader and the writer agree on
// every value the reader accepts); a value shaped like a keyed archive is resolved and decoded as
// an expression too. Memory is capped and watched as in the record-reader loop. Findings are
// saved under --out as crash-plist.bin, hang-plist.bin, roundtrip-plist-N.bin or memory-plist.bin.

import ArgumentParser
import Foundation
import ModelFiles
import PropertyLists

struct PropertyListFuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Mutate binary property lists and check that reading neither crashes, hangs nor loses a value.")

    @Option(help: "Inputs to read (when --seconds is 0).")
    var iterations = 20000

    @Option(help: "Seconds to fuzz (0: read --iterations inputs instead).")
    var seconds = 0

    @OptionGroup var common: FuzzRunOptions

    @Option(help: "Check the resident set every N inputs.")
    var rssEvery = 1000

    func validate() throws {
        guard rssEvery > 0 else { throw ValidationError("--rss-every must be more than 0") }
    }

    func run() throws {
        let (seed, out) = (common.seed, common.out)
        var watch = try common.startWatching(every: rssEvery)
        CrashGuard.install()
        CrashGuard.track(format: "plist", directory: out)
        watch.startFormat()
        var corpus = Self.seeds()
        var mutator = Mutator(random: SeededGenerator(seed: seed &* 31 &+ 101), tokens: Self.tokens)
        var outcomes: Set<String> = []
        var findings = 0
        var rejected = 0
        let start = Date()
        var iteration = 0
        while seconds > 0 ? -start.timeIntervalSinceNow < Double(seconds) : iteration < iterations {
            iteration += 1
            let input = mutator.mutate(corpus[mutator.below(corpus.count)], other: corpus[mutator.below(corpus.count)])
            let outcome = Self.check(input)
            if outcome.hasPrefix("roundtrip") {
                findings += 1
                Self.save(input, as: "roundtrip-plist-\(findings).bin", in: out)
                printError("seedkit-fuzz: plist: \(outcome) (input saved)")
            }
            if let (culprit, reason) = watch.afterInput(input, reread: { _ = Self.check($0) }) {
                findings += 1
                Self.save(culprit, as: "memory-plist.bin", in: out)
                printError("seedkit-fuzz: plist: \(reason) (input saved to memory-plist.bin)")
                break
            }
            if outcome.hasPrefix("error") { rejected += 1 }
            if !outcomes.contains(outcome), corpus.count < 2000 {
                outcomes.insert(outcome)
                corpus.append(input)
            }
        }
        print(
            "plist: \(iteration) inputs in \(Int(-start.timeIntervalSinceNow)) s, \(rejected) rejected, "
                + "corpus \(corpus.count), findings \(findings), peak RSS \(MemoryUsage.mebibytes(watch.formatPeak)) MiB"
        )
        print("findings: \(findings)")
        if findings > 0 { throw ExitCode(1) }
    }

    /// Reads `input` under the watchdog; returns its outcome class: the error reason without
    /// numbers, `ok` with the top value's kind and whether it resolved as a keyed archive, or
    /// `roundtrip …` when writing the value read does not give stable bytes.
    private static func check(_ input: [UInt8]) -> String {
        CrashGuard.begin(input, seconds: 10)
        defer { CrashGuard.end() }
        let value: PropertyListValue
        do {
            value = try BinaryPropertyListReader().read(input)
        } catch {
            return "error " + String(error.message.filter { !$0.isNumber }.prefix(60))
        }
        // Writing unshares containers, so the copy may hold more objects than the original did.
        let relaxed = PropertyListLimits(maxObjects: PropertyListLimits().maxValues)
        let written = BinaryPropertyListWriter().write(value)
        guard let again = try? BinaryPropertyListReader(limits: relaxed).read(written) else {
            return "roundtrip: the writer's output of an accepted value does not read"
        }
        guard BinaryPropertyListWriter().write(again) == written else {
            return "roundtrip: the value read back writes other bytes"
        }
        var archive = "plain"
        if let keyed = try? KeyedArchive(propertyList: value) {
            archive = (try? keyed.root()).map { "archive \($0.objectValue?.className ?? "value")" } ?? "archive error"
            archive += (try? MappingExpression(archive: Data(input))) == nil ? ", no expression" : ", expression"
        }
        return "ok \(value.kind) \(archive)"
    }

    /// The starting corpus: property lists SeedKit's writer makes, covering every object type.
    private static func seeds() -> [[UInt8]] {
        let hash = PropertyListValue.data(Data((0..<32).map { UInt8($0 * 7 & 0xFF) }))
        let values: [PropertyListValue] = [
            [
                "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1344, "NSStoreModelVersionHashesVersion": 3,
                "NSStoreModelVersionHashes": ["Item": hash, "Unit": hash], "NSStoreModelVersionIdentifiers": [""],
                "_NSAutoVacuumLevel": "2",
            ],
            [
                "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
                "$objects": [
                    "$null",
                    [
                        "NSOperand": .uid(3), "NSSelectorName": .uid(2), "NSExpressionType": 4, "NSArguments": .uid(6),
                        "$class": .uid(9),
                    ],
                    "valueForKeyPath:", ["NSVariable": .uid(4), "NSExpressionType": 2, "$class": .uid(5)], "source",
                    ["$classname": "NSVariableExpression", "$classes": ["NSVariableExpression", "NSExpression"]],
                    ["NS.objects": [.uid(7)], "$class": .uid(8)],
                    ["NSKeyPath": .uid(4), "NSExpressionType": 10, "$class": .uid(5)],
                    ["$classname": "NSMutableArray"], ["$classname": "NSKeyPathExpression"],
                ],
            ],
            [
                true, false, 0, 255, 65_536, -1, .integer(Int64.max), 2.5,
                .date(Date(timeIntervalSinceReferenceDate: 1)),
                .data(Data([1, 2, 3])), "ascii", "Crème 😀", .uid(300), [[[["deep"]]]], ["k": [:]],
            ],
            .array((0..<40).map { .string("item \($0)") }),
        ]
        return values.map { Array(BinaryPropertyListWriter().write($0)) }
    }

    /// Markers and fragments worth inserting: long counts, 16-byte integers, UIDs, null and
    /// fill objects, references and offsets near their limits.
    private static let tokens: [[UInt8]] = [
        [0x5F, 0x10], [0x6F, 0x11], [0xAF, 0x10], [0xDF, 0x10], [0x4F, 0x13], [0x13], [0x14], [0x80], [0x87],
        [0x00], [0x0F], [0x09], [0x33], [0x22], [0xC1], [0xFF, 0xFF], [0, 0, 0, 0, 0, 0, 0, 0], Array("bplist00".utf8),
        [0xD8, 0x00], Array("$null".utf8), Array("NSKeyedArchiver".utf8),
    ]

    private static func save(_ bytes: [UInt8], as name: String, in directory: String) {
        _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(bytes))
    }
}
