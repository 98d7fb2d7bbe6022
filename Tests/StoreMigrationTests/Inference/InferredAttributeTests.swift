// Inferred rules for attributes (docs/Migration.md, "Inferred rules"; T-INF-1…8 and T-META-1): each
// test migrates a store built in the old model and compares it, object by object (StoreDiff),
// with a store built directly in the new model, and checks the keys, entity numbers, store UUID
// and user metadata kept; refusals leave the store byte for byte as it was.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct InferredAttributeTests {
    typealias Support = MigrationTestSupport

    /// Item(name, photo) with three items, two with a photo.
    static func version1() throws -> ObjectModel {
        try ModelBuilder("Shop")
            .entity("Item") { item in
                item.attribute("name", .string, optional: false)
                item.attribute("photo", .binary)
                item.attribute("quantity", .integer16)
                item.attribute("note", .string)
            }
            .build()
    }

    static func fillVersion1(_ context: ObjectContext) throws {
        for (index, name) in ["Apples", "Bread", "Milk"].enumerated() {
            let item = try context.insert("Item")
            try item.set("name", name)
            if index < 2 { try item.set("photo", Data([UInt8(index), 1, 2])) }
            try item.set("quantity", Int64(index * 10))
            if index == 1 { try item.set("note", "fresh") }
        }
    }

    @Test func addsAttributesWithTheirDefaultsAndDropsRemovedValuesCounted() async throws {
        let scratch = try Scratch()
        let version2 = try ModelBuilder("Shop")
            .entity("Item") { item in
                item.attribute("name", .string, optional: false)
                item.attribute("quantity", .integer16)
                item.attribute("note", .string, optional: false, default: .string("none"))
                item.attribute("aisle", .string)
                item.attribute("rating", .integer32, optional: false, default: .integer(3))
                item.attribute("listed", .boolean, default: .boolean(true))
            }
            .build()
        let uuid = UUID()
        let path = try Support.store(
            at: scratch.file("Shop.sqlite"), model: try Self.version1(), uuid: uuid,
            metadata: ["seed.version": "7", "app.custom": "kept"], Self.fillVersion1)
        let keysBefore = try Support.keys(of: path)
        let report = try await Support.migrate(
            path, versions: try Support.versions([("Shop", try Self.version1()), ("Shop 2", version2)]))

        let expected = try Support.store(at: scratch.file("Expected.sqlite"), model: version2) { context in
            for (index, name) in ["Apples", "Bread", "Milk"].enumerated() {
                let item = try context.insert("Item")
                try item.set("name", name)
                try item.set("quantity", Int64(index * 10))
                try item.set("note", index == 1 ? "fresh" : "none")
                try item.set("rating", Int64(3))
                try item.set("listed", true)
            }
        }
        #expect(try Support.differences(path, expected) == [])
        #expect(try Support.keys(of: path) == keysBefore)
        let metadata = try Support.metadata(path)
        #expect(metadata.storeUUID == uuid.uuidString)
        #expect(metadata["seed.version"] == "7" && metadata["app.custom"] == "kept")
        #expect(metadata.modelHash == version2.versionHash)
        #expect(metadata["migration.from"] == (try Self.version1()).versionHash)
        #expect(metadata[StoreMetadata.Key.indexesPending] == nil)
        #expect(report.dataDropped == ["Item.photo: 2 values"])
        #expect(report.entities["Item"] == MigrationReport.EntityCounts(kept: 3, created: 0, dropped: 0))
        #expect(report.passes.map(\.kind) == [.inferred] && report.changed)
        #expect(Support.leftovers(beside: path) == [])
        #expect(try Support.rows("PRAGMA journal_mode", in: path) == [["delete"]])
    }

    @Test func aRequiredAttributeWithoutDefaultIsRefusedBeforeAnyByteChanges() async throws {
        let scratch = try Scratch()
        let version2 = try ModelBuilder("Shop")
            .entity("Item") { item in
                item.attribute("name", .string, optional: false)
                item.attribute("sku", .string, optional: false)
            }
            .build()
        let path = try Support.store(at: scratch.file("Empty.sqlite"), model: try Self.version1())
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(
                path, versions: try Support.versions([("Shop", try Self.version1()), ("Shop 2", version2)]))
        }
        #expect(
            error.kind
                == .noPath(
                    from: "Shop", to: "Shop 2", changes: ["Item.sku: required attribute without default"]))
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }
}
