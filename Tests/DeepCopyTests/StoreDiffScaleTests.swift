// Diff at scale: two generated stores of 50,000 items (with units and ordered lists), equal after
// a copy; then a handful of changes to the copy (an attribute, a to-one, an order, an object
// removed and one added) come out in entity and key order, and a limit stops the comparison.
// The diff keeps one page of objects in memory (SeedKitCLITests/DiffMemoryTests measures it).
import Foundation
import GraphStore
import Testing

@testable import DeepCopy
import TestSupport

@Suite struct StoreDiffScaleTests {
    static let itemCount = 50_000

    static func model() throws -> ObjectModel {
        try ModelBuilder("Scale")
            .entity("Unit") { unit in
                unit.attribute("name", .string, optional: false)
                unit.toMany("items", "Item", inverse: "unit")
                unit.unique("name")
            }
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("price", .double)
                item.toOne("unit", "Unit", inverse: "items")
                item.toMany("lists", "List", inverse: "items")
                item.unique("sku")
            }
            .entity("List") { list in
                list.attribute("code", .string, optional: false)
                list.toMany("items", "Item", inverse: "lists", ordered: true)
                list.unique("code")
            }
            .build()
    }

    static func sku(_ number: Int) -> String { String(format: "I-%05d", number) }

    /// A store at `path` with 100 units, `itemCount` items (item n in unit `u-(n % 100)`), and 100
    /// lists of 10 items each in reverse order.
    static func generate(at path: String) throws -> PersistentStore {
        let store = try PersistentStore.open(at: path, model: model())
        let context = try ObjectContext(store: store)
        for number in 0..<100 { try context.insert("Unit").set("name", "u-\(number)") }
        try context.save()
        let units = try context.fetch(FetchRequest(entityName: "Unit", sortDescriptors: [FetchSortDescriptor("name")]))
        let byName = Dictionary(uniqueKeysWithValues: try units.map { (try $0.get("name", as: String.self) ?? "", $0) })
        for start in stride(from: 0, to: itemCount, by: 5000) {
            for number in start..<min(start + 5000, itemCount) {
                let item = try context.insert("Item")
                try item.set("sku", sku(number))
                try item.set("price", Double(number))
                try item.setRelated("unit", to: byName["u-\(number % 100)"])
            }
            try context.save()
        }
        context.reset()
        for list in 0..<100 {
            let owner = try context.insert("List")
            try owner.set("code", String(format: "L-%03d", list))
            for number in (list * 10..<list * 10 + 10).reversed() {
                let item = try #require(
                    try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == sku(number))).first)
                try owner.add(item, to: "items")
            }
        }
        try context.save()
        return store
    }

    static func item(_ context: ObjectContext, _ number: Int) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == sku(number))).first)
    }

    @Test func largeStoresCompareInKeyOrderAndStopAtTheLimit() throws {
        let folder = URL(fileURLWithPath: try ScratchFolder.make("seedkit-diff"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Self.generate(at: folder.appendingPathComponent("A.sqlite").path)
        let second = try PersistentStore.open(at: folder.appendingPathComponent("B.sqlite").path, model: Self.model())
        let copied = try DeepCopier(from: first, to: second).run()
        #expect(copied.entities["Item"]?.copied == Self.itemCount)
        #expect(try StoreDiff(first, second).differences().isEmpty)

        let context = try ObjectContext(store: second)
        try Self.item(context, 42).set("price", 1.0)
        try context.delete(try Self.item(context, 10_000))
        let u1 = try #require(
            try context.fetch(FetchRequest(entityName: "Unit", predicate: .key("name") == "u-1")).first)
        try Self.item(context, 20_000).setRelated("unit", to: u1)
        try context.insert("Item").set("sku", "I-99999")
        let list = try #require(
            try context.fetch(FetchRequest(entityName: "List", predicate: .key("code") == "L-007")).first)
        try list.moveRelated(in: "items", from: 0, to: 9)
        try context.save()

        let differences = try StoreDiff(first, second).differences()
        #expect(differences.count == 7)
        #expect(
            Array(differences.prefix(5)) == [
                "Item[I-00042].price: 42.0 ≠ 1.0", "Item[I-10000]: only in A", "Item[I-20000].unit: u-0 ≠ u-1",
                "Item[I-99999]: only in B",
                "List[L-007].items: [I-00079, I-00078, I-00077, I-00076, I-00075, I-00074, I-00073, I-00072, I-00071, I-00070]"
                    + " ≠ [I-00078, I-00077, I-00076, I-00075, I-00074, I-00073, I-00072, I-00071, I-00070, I-00079]",
            ])
        let unit0 = try #require(differences.dropFirst(5).first)
        #expect(unit0.hasPrefix("Unit[u-0].items: [I-00000, I-00100, ") && unit0.contains("I-10000, I-10100"))
        #expect(
            !unit0.split(separator: "≠")[1].contains("I-10000") && !unit0.split(separator: "≠")[1].contains("I-20000,"))
        #expect(differences.last?.hasPrefix("Unit[u-1].items: [I-00001, I-00101, ") == true)
        #expect(differences.last?.split(separator: "≠").last?.contains("I-20000") == true)

        #expect(try StoreDiff(first, second).differences(limit: 3) == Array(differences.prefix(3)))
        var seen = 0
        try StoreDiff(first, second).forEachDifference { _ in
            seen += 1
            return seen < 2
        }
        #expect(seen == 2)
    }
}
