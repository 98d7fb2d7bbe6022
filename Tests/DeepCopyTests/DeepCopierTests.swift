// Deep copy: every relationship kind survives (checked by walking the copy), ordered order,
// self references and cycles, inheritance, merging by key with each policy, unkeyed entities,
// and a failed copy leaving the target as it was.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct DeepCopierTests {
    /// The shop model; the `variant` is a compatible other model: an extra entity that sorts
    /// first (so every entity number differs), `Item.origin` with a default, no `Item.photo`.
    static func model(variant: Bool = false) throws -> ObjectModel {
        var builder = ModelBuilder("Shop")
        if variant { builder = builder.entity("Aardvark") { $0.attribute("name", .string) } }
        return
            try builder
            .entity("Unit") { unit in
                unit.attribute("name", .string, optional: false)
                unit.toMany("items", "Item", inverse: "unit")
                unit.unique("name")
            }
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("price", .double)
                if variant {
                    item.attribute("origin", .string, default: .string("seed"))
                } else {
                    item.attribute("photo", .binary)
                }
                item.toOne("unit", "Unit", inverse: "items")
                item.toMany("tags", "Tag", inverse: "items")
                item.toMany("lists", "List", inverse: "items")
                item.toOne("replacement", "Item", inverse: "replaces")
                item.toMany("replaces", "Item", inverse: "replacement")
                item.unique("sku")
            }
            .entity("Tag") { tag in
                tag.attribute("name", .string, optional: false)
                tag.toMany("items", "Item", inverse: "tags")
                tag.unique("name")
            }
            .entity("List") { list in
                list.attribute("title", .string)
                list.toMany("items", "Item", inverse: "lists", ordered: true)
            }
            .entity("Special", parent: "Item") { $0.attribute("reason", .string) }
            .build()
    }

    /// A source store: 2 units, 4 items (one a Special), tags, a list in a given order, a replacement cycle.
    static func source() throws -> PersistentStore {
        let store = try PersistentStore.inMemory(model: model())
        let context = try ObjectContext(store: store)
        let kg = try context.insert("Unit")
        try kg.set("name", "kg")
        let pack = try context.insert("Unit")
        try pack.set("name", "pack")
        let fresh = try context.insert("Tag")
        try fresh.set("name", "fresh")
        var items: [ManagedObject] = []
        for (sku, entity) in [("A", "Item"), ("B", "Item"), ("C", "Special"), ("D", "Item")] {
            let item = try context.insert(entity)
            try item.set("sku", sku)
            try item.set("price", Double(items.count) + 0.5)
            try item.set("photo", Data([1, 2, UInt8(items.count)]))
            try item.setRelated("unit", to: items.count % 2 == 0 ? kg : pack)
            if sku != "D" { try item.add(fresh, to: "tags") }
            items.append(item)
        }
        try items[2].set("reason", "seasonal")
        try items[0].setRelated("replacement", to: items[1])
        try items[1].setRelated("replacement", to: items[0])
        try items[3].setRelated("replacement", to: items[3])
        let list = try context.insert("List")
        try list.set("title", "Weekly")
        for index in [2, 0, 3] { try list.add(items[index], to: "items") }
        try context.save()
        return store
    }

    /// The graph as text: items with unit, tags, replacement and kind; lists with items in order.
    static func walk(_ store: PersistentStore) throws -> [String] {
        let context = try ObjectContext(store: store)
        var lines: [String] = []
        for item in try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("sku")])) {
            let tags = try item.relatedObjects("tags").map { try $0.get("name", as: String.self) ?? "" }.sorted()
            lines.append(
                [
                    item.entity.name, try item.get("sku", as: String.self) ?? "",
                    "\(try item.get("price", as: Double.self) ?? -1)",
                    "\(try item.get("photo", as: Data.self).map { Array($0) } ?? [])",
                    try item.related("unit")?.get("name", as: String.self) ?? "-", tags.joined(separator: ","),
                    try item.related("replacement")?.get("sku", as: String.self) ?? "-",
                ].joined(separator: "|"))
        }
        for list in try context.fetch(FetchRequest(entityName: "List", sortDescriptors: [FetchSortDescriptor("title")]))
        {
            let skus = try list.relatedObjects("items").map { try $0.get("sku", as: String.self) ?? "" }
            lines.append("List|\(try list.get("title", as: String.self) ?? "")|" + skus.joined(separator: ","))
        }
        return lines
    }

    @Test func copyIntoAnEmptyStoreReproducesTheGraph() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model())
        let report = try DeepCopier(from: source, to: target).run()
        #expect(report.entities["Item"]?.copied == 3 && report.entities["Special"]?.copied == 1)
        #expect(report.entities["Unit"]?.copied == 2 && report.entities["List"]?.copied == 1)
        let expected = [
            "Item|A|0.5|[1, 2, 0]|kg|fresh|B", "Item|B|1.5|[1, 2, 1]|pack|fresh|A",
            "Special|C|2.5|[1, 2, 2]|kg|fresh|-",
            "Item|D|3.5|[1, 2, 3]|pack||D", "List|Weekly|C,A,D",
        ]
        #expect(try Self.walk(source) == expected)
        #expect(try Self.walk(target) == expected)
    }

    @Test func mergeKeepsUserObjectsAndAddsWhatIsMissing() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model())
        let user = try ObjectContext(store: target)
        let mine = try user.insert("Item")
        try mine.set("sku", "A")
        try mine.set("price", 99.0)
        let own = try user.insert("Item")
        try own.set("sku", "Z")
        try user.save()
        var keep = DeepCopyOptions()
        keep.onConflict = .keep
        let report = try DeepCopier(from: source, to: target, options: keep).run()
        #expect(report.entities["Item"]?.matched == 1 && report.entities["Item"]?.copied == 2)
        let lines = try Self.walk(target)
        #expect(lines.contains("Item|A|99.0|[]|kg|fresh|B"))
        #expect(lines.contains("Item|Z|-1.0|[]|-||-"))
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "Item")) == 5)
        let again = try DeepCopier(from: source, to: target).run()
        #expect(again.entities["Item"]?.copied == 0 && again.entities["Item"]?.matched == 3)
        #expect(try Self.walk(target).contains("Item|A|0.5|[1, 2, 0]|kg|fresh|B"))
        // Unkeyed: copied each time.
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "List")) == 2)
    }

    @Test func aFailedCopyLeavesTheTargetAsItWas() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model())
        let user = try ObjectContext(store: target)
        let unit = try user.insert("Unit")
        try unit.set("name", "pack")
        try user.save()
        let before = try Self.walk(target)
        var fail = DeepCopyOptions()
        fail.onConflict = .fail
        #expect(throws: DeepCopyError.self) { _ = try DeepCopier(from: source, to: target, options: fail).run() }
        #expect(try Self.walk(target) == before)
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "Unit")) == 1)
    }

    @Test func keysForUnknownEntitiesOrWithoutAttributesAreRefused() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model())
        for (keys, message) in [(["Nope": ["name"]], "--key names Nope"), (["Item": []], "Item: the key given")] {
            var options = DeepCopyOptions()
            options.keys = keys
            let error = try #require(throws: DeepCopyError.self) {
                _ = try DeepCopier(from: source, to: target, options: options).run()
            }
            #expect(error.description.hasPrefix(message))
        }
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "Item")) == 0)
    }

    @Test func incompatibleTypesAreRefusedBeforeWriting() throws {
        let source = try Self.source()
        let other = try ModelBuilder("Shop").entity("Item") { item in
            item.attribute("sku", .string)
            item.attribute("price", .string)
        }.build()
        let target = try PersistentStore.inMemory(model: other)
        let error = try #require(throws: DeepCopyError.self) { _ = try DeepCopier(from: source, to: target).run() }
        #expect(error.description.contains("Item.price is double in the source but string in the target"))
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "Item")) == 0)
    }
}
