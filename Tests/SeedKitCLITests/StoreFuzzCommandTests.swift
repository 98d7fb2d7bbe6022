// Tests of `seedkit-fuzz stores` and `replay-store` (the store fuzzer), run as a child process: a
// short seeded run over the built-in seed stores (both layouts), and over seeds named with
// --seeds (a Core Data–layout build of the Grocery Dude sample with its Xcode model among them),
// ends with no finding and says how many inputs it read and how they were refused; a saved input
// replays as what SeedKit made of it.
import Foundation
import Testing

@Suite struct StoreFuzzCommandTests {
    /// Runs `seedkit-fuzz` with `arguments` (in `directory`, if given).
    private static func fuzz(_ arguments: [String], in directory: String? = nil) throws -> CLIResult {
        try CLIProcess.run(arguments, in: directory, program: "seedkit-fuzz")
    }

    @Test func aShortRunOverTheBuiltInSeedsFindsNothingAndReplaysTheSeeds() throws {
        let directory = try TemporaryDirectory()
        let (work, out) = (directory.path + "/work", directory.path + "/out")
        for folder in [work, out] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let run = try Self.fuzz(["stores", "--iterations", "150", "--seed", "3", "--work", work, "--out", out])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("store: 150 inputs in "), "\(run.stdout)")
        #expect(run.stdout.contains("StoreError.damaged "), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("findings: 0\n"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)

        // The seeds it wrote, in both layouts, read whole: every entity with its objects, the same
        // values in each, and no difference from itself.
        var digests: Set<String> = []
        for seed in ["seed-shipped", "seed-wal", "seed-coredata-shipped", "seed-coredata-wal"] {
            let replay = try Self.fuzz(["replay-store", work + "/" + seed + ".sqlite"])
            #expect(replay.status == 0)
            #expect(replay.stdout.hasPrefix("read Gadget=6,Item=18,List=1,Tag=3,Unit=3 values "), "\(replay.stdout)")
            #expect(replay.stdout.hasSuffix(" differences 0\n"), "\(replay.stdout)")
            digests.insert(replay.stdout)
        }
        #expect(digests.count == 1, "\(digests)")
        for (seed, layout) in [("seed-shipped", "seedkit"), ("seed-coredata-shipped", "core-data")] {
            let inspected = try CLIProcess.run(["inspect", work + "/" + seed + ".sqlite"])
            #expect(inspected.stdout.contains("\n  layout: \(layout)\n"), "\(inspected.stdout)")
        }
        // Opened with a model other than its own, a seed is refused.
        let catalogModel = ExitCodeTests.repository.appendingPathComponent("SeedData/Catalog/Catalog.yaml").path
        let otherModel = try Self.fuzz(["replay-store", work + "/seed-shipped.sqlite", "--model", catalogModel])
        #expect(otherModel.stdout.hasPrefix("error StoreError.incompatibleModel: "), "\(otherModel.stdout)")
        // A file that is not a store replays as its refusal.
        #expect(FileManager.default.createFile(atPath: directory.path + "/text.bin", contents: Data("id,name\n".utf8)))
        let text = try Self.fuzz(["replay-store", directory.path + "/text.bin"])
        #expect(text.stdout == "error StoreError.notAStore: not a SeedKit or Core Data store\n")

        // Seeds named with --seeds (a folder's .sqlite files) are fuzzed instead.
        let seeded = try Self.fuzz(["stores", "--seeds", work, "--iterations", "60", "--out", out])
        #expect(seeded.status == 0, "\(seeded.stdout)\(seeded.stderr)")
        #expect(seeded.stdout.hasPrefix("store: 60 inputs in "), "\(seeded.stdout)")
    }

    @Test func coreDataStoresBuiltFromAnXcodeModelAreFuzzedWithIt() throws {
        let folder = try ExitCodeTests.sampleFolder("GroceryDude")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let built = try CLIProcess.run(
            ["build", "GroceryDude.yaml", "-o", "GroceryDude.sqlite", "--layout", "core-data", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        let model = ["--model", "GroceryDude.xcdatamodeld"]
        let replay = try Self.fuzz(["replay-store", "GroceryDude.sqlite"] + model, in: folder)
        #expect(
            replay.stdout.hasPrefix("read Item=14,LocationAtHome=5,LocationAtShop=7,Unit=8 values "),
            "\(replay.stdout)")
        #expect(replay.stdout.hasSuffix(" differences 0\n"), "\(replay.stdout)")
        let run = try Self.fuzz(
            ["stores", "--seeds", "GroceryDude.sqlite", "--iterations", "80", "--seed", "5", "--out", folder] + model,
            in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("store: 80 inputs in "), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("findings: 0\n"), "\(run.stdout)")
    }

    @Test func storesAreOpenedWithTheModelNamed() throws {
        let folder = try ExitCodeTests.sampleFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Catalog.sqlite", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        let replay = try Self.fuzz(["replay-store", "Catalog.sqlite", "--model", "Catalog.yaml"], in: folder)
        #expect(
            replay.stdout.hasPrefix("read Item=5,Location=3,ShoppingList=2,Tag=3,Unit=3 values "), "\(replay.stdout)")
        let run = try Self.fuzz(
            ["stores", "--seeds", "Catalog.sqlite", "--model", "Catalog.yaml", "--iterations", "60", "--out", folder],
            in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("findings: 0\n"), "\(run.stdout)")
        let missing = try Self.fuzz(["replay-store", "Catalog.sqlite", "--model", "Missing.yaml"], in: folder)
        #expect(missing.status == 1 && missing.stderr.hasPrefix("seedkit-fuzz: "), "\(missing.stderr)")
    }
}
