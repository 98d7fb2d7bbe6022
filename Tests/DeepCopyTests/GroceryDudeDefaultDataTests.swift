// The books' scenario with the real default data: SeedData/GroceryDude/DefaultData.xml imported
// through GroceryDude.yaml into a seed store, then deep-copied into a user's store that already
// holds items, units and locations (some the same as the seed's, matched by the keys given for
// the copy, since the model has no unique constraints). The user's objects are kept as they are,
// only what is missing is added, and every item's unit and locations are wired — checked by
// walking both sides of each relationship against the XML's own contents.
import Foundation
import GraphStore
import SeedImport
import Testing

@testable import DeepCopy
import TestSupport

@Suite struct GroceryDudeDefaultDataTests {
    static let folder = Repository.root.appendingPathComponent("SeedData/GroceryDude")

    /// One `<item>` of the default data: name, unit, location at home, location in the shop.
    struct DefaultItem: Hashable {
        let name: String
        let unit: String
        let home: String
        let shop: String
    }

    /// The items of DefaultData.xml, read with a pattern (each is one element on one line).
    static func defaultItems() throws -> [DefaultItem] {
        let text = try String(contentsOf: folder.appendingPathComponent("DefaultData.xml"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"<item name="([^"]*)" unit="([^"]*)" locationathome="([^"]*)" locationatshop="([^"]*)"/>"#)
        var items: [DefaultItem] = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let fields = (1...4).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
                .map { $0.replacingOccurrences(of: "&amp;", with: "&") }
            guard fields.count == 4 else { continue }
            let item = DefaultItem(name: fields[0], unit: fields[1], home: fields[2], shop: fields[3])
            if !items.contains(where: { $0.name == item.name }) { items.append(item) }
        }
        return items
    }

    /// A seed store imported from the default data in a temporary folder.
    static func seedStore(in directory: URL) async throws -> PersistentStore {
        for name in ["GroceryDude.yaml", "DefaultData.xml", "GroceryDude.xcdatamodeld"] {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        var options = ImportOptions()
        options.store = directory.appendingPathComponent("Seed.sqlite").path
        _ = try await Importer(planFile: directory.appendingPathComponent("GroceryDude.yaml").path, options: options)
            .run()
        return try PersistentStore.open(at: directory.appendingPathComponent("Seed.sqlite").path)
    }

    /// Finds the object of `entity` whose `key` is `value`, or inserts it.
    static func findOrInsert(_ context: ObjectContext, _ entity: String, _ key: String, _ value: String) throws
        -> ManagedObject
    {
        if let found = try context.fetch(FetchRequest(entityName: entity, predicate: .key(key) == value)).first {
            return found
        }
        let object = try context.insert(entity)
        try object.set(key, value)
        return object
    }

    /// The user's own items: two the seed has too (with the user's quantities and a photo), one of their own.
    static let userItems: [(item: DefaultItem, quantity: Float)] = [
        (DefaultItem(name: "Milk", unit: "l", home: "Fridge", shop: "Dairy"), 3),
        (DefaultItem(name: "Apples", unit: "kg", home: "Fruit bowl", shop: "Fruit & vegetables"), 5),
        (DefaultItem(name: "Tea", unit: "box", home: "Pantry", shop: "Drinks"), 2),
    ]

    static func userStore(at path: String, model: ObjectModel) throws -> PersistentStore {
        let store = try PersistentStore.open(at: path, model: model)
        let context = try ObjectContext(store: store)
        for (user, quantity) in userItems {
            let item = try context.insert("Item")
            try item.set("name", user.name)
            try item.set("quantity", quantity)
            try item.set("photoData", Data(user.name.utf8))
            try item.setRelated("unit", to: try findOrInsert(context, "Unit", "name", user.unit))
            try item.setRelated(
                "locationAtHome", to: try findOrInsert(context, "LocationAtHome", "storedIn", user.home))
            try item.setRelated("locationAtShop", to: try findOrInsert(context, "LocationAtShop", "aisle", user.shop))
        }
        let fridge = try findOrInsert(context, "LocationAtHome", "storedIn", "Fridge")
        try fridge.set("summary", "the user's own note")
        try context.save()
        return store
    }

    /// Every item as `name|quantity|photo|unit|home|shop`, and every unit and location with its items' names.
    static func walk(_ store: PersistentStore) throws -> (items: [String], owners: [String]) {
        let context = try ObjectContext(store: store)
        let items = try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("name")]))
        let itemLines = try items.map { item in
            [
                try item.get("name", as: String.self) ?? "", "\(try item.get("quantity", as: Float.self) ?? -1)",
                try item.get("photoData", as: Data.self).map { String(decoding: $0, as: UTF8.self) } ?? "-",
                try item.related("unit")?.get("name", as: String.self) ?? "-",
                try item.related("locationAtHome")?.get("storedIn", as: String.self) ?? "-",
                try item.related("locationAtShop")?.get("aisle", as: String.self) ?? "-",
            ].joined(separator: "|")
        }
        var owners: [String] = []
        for (entity, key) in [("Unit", "name"), ("LocationAtHome", "storedIn"), ("LocationAtShop", "aisle")] {
            let objects = try context.fetch(
                FetchRequest(entityName: entity, sortDescriptors: [FetchSortDescriptor(key)]))
            for owner in objects {
                let names = try owner.relatedObjects("items").map { try $0.get("name", as: String.self) ?? "" }.sorted()
                owners.append("\(entity)|\(try owner.get(key, as: String.self) ?? "")|" + names.joined(separator: ","))
            }
        }
        return (itemLines, owners)
    }

    /// What `walk` gives for `items` (name → quantity and photo).
    static func expected(_ items: [DefaultItem], quantities: [String: Float], photos: Set<String>) -> (
        items: [String], owners: [String]
    ) {
        let lines = items.sorted { $0.name < $1.name }.map { item in
            [
                item.name, "\(quantities[item.name] ?? 1)", photos.contains(item.name) ? item.name : "-", item.unit,
                item.home, item.shop,
            ].joined(separator: "|")
        }
        var owners: [String] = []
        let sides: [(String, KeyPath<DefaultItem, String>)] = [
            ("Unit", \.unit), ("LocationAtHome", \.home), ("LocationAtShop", \.shop),
        ]
        for (entity, side) in sides {
            for owner in Set(items.map { $0[keyPath: side] }).sorted() {
                let names = items.filter { $0[keyPath: side] == owner }.map(\.name).sorted()
                owners.append("\(entity)|\(owner)|" + names.joined(separator: ","))
            }
        }
        return (lines, owners)
    }

    @Test func theDefaultDataMergesIntoAUsersStore() async throws {
        let directory = URL(fileURLWithPath: try ScratchFolder.make("seedkit-gd"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let defaults = try Self.defaultItems()
        #expect(defaults.count == 14)
        let seed = try await Self.seedStore(in: directory)
        let seeded = Self.expected(defaults, quantities: [:], photos: [])
        let seedWalk = try Self.walk(seed)
        #expect(seedWalk.items == seeded.items)
        #expect(seedWalk.owners == seeded.owners)

        let user = try Self.userStore(at: directory.appendingPathComponent("User.sqlite").path, model: seed.model)
        var options = DeepCopyOptions()
        options.keys = [
            "Item": ["name"], "Unit": ["name"], "LocationAtHome": ["storedIn"], "LocationAtShop": ["aisle"],
        ]
        options.onConflict = .keep
        let report = try DeepCopier(from: seed, to: user, options: options).run()
        #expect(report.entities["Item"]?.copied == 12 && report.entities["Item"]?.matched == 2)
        #expect(report.entities["Unit"]?.copied == 6 && report.entities["Unit"]?.matched == 2)
        #expect(report.entities["LocationAtHome"]?.copied == 2 && report.entities["LocationAtHome"]?.matched == 3)
        #expect(report.entities["LocationAtShop"]?.copied == 4 && report.entities["LocationAtShop"]?.matched == 3)

        let merged = Self.expected(
            defaults + [Self.userItems[2].item], quantities: ["Milk": 3, "Apples": 5, "Tea": 2],
            photos: ["Milk", "Apples", "Tea"])
        let walked = try Self.walk(user)
        #expect(walked.items == merged.items)
        #expect(walked.owners == merged.owners)
        let check = try ObjectContext(store: user)
        let fridge = try #require(
            try check.fetch(FetchRequest(entityName: "LocationAtHome", predicate: .key("storedIn") == "Fridge")).first)
        #expect(try fridge.get("summary", as: String.self) == "the user's own note")

        // Copying the defaults again adds nothing.
        let again = try DeepCopier(from: seed, to: user, options: options).run()
        #expect(again.entities.values.allSatisfy { $0.copied == 0 })
        #expect(try Self.walk(user).items == merged.items)
    }
}
