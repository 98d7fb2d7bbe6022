// Fixtures of the first-launch tests: seed stores of the catalog model built once per test
// process (v1: 300 items; v2: 500 items and 10 ordered shopping lists; a seed of another model;
// v2 again with a second version of the model, for the migrating launches),
// user stores made from them with a user's own edits, and checks that read a store with plain SQL.
import Foundation
import GraphStore
import Testing

@testable import SeedKit
import TestSupport

/// The seeds every loader test reads (never writes).
struct LoaderSeeds: Sendable {
    let v1: String
    let v2: String
    let otherModel: String
    let catalogModel: String

    static let v1Version = "2026.1"
    static let v2Version = "2026.2"
    static let v2Items = 500
    static let v2Lists = 10

    /// Built on first use, in a temporary folder.
    static let shared: Result<LoaderSeeds, any Error> = Result {
        let folder = try LoaderFixtures.folder("seeds")
        let repository = Repository.root
        let modelFile = repository.appendingPathComponent("SeedData/Catalog/Catalog.yaml").path
        let model = try ModelLoader.load(from: modelFile)
        let seeds = LoaderSeeds(
            v1: folder + "/v1.sqlite", v2: folder + "/v2.sqlite", otherModel: folder + "/other.sqlite",
            catalogModel: modelFile)
        try LoaderFixtures.makeSeed(at: seeds.v1, model: model, version: v1Version, items: 300, lists: 0)
        try LoaderFixtures.makeSeed(at: seeds.v2, model: model, version: v2Version, items: v2Items, lists: v2Lists)
        let other = try ModelBuilder("Other")
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.unique("sku")
            }
            .build()
        var options = StoreOptions()
        options.writeAheadLog = false
        let store = try PersistentStore.open(at: seeds.otherModel, model: other, options: options)
        try store.setMetadata(["seed.version": v2Version])
        return seeds
    }

    static func get() throws -> LoaderSeeds { try shared.get() }
}

/// The versions file of the catalog model (v1) and v1 + Item.rating (v2, current), and seed v2
/// built with v2; made once per test process.
struct MigrationSeeds: Sendable {
    let versions: String
    let v1: ObjectModel
    let v2: ObjectModel
    let seedV2: String

    static let shared: Result<MigrationSeeds, any Error> = Result {
        let folder = try LoaderFixtures.folder("migration-seeds")
        let catalog = try String(contentsOf: URL(fileURLWithPath: try LoaderSeeds.get().catalogModel), encoding: .utf8)
        let rated = catalog.replacingOccurrences(
            of: "      notes: string\n", with: "      notes: string\n      rating: {type: integer16, default: 3}\n")
        guard rated != catalog else { throw CocoaError(.fileReadCorruptFile) }
        try catalog.write(toFile: folder + "/Catalog.v1.yaml", atomically: true, encoding: .utf8)
        try rated.write(toFile: folder + "/Catalog.v2.yaml", atomically: true, encoding: .utf8)
        let versions = folder + "/Catalog.versions.yaml"
        try """
        versions:
          - {name: v1, file: Catalog.v1.yaml}
          - {name: v2, file: Catalog.v2.yaml}
        current: v2

        """.write(toFile: versions, atomically: true, encoding: .utf8)
        let seeds = MigrationSeeds(
            versions: versions, v1: try ModelLoader.load(from: folder + "/Catalog.v1.yaml"),
            v2: try ModelLoader.load(from: folder + "/Catalog.v2.yaml"), seedV2: folder + "/v2.sqlite")
        try LoaderFixtures.makeSeed(
            at: seeds.seedV2, model: seeds.v2, version: LoaderSeeds.v2Version, items: LoaderSeeds.v2Items,
            lists: LoaderSeeds.v2Lists)
        return seeds
    }

    static func get() throws -> MigrationSeeds { try shared.get() }
}

enum LoaderFixtures {
    /// A new empty temporary folder.
    static func folder(_ name: String) throws -> String {
        let folder = try ScratchFolder.make("seedkit-loader-\(name)")
        return folder
    }

    /// A single-file seed store with its seed record: units u0…u4, tags t0…t6, items S-0… (each
    /// with a unit and a tag), and `lists` ordered shopping lists L-0… of five items each.
    static func makeSeed(at path: String, model: ObjectModel, version: String, items: Int, lists: Int) throws {
        var options = StoreOptions()
        options.writeAheadLog = false
        let store = try PersistentStore.open(at: path, model: model, options: options)
        let context = try ObjectContext(store: store)
        let units = try (0..<5).map { index in
            let unit = try context.insert("Unit")
            try unit.set("name", "u\(index)")
            return unit
        }
        let tags = try (0..<7).map { index in
            let tag = try context.insert("Tag")
            try tag.set("name", "t\(index)")
            return tag
        }
        let itemObjects = try (0..<items).map { index in
            let item = try context.insert("Item")
            try item.set("sku", "S-\(index)")
            try item.set("name", "Item \(index)")
            try item.set("price", Double(index % 100) + 0.5)
            try item.setRelated("unit", to: units[index % 5])
            try item.add(tags[index % 7], to: "tags")
            return item
        }
        for index in 0..<lists {
            let list = try context.insert("ShoppingList")
            try list.set("code", "L-\(index)")
            for member in listMembers(index) { try list.add(itemObjects[member], to: "items") }
        }
        try context.save()
        try store.setMetadata(["seed.version": version])
        try store.recordSeedObjects()  // as a seed build does
    }

    /// The items of list `index`, in order.
    static func listMembers(_ index: Int) -> [Int] {
        (0..<5).map { (index * 7 + $0 * 3 + 4) % LoaderSeeds.v2Items }
    }

    /// A user store at `path`: a copy of `seed` in which the user renamed S-1 to "Mine" and
    /// added an item U-1 of their own.
    static func makeUserStore(at path: String, from seed: String) throws {
        try FileManager.default.copyItem(atPath: seed, toPath: path)
        let store = try PersistentStore.open(at: path)
        let context = try ObjectContext(store: store)
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "sku == %@", "S-1"))
        try context.fetch(request).first?.set("name", "Mine")
        let mine = try context.insert("Item")
        try mine.set("sku", "U-1")
        try mine.set("name", "My own")
        try context.save()
    }

    /// The single value of a SQL query on the store at `path`.
    static func value(_ sql: String, in path: String) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare(sql)
        #expect(try statement.step(), "no row for \(sql)")
        return statement.string(0)
    }

    /// Checks the store after a complete merge of v2 into a user store made from v1: SQLite's
    /// integrity check, exact counts, no duplicates, the user's edits, the seed's new objects
    /// and links (list order included), the marker, and nothing left of the run or the loader.
    static func expectMergedUserStore(_ path: String) throws {
        #expect(try value("PRAGMA integrity_check", in: path) == "ok")
        #expect(try value("SELECT count(*) || '/' || count(DISTINCT sku) FROM Item", in: path) == "501/501")
        #expect(try value("SELECT count(*) || '/' || count(DISTINCT name) FROM Unit", in: path) == "5/5")
        #expect(try value("SELECT count(*) || '/' || count(DISTINCT name) FROM Tag", in: path) == "7/7")
        #expect(try value("SELECT count(*) FROM ShoppingList", in: path) == "\(LoaderSeeds.v2Lists)")
        #expect(try value("SELECT count(*) FROM Item_tags", in: path) == "\(LoaderSeeds.v2Items)")
        #expect(try value("SELECT name FROM Item WHERE sku = 'S-1'", in: path) == "Mine")
        #expect(try value("SELECT name FROM Item WHERE sku = 'U-1'", in: path) == "My own")
        #expect(
            try value(
                "SELECT u.name || ' ' || i.name FROM Item i JOIN Unit u ON u.pk = i.unit WHERE i.sku = 'S-456'",
                in: path)
                == "u1 Item 456")
        let store = try PersistentStore.open(at: path)
        let metadata = try store.metadata()
        #expect(metadata["seed.version"] == LoaderSeeds.v2Version)
        #expect(metadata["run.active"] == nil)
        let context = try ObjectContext(store: store)
        let request = FetchRequest(
            entityName: "ShoppingList", predicate: try FetchPredicate(format: "code == %@", "L-3"))
        let members = try context.fetch(request).first?.relatedObjects("items").map {
            try $0.get("sku", as: String.self)
        }
        #expect(members == LoaderFixtures.listMembers(3).map { "S-\($0)" })
        try expectNoLeftovers(besides: path)
    }

    /// Checks that the loader left no temporary files beside the store.
    static func expectNoLeftovers(besides path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.filter { $0.contains(".seedkit-") }.isEmpty, "leftovers: \(names)")
    }

    /// Every update of a loader's progress stream, once it finishes.
    static func collect(_ progress: AsyncStream<SeedLoader.Progress>) async -> [SeedLoader.Progress] {
        var updates: [SeedLoader.Progress] = []
        for await update in progress { updates.append(update) }
        return updates
    }

    /// The bytes of a file.
    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
