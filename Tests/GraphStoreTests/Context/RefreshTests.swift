// Tests of refresh(_:mergeChanges:): discarding an object's own changes (attributes, to-many
// members, join-table pairs, order) and merging another context's save under local edits.
import Foundation
import Testing

@testable import GraphStore

@Suite struct RefreshTests {
    /// A store with one saved item (sku A-1, name Apples, price 1), tag "fruit" and list L1.
    static func savedCatalog() throws -> (PersistentStore, ObjectContext, item: ManagedObject, tag: ManagedObject) {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let item = try CatalogModel.insertItem(into: context, sku: "A-1", name: "Apples", price: 1.0)
        let tag = try context.insert("Tag")
        try tag.set("name", "fruit")
        try context.insert("ShoppingList").set("code", "L1")
        try context.save()
        return (store, context, item, tag)
    }

    @Test func refreshWithoutMergingMakesAFaultOfTheStoredRow() throws {
        let (_, context, item, _) = try Self.savedCatalog()
        try item.set("name", "Pears")
        #expect(item.hasChanges && context.hasChanges)
        try context.refresh(item, mergeChanges: false)
        #expect(item.isFault)
        #expect(!item.hasChanges && !item.isUpdated)
        #expect(!context.hasChanges && context.updatedObjects.isEmpty)
        #expect(try item.get("name", as: String.self) == "Apples")
        // Changed again after the refresh, it saves once and without a row-version conflict.
        try item.set("name", "Plums")
        #expect(context.updatedObjects.count == 1)
        let changes = try #require(try context.save())
        #expect(changes.updated == [item.objectID])
        #expect(item.rowVersion == 2)
    }

    @Test func refreshWithoutMergingDropsPendingJoinTableChanges() throws {
        let (store, context, item, tag) = try Self.savedCatalog()
        try item.add(tag, to: "tags")
        #expect(context.hasChanges)
        try context.refresh(item, mergeChanges: false)
        #expect(!item.hasChanges)
        #expect(try item.relatedObjects("tags").isEmpty)
        // The pair is gone, so nothing is left to save (the tag only had the relationship change).
        try context.refresh(tag, mergeChanges: false)
        #expect(!context.hasChanges)
        #expect(try context.save() == nil)
        let fresh = try ObjectContext(store: store)
        #expect(try fresh.existingObject(with: item.objectID).relatedObjects("tags").isEmpty)
        #expect(try fresh.existingObject(with: tag.objectID).relatedObjects("items").isEmpty)
    }

    @Test func refreshWithoutMergingDropsPendingOrderedMembers() throws {
        let (store, context, item, _) = try Self.savedCatalog()
        let list = try #require(try context.fetch(FetchRequest(entityName: "ShoppingList")).first)
        try list.add(item, to: "items")
        try context.refresh(list, mergeChanges: false)
        #expect(!list.hasChanges && list.isFault)
        #expect(try list.relatedObjects("items").isEmpty)
        try context.refresh(item, mergeChanges: false)
        #expect(!context.hasChanges)
        try context.save()
        let fresh = try ObjectContext(store: store)
        #expect(try fresh.existingObject(with: list.objectID).relatedObjects("items").isEmpty)
    }

    @Test func refreshWithoutMergingUndoesAPendingDeletion() throws {
        let (_, context, item, _) = try Self.savedCatalog()
        try context.delete(item)
        try context.refresh(item, mergeChanges: false)
        #expect(!item.isDeleted && context.deletedObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(try item.get("sku", as: String.self) == "A-1")
    }

    @Test func refreshMergingKeepsLocalEditsOverAnotherContextsSave() throws {
        let (store, context, item, _) = try Self.savedCatalog()
        try item.set("name", "Green apples")

        let other = try ObjectContext(store: store)
        let copy = try other.existingObject(with: item.objectID)
        try copy.set("price", 3.5)
        try copy.set("name", "Red apples")
        try other.save()

        #expect(try item.get("price", as: Double.self) == 1.0)
        try context.refresh(item, mergeChanges: true)
        #expect(!item.isFault && item.isUpdated)
        #expect(try item.get("price", as: Double.self) == 3.5)
        #expect(try item.get("name", as: String.self) == "Green apples")
        // The refreshed row version lets the local edit save without a conflict.
        try context.save()
        let fresh = try ObjectContext(store: store)
        let stored = try fresh.existingObject(with: item.objectID)
        #expect(try stored.get("name", as: String.self) == "Green apples")
        #expect(try stored.get("price", as: Double.self) == 3.5)
    }

    @Test func refreshMergingKeepsPendingToManyChanges() throws {
        let (store, context, item, tag) = try Self.savedCatalog()
        try tag.add(item, to: "items")
        try context.refresh(tag, mergeChanges: true)
        #expect(tag.hasChanges)
        #expect(try tag.relatedObjects("items").map(\.objectID) == [item.objectID])
        try context.save()
        let fresh = try ObjectContext(store: store)
        #expect(try fresh.existingObject(with: tag.objectID).relatedObjects("items").count == 1)
    }

    @Test func refreshMergingAnUnchangedObjectMakesAFault() throws {
        let (store, context, item, _) = try Self.savedCatalog()
        let other = try ObjectContext(store: store)
        try other.existingObject(with: item.objectID).set("name", "Quinces")
        try other.save()
        try context.refresh(item, mergeChanges: true)
        #expect(item.isFault && !item.hasChanges)
        #expect(try item.get("name", as: String.self) == "Quinces")
    }
}
