// A small stocked catalog store shared by the child-context tests: units, tags, items and an
// ordered shopping list, saved, with the IDs of each object by name and ways to read the store
// back in a fresh context.
import Foundation
import Testing

@testable import GraphStore

/// A catalog store holding units kg and g, tags fruit and red, items A-1 (Apples, 1.0, kg,
/// tagged fruit and red) and B-2 (Bananas, 2.0, kg, tagged fruit), and list L1 holding [A-1, B-2].
struct CatalogStock {
    let store: PersistentStore
    /// Object IDs by unit name, tag name, item SKU and list code.
    let ids: [String: ObjectID]

    init() throws {
        store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        var objects: [String: ManagedObject] = [:]
        for name in ["kg", "g"] {
            objects[name] = try context.insert("Unit")
            try objects[name]?.set("name", name)
        }
        for name in ["fruit", "red"] {
            objects[name] = try context.insert("Tag")
            try objects[name]?.set("name", name)
        }
        for (sku, name, price, tags) in [("A-1", "Apples", 1.0, ["fruit", "red"]), ("B-2", "Bananas", 2.0, ["fruit"])] {
            let item = try CatalogModel.insertItem(into: context, sku: sku, name: name, price: price)
            try item.setRelated("unit", to: objects["kg"])
            for tag in tags { try item.add(try #require(objects[tag]), to: "tags") }
            objects[sku] = item
        }
        let list = try context.insert("ShoppingList")
        try list.set("code", "L1")
        try list.setRelatedObjects("items", to: [try #require(objects["A-1"]), try #require(objects["B-2"])])
        objects["L1"] = list
        try context.save()
        ids = objects.mapValues(\.objectID)
    }

    /// The ID of the object called `name`.
    func id(_ name: String) throws -> ObjectID {
        try #require(ids[name])
    }

    /// A context of the store and a child of it.
    func parentAndChild() throws -> (ObjectContext, ObjectContext) {
        let parent = try ObjectContext(store: store)
        return (parent, try parent.newChildContext())
    }

    /// `body`'s result over a fresh context of the store: what the store holds.
    func stored<T>(_ body: (ObjectContext) throws -> T) throws -> T {
        let fresh = try ObjectContext(store: store)
        return try withExtendedLifetime(fresh) { try body(fresh) }
    }

    /// The stored items as `sku name price unit` lines, in SKU order.
    func storedItems() throws -> [String] {
        try stored { context in
            try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("sku")])).map {
                try Self.line(of: $0)
            }
        }
    }

    /// `sku name price unit` of an item.
    static func line(of item: ManagedObject) throws -> String {
        let unit = try item.related("unit")?.get("name", as: String.self) ?? "-"
        return try "\(item.get("sku", as: String.self) ?? "?") \(item.get("name", as: String.self) ?? "?")"
            + " \(item.get("price", as: Double.self) ?? 0) \(unit)"
    }

    /// The stored names or SKUs of the members of `relationship` of the object `name`, in order.
    func storedMembers(of name: String, _ relationship: String, key: String) throws -> [String] {
        let id = try id(name)
        return try stored { context in
            try context.existingObject(with: id).relatedObjects(relationship).map {
                try $0.get(key, as: String.self) ?? "?"
            }
        }
    }

    /// The stored items as they were when the stock was made.
    static let originalItems = ["A-1 Apples 1.0 kg", "B-2 Bananas 2.0 kg"]
}
