// Tests of merging another context's saves: deletions (the objects become inaccessible, local
// changes to them and references to them are dropped) and updates under local unsaved edits.
import Foundation
import Testing

@testable import GraphStore

@Suite struct MergeTests {
    /// A catalog store with units "kg" and "g" and items A-1 and B-2 in kg.
    static func store() throws -> (PersistentStore, units: [ObjectID], items: [ObjectID]) {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let units = try ["kg", "g"].map { name -> ManagedObject in
            let unit = try context.insert("Unit")
            try unit.set("name", name)
            return unit
        }
        let items = try ["A-1", "B-2"].map { sku -> ManagedObject in
            let item = try RelationshipTests.item(context, sku)
            try item.setRelated("unit", to: units[0])
            return item
        }
        try context.save()
        return (store, units.map(\.objectID), items.map(\.objectID))
    }

    /// Deletes the objects `ids` in a context of their own and returns the save's change set.
    static func delete(_ ids: [ObjectID], in store: PersistentStore) throws -> ChangeSet {
        let writer = try ObjectContext(store: store)
        for id in ids { try writer.delete(writer.existingObject(with: id)) }
        return try #require(try writer.save())
    }

    @Test func aMergedDeletionMakesTheObjectInaccessible() throws {
        let (store, units, items) = try Self.store()
        let viewer = try ObjectContext(store: store)
        let kg = try viewer.existingObject(with: units[0])
        let apples = try viewer.existingObject(with: items[0])
        #expect(try kg.relatedObjects("items").count == 2)

        let changes = try Self.delete([items[0]], in: store)
        #expect(changes.deleted == [items[0]])
        viewer.merge(changes: changes)

        #expect(apples.context == nil)
        #expect(!viewer.registeredObjects.contains { $0 === apples })
        let detached = try #require(throws: ObjectError.self) { try apples.get("name", as: String.self) }
        #expect(detached.kind == .detached)
        #expect(throws: ObjectError.self) { try apples.setRelated("unit", to: nil) }
        let missing = try #require(throws: ObjectError.self) { try viewer.existingObject(with: items[0]) }
        #expect(missing.kind == .notFound)
        #expect(try kg.relatedObjects("items").map(\.objectID) == [items[1]])
        #expect(try viewer.fetchObjectIDs(FetchRequest(entityName: "Item")) == [items[1]])
        #expect(!viewer.hasChanges)
        #expect(try viewer.save() == nil)
    }

    @Test func aMergedDeletionDropsLocalChangesToAndReferencesToTheObject() throws {
        let (store, units, items) = try Self.store()
        let viewer = try ObjectContext(store: store)
        let apples = try viewer.existingObject(with: items[0])
        try apples.set("name", "Green apples")
        let gram = try viewer.existingObject(with: units[1])
        let cherries = try RelationshipTests.item(viewer, "C-3")
        try cherries.setRelated("unit", to: gram)
        #expect(try gram.relatedObjects("items").map(\.objectID) == [cherries.objectID])

        viewer.merge(try Self.delete([items[0], units[1]], in: store))

        // The edited object is gone with its edit; the new item no longer points at the deleted unit.
        #expect(viewer.updatedObjects.isEmpty)
        #expect(viewer.insertedObjects.map(\.objectID) == [cherries.objectID])
        #expect(try cherries.related("unit") == nil)
        #expect(viewer.hasChanges)
        let changes = try #require(try viewer.save())
        #expect(changes.inserted == [cherries.objectID] && changes.updated.isEmpty)

        let fresh = try ObjectContext(store: store)
        #expect(try fresh.existingObject(with: cherries.objectID).related("unit") == nil)
        #expect(try fresh.count(for: FetchRequest(entityName: "Item")) == 2)
        #expect(try fresh.count(for: FetchRequest(entityName: "Unit")) == 1)
    }

    @Test func aMergedUpdateKeepsLocalUnsavedEdits() throws {
        let (store, _, items) = try Self.store()
        let viewer = try ObjectContext(store: store)
        let apples = try viewer.existingObject(with: items[0])
        try apples.set("name", "Green apples")

        let writer = try ObjectContext(store: store)
        let copy = try writer.existingObject(with: items[0])
        try copy.set("price", 3.5)
        try copy.set("name", "Red apples")
        let changes = try #require(try writer.save())
        viewer.merge(changes: changes)

        // The saved price comes in; the local edit of the name wins over the saved name.
        #expect(try apples.get("price", as: Double.self) == 3.5)
        #expect(try apples.get("name", as: String.self) == "Green apples")
        #expect(apples.isUpdated && viewer.hasChanges)
        try viewer.save()
        let check = try ObjectContext(store: store)
        let stored = try check.existingObject(with: items[0])
        #expect(try stored.get("name", as: String.self) == "Green apples")
        #expect(try stored.get("price", as: Double.self) == 3.5)
    }
}
