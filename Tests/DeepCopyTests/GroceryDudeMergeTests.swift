// The books' scenario: deep-copy Grocery Dude's default data into a store that already holds
// the user's data, keeping the user's objects and adding only what is missing.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import DeepCopy
import TestSupport

@Suite struct GroceryDudeMergeTests {
    static let model: ObjectModel? = {
        let path = Repository.root
            .appendingPathComponent("SeedData/GroceryDude/GroceryDude.xcdatamodeld").path
        return try? ModelLoader.load(from: path)
    }()

    static func insertItem(_ context: ObjectContext, _ name: String, unit: String, home: String, quantity: Float) throws
    {
        func findOrCreate(_ entity: String, _ key: String, _ value: String) throws -> ManagedObject {
            if let found = try context.fetch(FetchRequest(entityName: entity, predicate: .key(key) == value)).first {
                return found
            }
            let object = try context.insert(entity)
            try object.set(key, value)
            return object
        }
        let item = try context.insert("Item")
        try item.set("name", name)
        try item.set("quantity", quantity)
        try item.setRelated("unit", to: try findOrCreate("Unit", "name", unit))
        try item.setRelated("locationAtHome", to: try findOrCreate("LocationAtHome", "storedIn", home))
    }

    @Test func defaultDataMergesIntoUserData() throws {
        let model = try #require(Self.model)
        let seed = try PersistentStore.inMemory(model: model)
        let seeding = try ObjectContext(store: seed)
        for (name, unit, home) in [
            ("Apples", "kg", "Fruit bowl"), ("Milk", "l", "Fridge"), ("Bread", "loaf", "Pantry"),
        ] {
            try Self.insertItem(seeding, name, unit: unit, home: home, quantity: 1)
        }
        try seeding.save()

        let user = try PersistentStore.inMemory(model: model)
        let mine = try ObjectContext(store: user)
        try Self.insertItem(mine, "Milk", unit: "l", home: "Fridge", quantity: 3)
        try Self.insertItem(mine, "Chocolate", unit: "bar", home: "Pantry", quantity: 2)
        try mine.save()

        var options = DeepCopyOptions()
        options.keys = [
            "Item": ["name"], "Unit": ["name"], "LocationAtHome": ["storedIn"], "LocationAtShop": ["aisle"],
        ]
        options.onConflict = .keep
        let report = try DeepCopier(from: seed, to: user, options: options).run()
        #expect(report.entities["Item"]?.copied == 2 && report.entities["Item"]?.matched == 1)
        #expect(report.entities["Unit"]?.copied == 2 && report.entities["LocationAtHome"]?.copied == 1)

        let check = try ObjectContext(store: user)
        let items = try check.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("name")]))
        let rows = try items.map { item in
            "\(try item.get("name", as: String.self) ?? "")|\(try item.get("quantity", as: Float.self) ?? 0)|"
                + "\(try item.related("unit")?.get("name", as: String.self) ?? "-")|"
                + "\(try item.related("locationAtHome")?.get("storedIn", as: String.self) ?? "-")"
        }
        #expect(
            rows == [
                "Apples|1.0|kg|Fruit bowl", "Bread|1.0|loaf|Pantry", "Chocolate|2.0|bar|Pantry", "Milk|3.0|l|Fridge",
            ])
        #expect(try check.count(for: FetchRequest(entityName: "Unit")) == 4)
        #expect(try check.count(for: FetchRequest(entityName: "LocationAtHome")) == 3)
    }
}
