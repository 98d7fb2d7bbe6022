// Seed builds: the same inputs give byte-identical files; the result is one validated file with
// the seed's metadata and record that opens read-only without side files; a failed build leaves the
// output as it was; a cancelled one (during the import, or after it) leaves no file at all.
import Foundation
import GraphStore
import SeedImport
import Testing

@testable import SeedKit
import TestSupport

@Suite struct SeedBuilderTests {
    static func catalog() throws -> String {
        try ScratchFolder.copy(ofRepositoryFolder: "SeedData/Catalog", prefix: "seedkit-build")
    }

    @Test func buildsAreByteIdenticalAndSingleFile() async throws {
        let folder = try Self.catalog()
        let first = try await SeedBuilder(planFile: folder + "/catalog-csv.yaml").build(to: folder + "/one.sqlite")
        let second = try await SeedBuilder(planFile: folder + "/catalog-csv.yaml").build(to: folder + "/two.sqlite")
        #expect(first.report.entities["Item"]?.inserted == 5)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: first.path))
                == Data(contentsOf: URL(fileURLWithPath: second.path)))
        #expect(first.checksum == second.checksum)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("one.sqlite") }
        #expect(files == ["one.sqlite"])
        let metadata = try PersistentStore.metadata(at: first.path)
        #expect(metadata["seed.version"] == "2026.11")
        #expect(metadata["seed.generator"] == SeedBuilder.generator)
        #expect(metadata["seed.sources"]?.contains("\"items.csv\":\"") == true)
        #expect(metadata.storeUUID == (try PersistentStore.metadata(at: second.path)).storeUUID)
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let store = try PersistentStore.open(at: first.path, options: readOnly)
        #expect(try store.objectCounts()["Item"] == 5)
        // The seed carries its record: every object, so a copy of it knows where its objects came from.
        #expect(try store.hasSeedRecord())
        #expect(
            try LoaderFixtures.value(
                "SELECT count(*) FROM seedkit_seed_Item JOIN Item USING (pk, sku, name)", in: first.path) == "5")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("one.sqlite") } == [
                "one.sqlite"
            ])
    }

    @Test func aFailedBuildLeavesTheOutputAlone() async throws {
        let folder = try Self.catalog()
        let output = folder + "/seed.sqlite"
        try Data("previous seed".utf8).write(to: URL(fileURLWithPath: output))
        try Data(
            "sku,name,price,quantity,listed,added,notes,unit,location,tags\nZ-1,,1,1,yes,2026-01-01T00:00:00Z,,kg,A1,\n"
                .utf8
        )
        .write(to: URL(fileURLWithPath: folder + "/items.csv"))
        await #expect(throws: (any Error).self) {
            _ = try await SeedBuilder(planFile: folder + "/catalog-csv.yaml").build(to: output)
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous seed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".building") }.isEmpty)
    }

    /// Cancels a build of 2,000 records (batches of 25) from its progress callback at the first
    /// update of `phase` (`reading`: after a committed batch; `done`: the import finished, the
    /// validation and compaction to come).
    @Test(arguments: ["reading", "done"]) func aCancelledBuildLeavesNoFile(phase: String) async throws {
        let folder = try LoaderFixtures.folder("cancel-build")
        try FileManager.default.copyItem(atPath: try LoaderSeeds.get().catalogModel, toPath: folder + "/Catalog.yaml")
        try SeedLoaderPlanTests.writePlan(in: folder, version: "1", items: 2000, batchSize: 25)
        let canceller = TaskCanceller()
        let build = Task {
            try await SeedBuilder(planFile: folder + "/plan.yaml").build(to: folder + "/Seed.sqlite") { step in
                if step.phase == phase && step.records > 0 { canceller.cancel() }
            }
        }
        canceller.watch(build)
        await #expect(throws: CancellationError.self) { try await build.value }
        #expect(canceller.requested)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "Catalog.yaml", "items.csv", "plan.yaml",
            ])
        let finished = try await SeedBuilder(planFile: folder + "/plan.yaml").build(to: folder + "/Seed.sqlite")
        #expect(finished.report.entities["Item"]?.inserted == 2000)
    }
}
