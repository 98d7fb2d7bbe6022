// Cancelling the task that awaits an import stops it between batches and leaves the target as it
// was: a store the run was creating does not exist afterwards (nor its side files), a store
// that held data holds exactly the same rows, and no run is left active.
import Foundation
import GraphStore
import Testing
import TestSupport

@testable import SeedImport

@Suite struct ImportCancellationTests {
    /// 60,000 items in batches of 20: thousands of commits.
    static func fixture() throws -> ImportFixture {
        let fixture = try ImportFixture()
        var items = "sku,name,price,quantity,unit,tags\n"
        for number in 0..<60_000 {
            items +=
                "S-\(number),Item \(number),\(number % 90).5,\(number % 7),u\(number % 5),t\(number % 11);t\(number % 13)\n"
        }
        try fixture.write("items.csv", items)
        try fixture.write(
            "plan.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            batchSize: 20
            sources:
              - file: items.csv
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name, price: price, quantity: quantity}
                relationships:
                  unit: {field: unit, match: name, missing: create}
                  tags: {field: tags, split: ";", match: name, missing: create}
            """)
        return fixture
    }

    /// Runs the plan at `planFile`, cancels the awaiting task once the run reports records, and
    /// returns how it ended and the records reported by then. The run waits on its own thread
    /// after that report until it sees the cancellation, so it certainly stops half-way however
    /// late the test's task is scheduled.
    static func cancelMidRun(
        planFile: String, options: ImportOptions = ImportOptions()
    ) async throws -> (Result<ImportReport, any Error>, committed: Int) {
        let (reports, continuation) = AsyncStream.makeStream(of: Int.self)
        var options = options
        options.onProgress = { step in
            guard step.records > 0 else { return }
            continuation.yield(step.records)
            BlockingWork.waitForCancellation(atMost: 60)
        }
        let importer = try Importer(planFile: planFile, options: options)
        let task = Task { try await importer.run() }
        var committed = 0
        for await records in reports {
            committed = records
            break
        }
        task.cancel()
        let result = await task.result
        continuation.finish()
        return (result, committed)
    }

    static func sideFiles(of store: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { store + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(arguments: [false, true])
    func cancellingAnImportIntoANewStoreLeavesNoStore(withoutWAL: Bool) async throws {
        let fixture = try Self.fixture()
        var options = ImportOptions()
        options.newStoreWithoutWAL = withoutWAL
        let (result, committed) = try await Self.cancelMidRun(planFile: fixture.path("plan.yaml"), options: options)
        #expect(committed >= 20)
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(Self.sideFiles(of: fixture.path("Catalog.sqlite")) == [])
    }

    @Test func cancellingAnImportIntoAStoreThatHoldsDataLeavesItAsItWas() async throws {
        let fixture = try Self.fixture()
        let store = fixture.path("Catalog.sqlite")
        try fixture.write(
            "first.csv", "sku,name,price,quantity,unit,tags\nS-1,Kept,1.5,1,u1,t1\nS-2,Also kept,2,2,u2,\n")
        try fixture.write(
            "first.yaml",
            try String(contentsOfFile: fixture.path("plan.yaml"), encoding: .utf8)
                .replacingOccurrences(of: "items.csv", with: "first.csv"))
        _ = try await fixture.run("first.yaml")
        let before = try Self.dump(store)
        let (result, committed) = try await Self.cancelMidRun(planFile: fixture.path("plan.yaml"))
        #expect(committed >= 20)
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try Self.dump(store) == before)
        #expect(try PersistentStore.metadata(at: store)["run.active"] == nil)
        #expect(try ImportFixture.rows(store, "SELECT name FROM sqlite_master WHERE name LIKE 'seedkit_import%'") == [])
        // The store takes the next import as if nothing had happened.
        let again = try await fixture.run("first.yaml")
        #expect(again.entities["Item"]?.unchanged == 2)
    }

    @Test func anImportWhoseTaskIsCancelledBeforeItStartsWritesNothing() async throws {
        let fixture = try Self.fixture()
        let importer = try Importer(planFile: fixture.path("plan.yaml"))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await importer.run()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Self.sideFiles(of: fixture.path("Catalog.sqlite")) == [])
    }

    /// Every row of every table of the catalog (keys and versions included) and the metadata
    /// the import writes.
    static func dump(_ store: String) throws -> [String] {
        try RowPathTests.dump(store)
    }
}
