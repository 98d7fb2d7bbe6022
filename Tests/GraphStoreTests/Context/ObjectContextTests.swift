// Tests of contexts and objects: insert, typed access, save and reload, IDs, uniquing,
// faulting, rollback and reset, validation and unique conflicts.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ObjectContextTests {
    static func catalogStore() throws -> PersistentStore {
        try PersistentStore.inMemory(model: CatalogModel.build())
    }

    @Test func insertAppliesDefaultsAndTypedAccessChecksTypes() throws {
        let context = try ObjectContext(store: Self.catalogStore())
        let item = try context.insert("Item")
        #expect(try item["price"] == .double(0))
        #expect(try item.get("listed", as: Bool.self) == true)
        try item.set("name", "Apples")
        #expect(try item.get("name", as: String.self) == "Apples")
        let mismatch = try #require(throws: ObjectError.self) { try item.set("price", "cheap") }
        #expect(mismatch.description == "Item.price: expected double, got string \"cheap\"")
        let range = try #require(throws: ObjectError.self) { try item.set("quantity", Int64(1) << 40) }
        #expect(range.kind == .outOfRange("1099511627776 for integer32"))
        #expect(throws: ObjectError.self) { try item.set("colour", "red") }
        #expect(item.objectID.isTemporary && item.isInserted && context.hasChanges)
    }

    @Test func saveAssignsPermanentIDsAndRowsReloadInAnotherContext() throws {
        let store = try Self.catalogStore()
        let context = try ObjectContext(store: store)
        let item = try context.insert("Item")
        try item.set("sku", "A-1")
        try item.set("name", "Apples")
        try item.set("price", 2.5)
        try item.set("added", Date(timeIntervalSince1970: 1_700_000_000))
        let temporary = item.objectID
        let changes = try #require(try context.save())
        #expect(!item.objectID.isTemporary && changes.inserted == [item.objectID])
        #expect(!context.hasChanges)
        #expect(try context.object(with: temporary) === item)

        let other = try ObjectContext(store: store)
        let copy = try other.existingObject(with: item.objectID)
        #expect(try copy.get("name", as: String.self) == "Apples")
        #expect(try copy.get("price", as: Double.self) == 2.5)
        #expect(try copy.get("added", as: Date.self) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try other.object(with: item.objectID) === copy)
        let uri = item.objectID.uriRepresentation
        #expect(ObjectID(uriRepresentation: uri) == item.objectID)
    }

    @Test func faultsLoadOnFirstAccessOnly() throws {
        let store = try Self.catalogStore()
        let context = try ObjectContext(store: store)
        let unit = try context.insert("Unit")
        try unit.set("name", "kg")
        try context.save()
        let other = try ObjectContext(store: store)
        let fault = try other.object(with: unit.objectID)
        #expect(fault.isFault)
        _ = fault.objectID
        #expect(fault.isFault)
        #expect(try fault.hasFault(forRelationship: "items"))
        #expect(try fault.get("name", as: String.self) == "kg")
        #expect(!fault.isFault)
        #expect(try fault.hasFault(forRelationship: "items"))
        #expect(try fault.relatedObjects("items").isEmpty)
        #expect(try !fault.hasFault(forRelationship: "items"))
        let missing = ObjectID(storeUUID: store.identifier, entityID: unit.objectID.entityID, key: 999)
        #expect(throws: ObjectError.self) { _ = try other.existingObject(with: missing) }
    }

    @Test func validationAggregatesEveryFailure() throws {
        let context = try ObjectContext(store: Self.catalogStore())
        let item = try context.insert("Item")
        try item.set("price", -1.0)
        let list = try context.insert("ShoppingList")
        _ = list
        let error = try #require(throws: ObjectValidationError.self) { try context.save() }
        let described = Set(error.failures.map { "\($0.entity).\($0.key ?? "") \($0.rule)" })
        #expect(
            described == [
                "Item.sku is required", "Item.name is required", "Item.price is below the minimum 0.0",
                "ShoppingList.code is required",
            ])
        #expect(context.hasChanges)
    }

    @Test func uniqueConflictsFollowTheMergePolicy() throws {
        let store = try Self.catalogStore()
        let first = try ObjectContext(store: store)
        let unit = try first.insert("Unit")
        try unit.set("name", "kg")
        try first.save()

        let second = try ObjectContext(store: store)
        let duplicate = try second.insert("Unit")
        try duplicate.set("name", "kg")
        let error = try #require(throws: ObjectValidationError.self) { try second.save() }
        #expect(error.failures.first?.rule == .uniqueConstraint(["name"]))

        second.mergePolicy = .objectWins
        try second.save()
        #expect(duplicate.objectID == unit.objectID)
        #expect(try second.count(for: FetchRequest(entityName: "Unit")) == 1)
    }

    @Test func rollbackAndResetDiscardChanges() throws {
        let store = try Self.catalogStore()
        let context = try ObjectContext(store: store)
        let unit = try context.insert("Unit")
        try unit.set("name", "kg")
        try context.save()
        try unit.set("name", "g")
        let scratch = try context.insert("Unit")
        context.rollback()
        #expect(scratch.context == nil)
        #expect(try unit.get("name", as: String.self) == "kg")
        #expect(!context.hasChanges)
        context.reset()
        #expect(unit.context == nil)
        #expect(context.registeredObjects.isEmpty)
        #expect(throws: ObjectError.self) { _ = try unit["name"] }
    }

    @Test func rowVersionsBumpOnUpdate() throws {
        let store = try Self.catalogStore()
        let context = try ObjectContext(store: store)
        let unit = try context.insert("Unit")
        try unit.set("name", "kg")
        try context.save()
        #expect(unit.rowVersion == 1)
        try unit.set("name", "kilogram")
        try context.save()
        #expect(unit.rowVersion == 2)
        let stale = try ObjectContext(store: store)
        let copy = try stale.existingObject(with: unit.objectID)
        try unit.set("name", "KG")
        try context.save()
        try copy.set("name", "Kg")
        let error = try #require(throws: ObjectValidationError.self) { try stale.save() }
        #expect(error.failures.first?.rule == .rowVersionConflict)
    }
}
