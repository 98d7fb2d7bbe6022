// The code `seedkit generate` writes for Grocery Dude's Xcode model (Generated/, regenerated and
// compared by SeedKitCodegenTests): default values, Float and binary attributes, an abstract entity
// whose sub-entities' types carry the inherited attribute, fetches of the abstract parent that
// return both kinds, casts between the types, and a deny delete rule through the typed delete.
import Foundation
import GraphStore
import ModelFiles
import Testing
import TestSupport

@Suite struct GroceryTypedObjectTests {
    static let repository = Repository.root

    static func groceryStore() throws -> (PersistentStore, ObjectContext) {
        let model = try ModelLoader.load(
            from: repository.appendingPathComponent("SeedData/GroceryDude/GroceryDude.xcdatamodeld").path)
        let store = try PersistentStore.inMemory(model: model)
        return (store, try ObjectContext(store: store))
    }

    @Test func anItemRoundTripsWithItsUnitAndBothKindsOfLocation() throws {
        let (store, context) = try Self.groceryStore()
        let unit = try Unit.insert(into: context)
        #expect(try unit.name == "New Unit")  // the model's default for a required attribute
        try unit.setName("kg")
        let fridge = try LocationAtHome.insert(into: context)
        try fridge.setStoredIn("Fridge")
        try fridge.setSummary("Cold things")  // inherited from Location
        let dairy = try LocationAtShop.insert(into: context)
        try dairy.setAisle("Dairy")
        let milk = try Item.insert(into: context)
        #expect(try milk.name == "New Item")
        #expect(try milk.quantity == 1)
        try milk.setName("Milk")
        try milk.setQuantity(2.5)
        try milk.setPhotoData(Data([0, 1, 2, 255]))
        try milk.setUnit(unit)
        try milk.setLocationAtHome(fridge)
        try milk.setLocationAtShop(dairy)
        try context.save()

        let reader = try ObjectContext(store: store)
        let item = try #require(try Item.first(in: reader, where: Item.Keys.name == "Milk"))
        #expect(try item.quantity == Float(2.5))
        #expect(try item.photoData == Data([0, 1, 2, 255]))
        #expect(try item.collected == false)
        #expect(try item.listed == true)
        #expect(try item.unit?.name == "kg")
        #expect(try item.locationAtHome?.storedIn == "Fridge")
        #expect(try item.locationAtHome?.summary == "Cold things")
        #expect(try item.locationAtShop?.aisle == "Dairy")
        #expect(try item.locationAtShop?.items.map { try $0.name } == ["Milk"])
    }

    @Test func theAbstractParentFetchesBothKindsAndCastsToEach() throws {
        let (_, context) = try Self.groceryStore()
        for place in ["Pantry", "Fridge"] {
            try LocationAtHome.insert(into: context).setStoredIn(place)
        }
        try LocationAtShop.insert(into: context).setAisle("Bakery")
        try context.save()

        let locations = try Location.fetch(in: context)
        #expect(locations.count == 3)
        let homes = locations.compactMap { $0.as(LocationAtHome.self) }
        let shops = locations.compactMap { $0.as(LocationAtShop.self) }
        #expect(try homes.map { try $0.storedIn ?? "" }.sorted() == ["Fridge", "Pantry"])
        #expect(try shops.map { try $0.aisle } == ["Bakery"])
        // A sub-entity's value is also its parent's, and back.
        let bakery = try #require(shops.first)
        #expect(bakery.as(Location.self)?.as(LocationAtShop.self) == bakery)
        #expect(try Location(bakery.object).objectID == bakery.objectID)
        // Inherited keys work in the sub-entity's fetches.
        try homes[0].setSummary("dry")
        #expect(try LocationAtHome.count(in: context, where: LocationAtHome.Keys.summary == "dry") == 1)
        #expect(try LocationAtShop.count(in: context) == 1)
        // The abstract entity has no instances of its own.
        let refused = #expect(throws: ObjectError.self) { _ = try Location.insert(into: context) }
        #expect(refused?.kind == .abstractEntity)
    }

    @Test func aUnitWithItemsCannotBeDeleted() throws {
        let (_, context) = try Self.groceryStore()
        let grams = try Unit.insert(into: context)
        try grams.setName("g")
        let butter = try Item.insert(into: context)
        try butter.setName("Butter")
        try butter.setUnit(grams)
        try context.save()
        try grams.delete()  // Unit.items is `deny`: the save refuses
        #expect(throws: (any Error).self) { try context.save() }
        context.rollback()
        #expect(try Unit.count(in: context) == 1)
        #expect(try grams.items.map { try $0.name } == ["Butter"])
    }
}
