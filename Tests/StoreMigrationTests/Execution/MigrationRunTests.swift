// How a migration runs (docs/Migration.md, "Running a migration"; T-DET-1, T-PROG-1, T-CANCEL-1):
// the same input gives byte-identical files, progress only grows and ends at its total with the
// phases in order, a cancelled migration leaves the store byte for byte as it was, a dry run and
// the data-loss gate change nothing, `into:` leaves the store and writes the new file, a backup
// keeps the old file.
import Foundation
import GraphStore
import ModelFiles
import Synchronization
import Testing

@testable import StoreMigration

@Suite struct MigrationRunTests {
    typealias Support = MigrationTestSupport

    /// 40 items in 4 aisles; version 2 adds `rating` (default 3), drops `note`, renames Aisle → Shelf.
    static func version1() throws -> ObjectModel {
        try ModelBuilder("Shop")
            .entity("Aisle") { aisle in
                aisle.attribute("name", .string)
                aisle.toMany("items", "Item", inverse: "aisle")
            }
            .entity("Item") { item in
                item.attribute("name", .string)
                item.attribute("note", .string)
                item.toOne("aisle", "Aisle", inverse: "items")
            }
            .build()
    }

    static func version2() throws -> ObjectModel {
        try Support.renaming(
            try ModelBuilder("Shop")
                .entity("Shelf") { aisle in
                    aisle.attribute("name", .string)
                    aisle.toMany("items", "Item", inverse: "aisle")
                }
                .entity("Item") { item in
                    item.attribute("name", .string)
                    item.attribute("rating", .integer32, optional: false, default: .integer(3))
                    item.toOne("aisle", "Shelf", inverse: "items")
                }
                .build(),
            ["Shelf": "Aisle"])
    }

    static func versions() throws -> ModelVersionSet {
        try Support.versions([("Shop", try version1()), ("Shop 2", try version2())])
    }

    static func fill(_ context: ObjectContext) throws {
        var aisles: [ManagedObject] = []
        for index in 0..<4 {
            let aisle = try context.insert("Aisle")
            try aisle.set("name", "Aisle \(index)")
            aisles.append(aisle)
        }
        for index in 0..<40 {
            let item = try context.insert("Item")
            try item.set("name", "Item \(index)")
            if index % 3 == 0 { try item.set("note", "note \(index)") }
            try item.setRelated("aisle", to: aisles[index % 4])
        }
    }

    static func store(_ scratch: Scratch, _ name: String = "Shop.sqlite", layout: StoreLayoutKind? = nil) throws
        -> String
    {
        try Support.store(
            at: scratch.file(name), model: try version1(),
            uuid: UUID(uuidString: "6B1D3C1E-0000-4000-8000-000000000001"), layout: layout,
            Self.fill)
    }

    @Test func theSameInputGivesByteIdenticalFiles() async throws {
        let scratch = try Scratch()
        let first = try Self.store(scratch, "First.sqlite")
        let second = scratch.file("Second.sqlite")
        try FileManager.default.copyItem(atPath: first, toPath: second)
        var options = MigrationOptions()
        options.batchSize = 7
        try await Support.migrate(first, versions: try Self.versions(), options: options)
        try await Support.migrate(second, versions: try Self.versions(), options: options)
        #expect(try Support.bytes(first) == Support.bytes(second))
        #expect(try Support.rows("SELECT count(*), sum(rating) FROM Item", in: first) == [["40", "120"]])
    }

    @Test func progressGrowsToItsTotalWithThePhasesInOrder() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch)
        let updates = Mutex<[MigrationProgress]>([])
        var options = MigrationOptions()
        options.batchSize = 10
        options.onProgress = { progress in updates.withLock { $0.append(progress) } }
        let migrator = StoreMigrator(
            store: path, source: MigrationSource(versions: try Self.versions()), options: options)
        let streamed = Task {
            var phases: [MigrationProgress.Phase] = []
            for await progress in migrator.progress { phases.append(progress.phase) }
            return phases
        }
        _ = try await migrator.run()
        let seen = updates.withLock { $0 }
        #expect(seen.count >= 5)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        let last = try #require(seen.last)
        #expect(last.phase == .finished && last.completed == last.total && last.total == 44)
        let order: [MigrationProgress.Phase] = [.preparing, .migrating, .checking, .indexing, .installing, .finished]
        let phases = seen.map(\.phase).reduce(into: [MigrationProgress.Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == order.filter { phases.contains($0) })
        #expect(phases.first == .preparing && phases.contains(.migrating) && phases.contains(.installing))
        #expect(await streamed.value == seen.map(\.phase))
    }

    @Test func aCancelledMigrationLeavesTheStoreAsItWasAndTheNextRunFinishes() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch)
        let before = try Support.bytes(path)
        let reached = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        var options = MigrationOptions()
        options.batchSize = 5
        options.onProgress = { progress in
            guard progress.phase == .migrating, progress.completed > 0 else { return }
            reached.continuation.yield()
            release.wait()
        }
        let task = Task {
            try await Support.migrate(path, versions: try Self.versions(), options: options)
        }
        var iterator = reached.stream.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        release.signal()
        // Later batches report again: let them through.
        let drain = Task.detached {
            for _ in 0..<100 { release.signal() }
        }
        _ = await drain.value
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
        #expect(try Support.metadata(path).modelHash == (try Self.version1()).versionHash)
        try await Support.migrate(path, versions: try Self.versions())
        #expect(try Support.metadata(path).modelHash == (try Self.version2()).versionHash)
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func aDryRunAndTheDataLossGateChangeNothing() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch)
        let before = try Support.bytes(path)
        var options = MigrationOptions()
        options.dryRun = true
        let report = try await Support.migrate(path, versions: try Self.versions(), options: options)
        #expect(report.dryRun && !report.changed && report.dataDropped == ["Item.note: 14 values"])
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])

        options.dryRun = false
        options.allowDataLoss = false
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Self.versions(), options: options)
        }
        #expect(error.kind == .dataLoss(["Item.note: 14 values"]))
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func intoAnotherFileLeavesTheStoreAndABackupKeepsTheOldFile() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch)
        let before = try Support.bytes(path)
        let output = scratch.file("Out.sqlite")
        let migrator = StoreMigrator(store: path, source: MigrationSource(versions: try Self.versions()))
        let report = try await migrator.run(into: output)
        #expect(report.output == output && report.changed)
        #expect(try Support.bytes(path) == before)
        #expect(try Support.metadata(output).modelHash == (try Self.version2()).versionHash)
        #expect(try Support.rows("SELECT count(*) FROM Shelf", in: output) == [["4"]])

        var options = MigrationOptions()
        options.backup = scratch.file("Backup.sqlite")
        let inPlace = try await Support.migrate(path, versions: try Self.versions(), options: options)
        #expect(inPlace.backup == options.backup)
        #expect(try Support.bytes(scratch.file("Backup.sqlite")) == before)
        #expect(try Support.bytes(path) == Support.bytes(output))
    }
}
