// Tests of `seedkit-fuzz generate` (the benchmark catalog generator), run as a child process: the benchmark catalog imports with
// its plans into stores with the expected counts, equal in all four formats; the output depends
// only on the count and the seed; the items file of one format is the catalog's items; and
// contradictory options are usage errors.
import DeepCopy
import Foundation
import GraphStore
import SeedImport
import Testing
import TestSupport

@Suite struct CatalogGeneratorTests {
    /// The repository's SeedData/Catalog, whose model and plans the catalog carries.
    static let plans = Repository.root
        .appendingPathComponent("SeedData/Catalog").path

    @Test func theCatalogImportsIntoEqualStoresInEveryFormat() async throws {
        let directory = try TemporaryDirectory()
        let result = try fuzz(["generate", "300", "--out", directory.path, "--plans", Self.plans])
        #expect(result.status == 0, "\(result.stderr)")
        var stores: [PersistentStore] = []
        for format in ["csv", "json", "ndjson", "xml"] {
            var options = ImportOptions()
            options.store = directory.path + "/\(format).sqlite"
            let report = try await Importer(planFile: directory.path + "/catalog-\(format).yaml", options: options)
                .run()
            #expect(report.errors.isEmpty && report.committed)
            let store = try PersistentStore.open(at: directory.path + "/\(format).sqlite")
            let counts = try store.objectCounts()
            #expect(counts["Item"] == 300, "\(format)")
            #expect(counts["ShoppingList"] == 3, "\(format)")
            stores.append(store)
        }
        for other in stores.dropFirst() {
            #expect(try StoreDiff(stores[0], other).differences(limit: 5) == [])
        }
    }

    @Test func theOutputDependsOnlyOnTheCountAndTheSeed() throws {
        let directory = try TemporaryDirectory()
        for (name, count, seed) in [("a", "50", "7"), ("b", "50", "7"), ("c", "20", "7"), ("d", "50", "8")] {
            let result = try fuzz(
                [
                    "generate", count, "--seed", seed, "--out", directory.path + "/" + name, "--plans", Self.plans,
                    "--formats", "ndjson",
                ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let a = try directory.read("a/items.ndjson")
        #expect(a == (try directory.read("b/items.ndjson")))
        #expect(try directory.read("a/lists.ndjson") == (try directory.read("b/lists.ndjson")))
        let twenty = try directory.read("c/items.ndjson")
        #expect(a.split(separator: "\n").prefix(20) == twenty.split(separator: "\n")[...])
        #expect(a != (try directory.read("d/items.ndjson")))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/a/items.csv"))
    }

    @Test func theItemsFileIsTheCatalogsItems() throws {
        let directory = try TemporaryDirectory()
        let catalog = try fuzz(
            ["generate", "40", "--out", directory.path + "/catalog", "--plans", Self.plans, "--formats", "csv"])
        let file = try fuzz(["generate", "40", "--format", "csv", "--file", directory.path + "/items.csv"])
        #expect(catalog.status == 0 && file.status == 0, "\(catalog.stderr) \(file.stderr)")
        #expect(try directory.read("items.csv") == (try directory.read("catalog/items.csv")))
    }

    @Test(arguments: [
        ["generate", "10"],
        ["generate", "10", "--out", "x", "--file", "y", "--format", "csv"],
        ["generate", "10", "--out", "x", "--format", "csv"],
        ["generate", "10", "--file", "y"],
        ["generate", "10", "--out", "x", "--formats", "csv,yaml"],
        ["generate", "0", "--out", "x"],
    ])
    func contradictoryOptionsAreUsageErrors(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let result = try fuzz(arguments, in: directory.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}

/// Runs `seedkit-fuzz` with `arguments` (in `directory`, if given).
private func fuzz(_ arguments: [String], in directory: String? = nil) throws -> CLIResult {
    try CLIProcess.run(arguments, in: directory, program: "seedkit-fuzz")
}

/// A fresh directory, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = try ScratchFolder.make("seedkit-fuzz-tests")
    }

    /// The text of the file at `name` in the directory.
    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
