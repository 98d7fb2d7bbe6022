// Tests of store creation (the schema it makes), metadata, read-only opening and the refusal of
// incompatible models.
import Foundation
import Testing

@testable import GraphStore
import TestSupport

@Suite struct PersistentStoreTests {
    static func temporaryPath(_ name: String = "store") -> String {
        ScratchFolder.path("seedkit-tests", suffix: "-\(name).sqlite")
    }

    static func tables(in path: String) throws -> [String: String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let statement = try connection.prepare("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
        var result: [String: String] = [:]
        while try statement.step() { result[statement.string(0)] = statement.string(1) }
        return result
    }

    @Test func createsTheDocumentedSchema() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try PersistentStore.open(at: path, model: CatalogModel.build())
        let schema = try Self.tables(in: path)
        #expect(
            schema["Item"]
                == "CREATE TABLE \"Item\"(pk INTEGER PRIMARY KEY, ent INTEGER NOT NULL, opt INTEGER NOT NULL, \"added\" REAL, \"listed\" INTEGER, \"location\" INTEGER, \"name\" TEXT, \"notes\" TEXT, \"price\" REAL, \"quantity\" INTEGER, \"sku\" TEXT, \"unit\" INTEGER)"
        )
        #expect(
            schema["Item_tags"]?.contains("src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY(src, dst)") == true)
        #expect(schema["ShoppingList_items"]?.contains("position INTEGER") == true)
        #expect(schema["uq_Item_sku"] == "CREATE UNIQUE INDEX \"uq_Item_sku\" ON \"Item\"(\"sku\")")
        #expect(schema["idx_Item_unit"] != nil && schema["idx_Item_tags_dst"] != nil)
        #expect(schema["seedkit_metadata"] != nil && schema["seedkit_entity"] != nil)
    }

    @Test func subEntitiesShareTheRootTableWithPartialUniqueIndexes() throws {
        let model = try ModelBuilder("Places")
            .entity("Location", abstract: true) { $0.attribute("summary", .string) }
            .entity("Shelf", parent: "Location") { shelf in
                shelf.attribute("aisle", .string)
                shelf.unique("aisle")
            }
            .build()
        let store = try PersistentStore.inMemory(model: model)
        let connection = try store.makeConnection()
        let statement = try connection.prepare("SELECT sql FROM sqlite_master WHERE name = 'uq_Shelf_aisle'")
        #expect(try statement.step())
        #expect(statement.string(0).hasSuffix("WHERE ent IN (2)"))
        let entities = try connection.prepare("SELECT id, name, parent FROM seedkit_entity ORDER BY id")
        var rows: [String] = []
        while try entities.step() {
            rows.append(
                "\(entities.int64(0)) \(entities.string(1)) \(entities.isNull(2) ? "-" : String(entities.int64(2)))")
        }
        #expect(rows == ["1 Location -", "2 Shelf 1"])
    }

    @Test func metadataRoundTripsWithoutAStack() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let model = try CatalogModel.build()
        let uuid = UUID()
        var options = StoreOptions()
        options.storeUUID = uuid
        let store = try PersistentStore.open(at: path, model: model, options: options)
        try store.setMetadata(["seed.version": "2026.11", "custom": "x"])
        try store.setMetadata(["custom": nil])
        let metadata = try PersistentStore.metadata(at: path)
        #expect(metadata.formatVersion == "1")
        #expect(metadata.storeUUID == uuid.uuidString)
        #expect(metadata.modelHash == model.versionHash)
        #expect(metadata.modelName == "Catalog")
        #expect(metadata.entityHashes["Item"] == model.entity(named: "Item")?.versionHash)
        #expect(metadata.userValues == ["seed.version": "2026.11"])
        #expect(try metadata.model(source: path).versionHash == model.versionHash)
        let reopened = try PersistentStore.open(at: path)
        #expect(reopened.identifier == uuid)
        #expect(reopened.model.versionHash == model.versionHash)
    }

    @Test func readOnlyOpenRefusesWritesAndLeavesNoSideFiles() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var creation = StoreOptions()
        creation.writeAheadLog = false
        _ = try PersistentStore.open(at: path, model: CatalogModel.build(), options: creation)
        var options = StoreOptions()
        options.readOnly = true
        let store = try PersistentStore.open(at: path, options: options)
        #expect(store.isReadOnly)
        #expect(throws: StoreError.self) { try store.setMetadata(["x": "y"]) }
        let connection = try store.makeConnection()
        #expect(throws: SQLiteError.self) { try connection.execute("DELETE FROM seedkit_metadata") }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        var missing = StoreOptions()
        missing.readOnly = true
        let error = try #require(throws: StoreError.self) {
            _ = try PersistentStore.open(at: path + ".none", options: missing)
        }
        #expect(error.kind == .fileNotFound)
    }

    @Test func refusesAnIncompatibleModelAndLeavesTheFileUntouched() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var options = StoreOptions()
        options.writeAheadLog = false
        _ = try PersistentStore.open(at: path, model: CatalogModel.build(), options: options)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let changed = try CatalogModel.declaration().entity("Extra") { $0.attribute("x", .string) }.build()
        let error = try #require(throws: StoreError.self) { _ = try PersistentStore.open(at: path, model: changed) }
        guard case .incompatibleModel(let differences) = error.kind else {
            Issue.record("expected an incompatible-model error, got \(error)")
            return
        }
        #expect(differences == ["Extra: entity added"])
        #expect(error.description.contains("incompatible model: Extra: entity added"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func refusesAFileThatIsNotAStore() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("hello, not a database at all, just text".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) { _ = try PersistentStore.metadata(at: path) }
        #expect(error.kind == .notAStore)
    }

    @Test func deferredIndexesAreBuiltLater() throws {
        var options = StoreOptions()
        options.deferIndexes = true
        let store = try PersistentStore.inMemory(model: CatalogModel.build(), options: options)
        let connection = try store.makeConnection()
        let count = try connection.prepare(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'uq_%'")
        _ = try count.step()
        #expect(count.int64(0) == 0)
        count.reset()
        #expect(try store.metadata()[StoreMetadata.Key.indexesPending] == "1")
        try store.createIndexes()
        count.reset()
        _ = try count.step()
        #expect(count.int64(0) == 5)
        count.reset()
        #expect(try store.metadata()[StoreMetadata.Key.indexesPending] == nil)
    }
}
