// The code `seedkit generate` writes for the catalog model (Generated/, regenerated and compared by
// SeedKitCodegenTests), used as an app would: objects inserted through typed setters, saved, read
// back in another context through the typed fetch helpers and getters, with typed keys in
// predicates and sort descriptors, relationships as typed objects, sets and ordered arrays.
import Foundation
import GraphStore
import ModelFiles
import Testing
import TestSupport

@Suite struct CatalogTypedObjectTests {
    static let repository = Repository.root

    /// A fresh in-memory store with the catalog model, and a context on it.
    static func catalogStore() throws -> (PersistentStore, ObjectContext) {
        let model = try ModelLoader.load(from: repository.appendingPathComponent("SeedData/Catalog/Catalog.yaml").path)
        let store = try PersistentStore.inMemory(model: model)
        return (store, try ObjectContext(store: store))
    }

    /// Units kg and l, locations A1 and B4, tags fruit and dairy, three items, and a shopping list
    /// holding two of them in a chosen order; saved.
    static func seed(_ context: ObjectContext) throws {
        func unit(_ name: String) throws -> Unit {
            let unit = try Unit.insert(into: context)
            try unit.setName(name)
            return unit
        }
        func location(_ aisle: String) throws -> Location {
            let location = try Location.insert(into: context)
            try location.setAisle(aisle)
            return location
        }
        func tag(_ name: String) throws -> Tag {
            let tag = try Tag.insert(into: context)
            try tag.setName(name)
            return tag
        }
        let (kg, litre) = (try unit("kg"), try unit("l"))
        let (a1, b4) = (try location("A1"), try location("B4"))
        let (fruit, dairy) = (try tag("fruit"), try tag("dairy"))

        let apples = try Item.insert(into: context)
        try apples.setSku("A-001")
        try apples.setName("Apples")
        try apples.setPrice(2.49)
        try apples.setQuantity(120)
        try apples.setAdded(Date(timeIntervalSince1970: 1_767_603_600))
        try apples.setUnit(kg)
        try apples.setLocation(a1)
        try apples.addToTags(fruit)

        let bananas = try Item.insert(into: context)
        try bananas.setSku("A-002")
        try bananas.setName("Bananas")
        try bananas.setPrice(1.19)
        try bananas.setNotes("Fair trade")
        try bananas.setUnit(kg)
        try bananas.setLocation(a1)
        try bananas.setTags([fruit])

        let milk = try Item.insert(into: context)
        try milk.setSku("A-003")
        try milk.setName("Milk")
        try milk.setPrice(0.99)
        try milk.setListed(false)
        try milk.setUnit(litre)
        try milk.setLocation(b4)
        try milk.setTags([dairy])

        let weekly = try ShoppingList.insert(into: context)
        try weekly.setCode("L-1")
        try weekly.setTitle("Weekly shop")
        try weekly.setItems([milk, apples])
        try context.save()
    }

    @Test func objectsInsertedThroughTypedSettersReadBackThroughTypedGetters() throws {
        let (store, writer) = try Self.catalogStore()
        try Self.seed(writer)
        let reader = try ObjectContext(store: store)

        let items = try Item.fetch(in: reader, sortedBy: [Item.Keys.sku.ascending])
        #expect(try items.map { try $0.sku } == ["A-001", "A-002", "A-003"])
        let apples = items[0]
        #expect(try apples.name == "Apples")
        #expect(try apples.price == 2.49)
        #expect(try apples.quantity == 120)
        #expect(try apples.listed == true)  // the model's default
        #expect(try apples.added == Date(timeIntervalSince1970: 1_767_603_600))
        #expect(try apples.notes == nil)
        #expect(try apples.unit?.name == "kg")
        #expect(try apples.location?.aisle == "A1")
        #expect(try apples.tags.map { try $0.name } == ["fruit"])
        #expect(try items[1].notes == "Fair trade")
        #expect(try items[2].listed == false)

        // Inverses followed on both sides, as typed objects.
        let kg = try #require(try Unit.first(in: reader, where: Unit.Keys.name == "kg"))
        #expect(try Set(kg.items.map { try $0.sku }) == ["A-001", "A-002"])
        let weekly = try #require(try ShoppingList.first(in: reader))
        #expect(try weekly.items.map { try $0.sku } == ["A-003", "A-001"])
        #expect(try apples.lists == [weekly])
        #expect(try items[1].lists.isEmpty)
    }

    @Test func typedKeysBuildPredicatesAndSortDescriptors() throws {
        let (_, context) = try Self.catalogStore()
        try Self.seed(context)
        func skus(_ predicate: FetchPredicate?, _ sort: [FetchSortDescriptor] = [Item.Keys.sku.ascending]) throws
            -> [String]
        {
            try Item.fetch(in: context, where: predicate, sortedBy: sort).map { try $0.sku }
        }
        #expect(try skus(Item.Keys.price < 2) == ["A-002", "A-003"])
        #expect(try skus(Item.Keys.price >= 1.19 && Item.Keys.listed == true) == ["A-001", "A-002"])
        #expect(try skus(Item.Keys.notes == nil) == ["A-001", "A-003"])
        #expect(try skus(Item.Keys.notes != nil) == ["A-002"])
        #expect(try skus(Item.Keys.name.beginsWith("b", options: .caseInsensitive)) == ["A-002"])
        #expect(try skus(Item.Keys.sku.in(["A-003", "A-001", "Z"])) == ["A-001", "A-003"])
        #expect(try skus(Item.Keys.price.between(1, 2.5)) == ["A-001", "A-002"])
        #expect(try skus(Item.Keys.unit.appending(Unit.Keys.name) == "l") == ["A-003"])
        #expect(try skus(Item.Keys.tags.any(Tag.Keys.name) == "fruit") == ["A-001", "A-002"])
        #expect(try skus(Item.Keys.lists.count == 0) == ["A-002"])
        let b4 = try #require(try Location.first(in: context, where: Location.Keys.aisle == "B4"))
        #expect(try skus(Item.Keys.location == b4) == ["A-003"])
        #expect(try skus(Item.Keys.location != b4) == ["A-001", "A-002"])
        let weekly = try #require(try ShoppingList.first(in: context))
        #expect(try skus(Item.Keys.lists.contains(weekly)) == ["A-001", "A-003"])
        // Sorting by a key through a to-one, then by price, largest first.
        #expect(
            try skus(nil, [Item.Keys.unit.appending(Unit.Keys.name).descending, Item.Keys.price.descending])
                == ["A-003", "A-001", "A-002"])
        #expect(
            try Item.fetch(in: context, sortedBy: [Item.Keys.price.ascending], limit: 1).map { try $0.sku } == ["A-003"]
        )
        #expect(try Item.count(in: context, where: Item.Keys.location == b4) == 1)
        #expect(try Unit.count(in: context) == 2)
        // The same predicate as the untyped API builds.
        #expect((Item.Keys.price < 2) == (FetchPredicate.key("price") < 2.0))
    }

    @Test func orderedRelationshipsKeepTheirOrderThroughASave() throws {
        let (store, context) = try Self.catalogStore()
        try Self.seed(context)
        let weekly = try #require(try ShoppingList.first(in: context))
        let bananas = try #require(try Item.first(in: context, where: Item.Keys.sku == "A-002"))
        let apples = try #require(try Item.first(in: context, where: Item.Keys.sku == "A-001"))
        try weekly.insertIntoItems(bananas, at: 0)  // bananas, milk, apples
        try weekly.moveItems(from: 2, to: 1)  // bananas, apples, milk
        try weekly.removeFromItems(apples)  // bananas, milk
        try weekly.addToItems(apples)  // bananas, milk, apples
        try context.save()
        let reader = try ObjectContext(store: store)
        let reread = try #require(try ShoppingList.first(in: reader))
        #expect(try reread.items.map { try $0.sku } == ["A-002", "A-003", "A-001"])
    }

    @Test func requiredValuesMissingAndWrongEntitiesAreErrors() throws {
        let (_, context) = try Self.catalogStore()
        let item = try Item.insert(into: context)
        #expect(throws: MissingValueError.self) { _ = try item.sku }
        #expect(try item.price == 0)  // the model's default value
        let error = #expect(throws: ObjectError.self) { _ = try Unit(item.object) }
        #expect(error?.kind == .wrongDestination(expected: "Unit", got: "Item"))
        #expect(try Item(item.object) == item)
        #expect(item.as(Unit.self) == nil)
        #expect(item.as(Item.self) == item)
        #expect(item.objectID.isTemporary)
        try item.delete()
        #expect(try Item.count(in: context) == 0)
    }
}
