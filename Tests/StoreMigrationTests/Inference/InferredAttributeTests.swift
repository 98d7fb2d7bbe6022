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

    /// Item(name, quantity Integer 16 optional, note) with `quantity` of `type` and `note`
    /// required with a default when `requiredNote`.
    static func item(
        quantity type: AttributeType = .integer16, requiredNote: Bool = false, indexed: Bool = false,
        uniqueName: Bool = false
    ) throws -> ObjectModel {
        try ModelBuilder("Shop")
            .entity("Item") { item in
                item.attribute("name", .string, optional: false, indexed: indexed)
                item.attribute("quantity", type)
                if requiredNote {
                    item.attribute("note", .string, optional: false, default: .string("none"))
                } else {
                    item.attribute("note", .string)
                }
                if uniqueName { item.unique("name") }
            }
            .build()
    }

    static func fillItems(_ context: ObjectContext, names: [String] = ["Apples", "Bread", "Milk"]) throws {
        for (index, name) in names.enumerated() {
            let item = try context.insert("Item")
            try item.set("name", name)
            try item.set("quantity", Int64(index * 10))
            if index == 1 { try item.set("note", "fresh") }
        }
    }

    @Test func optionalBecomingRequiredFillsNilsWithTheDefault() async throws {
        let scratch = try Scratch()
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.item(), { try Self.fillItems($0) }, to: try Self.item(requiredNote: true),
            expected: { context in
                try Self.fillItems(context)
                for item in try context.fetch(FetchRequest(entityName: "Item"))
                where try item.get("note", as: String.self) == nil {
                    try item.set("note", "none")
                }
            })
        #expect(try Support.keys(of: compared.path) == compared.keysBefore)
        #expect(compared.report.dataDropped == [])
    }

    @Test func aTypeChangeIsRefusedUnlessItWidensWithoutLossAndThatIsAllowed() async throws {
        let scratch = try Scratch()
        let versions = try Support.versions([
            ("Shop", try Self.item()), ("Shop 2", try Self.item(quantity: .integer64)),
        ])
        let path = try Support.store(at: scratch.file("Shop.sqlite"), model: try Self.item()) { try Self.fillItems($0) }
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions)
        }
        #expect(error.kind == .noPath(from: "Shop", to: "Shop 2", changes: ["Item.quantity: integer16 → integer64"]))
        #expect(try Support.bytes(path) == before)

        var options = MigrationOptions()
        options.inferLosslessWidening = true
        try await Support.migrate(path, versions: versions, options: options)
        #expect(try Support.rows("SELECT quantity FROM Item ORDER BY pk", in: path) == [["0"], ["10"], ["20"]])
        #expect(try Support.metadata(path).modelHash == (try Self.item(quantity: .integer64)).versionHash)
    }

    @Test func anIndexAddedIsBuiltAndItsRowsKept() async throws {
        let scratch = try Scratch()
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.item(), { try Self.fillItems($0) }, to: try Self.item(indexed: true),
            expected: { try Self.fillItems($0) })
        #expect(try Support.keys(of: compared.path) == compared.keysBefore)
        #expect(
            try Support.rows(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%name%'", in: compared.path)
                == [["1"]])
    }

    @Test func aUniqueConstraintAddedIsCheckedOnTheData() async throws {
        let scratch = try Scratch()
        let versions = try Support.versions([("Shop", try Self.item()), ("Shop 2", try Self.item(uniqueName: true))])
        let path = try Support.store(at: scratch.file("Shop.sqlite"), model: try Self.item()) {
            try Self.fillItems($0, names: ["Milk", "Apples", "Milk", "Bread", "Apples"])
        }
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions)
        }
        #expect(
            error.kind
                == .dataCheck(
                    DataCheckFailure(rule: .uniqueViolation, subject: "Item.name", count: 2, first: "[Apples]")))
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])

        let unique = try Support.store(at: scratch.file("Unique.sqlite"), model: try Self.item()) {
            try Self.fillItems($0)
        }
        try await Support.migrate(unique, versions: versions)
        #expect(try Support.metadata(unique).modelHash == (try Self.item(uniqueName: true)).versionHash)
    }

    @Test func aHashModifierAloneRewritesTheMetadataInPlace() async throws {
        let scratch = try Scratch()
        var entities = try Self.item().entityDescriptions
        entities[0].attributes[0].hashModifier = "2"
        let modified = try ObjectModel(name: "Shop", entities: entities)
        #expect(modified.versionHash != (try Self.item()).versionHash)
        let path = try Support.store(at: scratch.file("Shop.sqlite"), model: try Self.item()) { try Self.fillItems($0) }
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        let rows = try Support.rows("SELECT * FROM Item ORDER BY pk", in: path)
        let report = try await Support.migrate(
            path, versions: try Support.versions([("Shop", try Self.item()), ("Shop 2", modified)]))
        #expect(report.passes.map(\.kind) == [.metadata])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
        #expect(try Support.metadata(path).modelHash == modified.versionHash)
        #expect(try Support.rows("SELECT * FROM Item ORDER BY pk", in: path) == rows)
        let store = try PersistentStore.open(at: path, model: modified)
        #expect(try ObjectContext(store: store).count(for: FetchRequest(entityName: "Item")) == 3)
    }
}
