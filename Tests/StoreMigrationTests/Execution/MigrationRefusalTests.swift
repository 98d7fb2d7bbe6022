// Refusals and stops (docs/Migration.md, "Errors"): a mapping model naming a property the
// destination lacks, an expression SeedKit cannot run, another connection holding the store, and
// a store written to while the migration builds its new file. Each leaves the store as it was and
// no file of the migration's.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct MigrationRefusalTests {
    typealias Support = MigrationTestSupport
    typealias Run = MigrationRunTests

    /// Item → Item with the given attribute mappings (Shop → Shop 2 of MigrationRunTests).
    static func mapping(_ attributes: [PropertyMapping]) -> MappingModel {
        MappingModel(
            source: MappingModelVersion(path: "Shop.xcdatamodeld/Shop.xcdatamodel"),
            destination: MappingModelVersion(path: "Shop.xcdatamodeld/Shop 2.xcdatamodel"),
            entityMappings: [
                EntityMapping(
                    name: "ItemToItem", kind: .transform, sourceEntity: "Item", destinationEntity: "Item", number: 1,
                    attributeMappings: attributes)
            ])
    }

    @Test func aMappingNamingAMissingPropertyIsInvalid() async throws {
        let scratch = try Scratch()
        let path = try Run.store(scratch)
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(
                path, versions: try Run.versions(), mappings: [Self.mapping([PropertyMapping(name: "colour")])])
        }
        guard case .invalidMapping(let problems) = error.kind else {
            Issue.record("expected invalidMapping, got \(error.kind)")
            return
        }
        #expect(problems.contains { $0.contains("ItemToItem") && $0.contains("colour") })
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func anExpressionSeedKitCannotRunIsRefusedNamingIt() async throws {
        let scratch = try Scratch()
        let path = try Run.store(scratch)
        let before = try Support.bytes(path)
        let fetch = MappingExpression.function(
            target: .variable("manager"), selector: "fetchRequestFromTemplateWithName:",
            arguments: [.constant(.string("All"))])
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(
                path, versions: try Run.versions(),
                mappings: [Self.mapping([PropertyMapping(name: "name", valueExpression: fetch)])])
        }
        guard case .unsupportedExpression(let lines) = error.kind else {
            Issue.record("expected unsupportedExpression, got \(error.kind)")
            return
        }
        #expect(lines.count == 1 && lines[0].contains("ItemToItem") && lines[0].contains(fetch.format))
        #expect(try Support.bytes(path) == before)
    }

    @Test func aStoreHeldByAnotherConnectionIsBusyAndLeftAlone() async throws {
        let scratch = try Scratch()
        let path = try Run.store(scratch)
        let writer = try SQLiteConnection(path: path, mode: .readWrite)
        defer { writer.close() }
        try writer.execute("PRAGMA wal_autocheckpoint=0")
        try writer.execute("UPDATE Item SET name = name || '!'")
        let reader = try SQLiteConnection(path: path, mode: .readWrite)
        defer { reader.close() }
        try reader.execute("BEGIN")
        _ = try reader.prepare("SELECT count(*) FROM Item").step()
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Run.versions())
        }
        #expect(error.kind == .storeBusy)
        try reader.execute("COMMIT")
        #expect(try Support.metadata(path).modelHash == (try Run.version1()).versionHash)
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func aStoreWrittenToDuringTheMigrationIsNotReplaced() async throws {
        let scratch = try Scratch()
        let path = try Run.store(scratch)
        var options = MigrationOptions()
        options.batchSize = 5
        options.onStopPoint = { point in
            guard point == .batchCommitted(pass: 1, batch: 1) else { return }
            // Another process writes to the store: a rollback-journal transaction of its own.
            guard let other = try? SQLiteConnection(path: path, mode: .readWrite) else { return }
            try? other.execute("UPDATE Item SET name = 'changed' WHERE pk = 1")
            other.close()
        }
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Run.versions(), options: options)
        }
        #expect(error.kind == .storeChangedDuringMigration)
        #expect(try Support.metadata(path).modelHash == (try Run.version1()).versionHash)
        #expect(try Support.rows("SELECT name FROM Item WHERE pk = 1", in: path) == [["changed"]])
        #expect(Support.leftovers(beside: path) == [])
    }
}
