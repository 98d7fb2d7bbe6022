// Tests of saves that meet stored rows: the object-wins merge policy writing the object's values
// over the stored row, and an all-or-nothing save failing on a duplicate unique key.
import Foundation
import Testing

@testable import GraphStore

@Suite struct SaveConflictTests {
    /// A catalog store holding item A-1 (Apples at 1.0) and units "kg" and "l".
    static func stockedStore() throws -> (PersistentStore, item: ObjectID) {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let item = try CatalogModel.insertItem(into: context, sku: "A-1", name: "Apples", price: 1.0)
        for name in ["kg", "l"] { try context.insert("Unit").set("name", name) }
        try context.save()
        return (store, item.objectID)
    }

    static func unitNames(_ store: PersistentStore) throws -> [String] {
        let check = try ObjectContext(store: store)
        let request = FetchRequest(entityName: "Unit", sortDescriptors: [FetchSortDescriptor("name")])
        return try withExtendedLifetime(check) {
            try check.fetch(request).map { try $0.get("name", as: String.self) ?? "?" }
        }
    }

    /// The stored price of item `id`, read in a fresh context.
    static func storedPrice(_ store: PersistentStore, _ id: ObjectID) throws -> Double? {
        let check = try ObjectContext(store: store)
        return try withExtendedLifetime(check) { try check.existingObject(with: id).get("price", as: Double.self) }
    }

    @Test func objectWinsWritesTheObjectsValuesOverTheStoredRow() throws {
        let (store, storedID) = try Self.stockedStore()
        let stale = try ObjectContext(store: store)
        let staleCopy = try stale.existingObject(with: storedID)

        let context = try ObjectContext(store: store)
        context.mergePolicy = .objectWins
        let duplicate = try context.insert("Item")
        try duplicate.set("sku", "A-1")
        try duplicate.set("name", "Green apples")
        try duplicate.set("price", 2.25)
        let changes = try #require(try context.save())
        #expect(duplicate.objectID == storedID)
        #expect(changes.updated == [storedID] && changes.inserted.isEmpty)

        let fresh = try ObjectContext(store: store)
        #expect(try fresh.count(for: FetchRequest(entityName: "Item")) == 1)
        let row = try fresh.existingObject(with: storedID)
        #expect(try row.get("price", as: Double.self) == 2.25)
        #expect(try row.get("name", as: String.self) == "Green apples")
        // The overwrite bumps the row version, so a context holding the old row sees the conflict.
        #expect(row.rowVersion == 2)
        try staleCopy.set("price", 9.0)
        let conflict = try #require(throws: ObjectValidationError.self) { try stale.save() }
        #expect(conflict.failures.map(\.rule) == [.rowVersionConflict])
    }

    @Test func objectWinsOverwritesARowChangedElsewhere() throws {
        let (store, storedID) = try Self.stockedStore()
        let context = try ObjectContext(store: store)
        context.mergePolicy = .objectWins
        let mine = try context.existingObject(with: storedID)
        let other = try ObjectContext(store: store)
        try other.existingObject(with: storedID).set("price", 3.0)
        try other.save()
        try mine.set("price", 4.0)
        try context.save()
        #expect(try Self.storedPrice(store, storedID) == 4.0)
    }

    @Test func aDuplicateUniqueKeyFailsTheWholeSave() throws {
        let (store, storedID) = try Self.stockedStore()
        let context = try ObjectContext(store: store)
        let item = try context.existingObject(with: storedID)
        try item.set("price", 7.5)
        let gram = try context.insert("Unit")
        try gram.set("name", "g")
        let duplicate = try context.insert("Unit")
        try duplicate.set("name", "kg")

        let error = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(error.failures.map(\.rule) == [.uniqueConstraint(["name"])])
        #expect(error.failures.first?.value == "kg")
        // Nothing was written: not the first insert, not the update.
        #expect(try Self.unitNames(store) == ["kg", "l"])
        #expect(try Self.storedPrice(store, storedID) == 1.0)
        // Nothing changed in memory either.
        #expect(gram.objectID.isTemporary && gram.isInserted)
        #expect(duplicate.objectID.isTemporary)
        #expect(item.isUpdated && context.hasChanges)
        #expect(
            Set(context.insertedObjects.map(ObjectIdentifier.init)) == [
                ObjectIdentifier(gram), ObjectIdentifier(duplicate),
            ])

        // Once the duplicate is fixed, the same changes save.
        try duplicate.set("name", "mg")
        try context.save()
        #expect(!gram.objectID.isTemporary && !context.hasChanges)
        #expect(try Self.unitNames(store) == ["g", "kg", "l", "mg"])
        #expect(try Self.storedPrice(store, storedID) == 7.5)
    }
}
