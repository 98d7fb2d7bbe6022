// Tests of the remaining relationship mutations: replacing a to-many's members, one-to-one
// takeovers, inserting a new member into an ordered to-many, objects from another context, and
// the by-slot accessors of ManagedObject.
import Foundation
import Testing

@testable import GraphStore

@Suite struct RelationshipMutationTests {
    static func item(_ context: ObjectContext, _ sku: String) throws -> ManagedObject {
        try RelationshipTests.item(context, sku)
    }

    static func skus(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.get("sku", as: String.self) ?? "?" }
    }

    @Test func setRelatedObjectsReplacesMembersAndInverses() throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let list = try context.insert("ShoppingList")
        try list.set("code", "L1")
        let tag = try context.insert("Tag")
        try tag.set("name", "fruit")
        let items = try ["a", "b", "c"].map { try Self.item(context, $0) }
        try list.setRelatedObjects("items", to: items)
        try tag.setRelatedObjects("items", to: items)
        #expect(try Self.skus(list.relatedObjects("items")) == ["a", "b", "c"])
        try context.save()

        // Ordered: the new order is kept; the dropped member loses its inverse.
        try list.setRelatedObjects("items", to: [items[2], items[0]])
        #expect(try Self.skus(list.relatedObjects("items")) == ["c", "a"])
        #expect(try items[1].relatedObjects("lists").isEmpty)
        #expect(try items[2].relatedObjects("lists").first === list)
        // Unordered (many-to-many through a join table).
        try tag.setRelatedObjects("items", to: [items[1]])
        #expect(try items[0].relatedObjects("tags").isEmpty)
        #expect(try items[1].relatedObjects("tags").first === tag)
        try context.save()

        let fresh = try ObjectContext(store: store)
        #expect(try Self.skus(fresh.existingObject(with: list.objectID).relatedObjects("items")) == ["c", "a"])
        #expect(try Self.skus(fresh.existingObject(with: tag.objectID).relatedObjects("items")) == ["b"])
        #expect(try fresh.existingObject(with: items[0].objectID).relatedObjects("tags").isEmpty)

        try fresh.existingObject(with: tag.objectID).setRelatedObjects("items", to: [])
        try fresh.save()
        let third = try ObjectContext(store: store)
        #expect(try third.existingObject(with: tag.objectID).relatedObjects("items").isEmpty)
    }

    @Test func oneToOneTakeoverClearsTheOldPartnersInverse() throws {
        let store = try PersistentStore.inMemory(model: RelationshipTests.leagueModel())
        let context = try ObjectContext(store: store)
        let (owls, hawks) = try (context.insert("Team"), context.insert("Team"))
        try owls.set("name", "Owls")
        try hawks.set("name", "Hawks")
        let (ann, bo) = try (context.insert("Coach"), context.insert("Coach"))
        try owls.setRelated("coach", to: ann)
        try hawks.setRelated("coach", to: bo)
        try context.save()

        // Ann moves to the Hawks: the Owls lose their coach and Bo loses his team.
        try hawks.setRelated("coach", to: ann)
        #expect(try ann.related("team") === hawks)
        #expect(try owls.related("coach") == nil)
        #expect(try bo.related("team") == nil)
        try context.save()
        let fresh = try ObjectContext(store: store)
        #expect(try fresh.existingObject(with: owls.objectID).related("coach") == nil)
        #expect(try fresh.existingObject(with: bo.objectID).related("team") == nil)
        #expect(try fresh.existingObject(with: hawks.objectID).related("coach")?.objectID == ann.objectID)

        // The same takeover from the other side: Bo takes over the Owls... then the Hawks.
        try bo.setRelated("team", to: owls)
        #expect(try owls.related("coach") === bo)
        try bo.setRelated("team", to: hawks)
        #expect(try hawks.related("coach") === bo)
        #expect(try ann.related("team") == nil)
        #expect(try owls.related("coach") == nil)
    }

    @Test func insertingANewMemberAtAnIndexOfAnOrderedToMany() throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let list = try context.insert("ShoppingList")
        try list.set("code", "L1")
        for sku in ["a", "b"] { try list.add(try Self.item(context, sku), to: "items") }
        try context.save()

        let fresh = try ObjectContext(store: store)
        let reloaded = try fresh.existingObject(with: list.objectID)
        let new = try Self.item(fresh, "n")
        try reloaded.insert(new, at: 1, into: "items")
        let last = try Self.item(fresh, "z")
        try reloaded.insert(last, at: 3, into: "items")
        let first = try Self.item(fresh, "0")
        try reloaded.insert(first, at: 0, into: "items")
        #expect(try Self.skus(reloaded.relatedObjects("items")) == ["0", "a", "n", "b", "z"])
        #expect(try new.relatedObjects("lists").first === reloaded)
        let outside = try Self.item(fresh, "x")
        let error = try #require(throws: ObjectError.self) { try reloaded.insert(outside, at: 9, into: "items") }
        #expect(error.kind == .indexOutOfBounds(9))
        #expect(try outside.relatedObjects("lists").isEmpty)
        try fresh.delete(outside)
        try fresh.save()

        let third = try ObjectContext(store: store)
        let stored = try third.existingObject(with: list.objectID)
        #expect(try Self.skus(stored.relatedObjects("items")) == ["0", "a", "n", "b", "z"])
        #expect(try third.existingObject(with: new.objectID).relatedObjects("lists").first === stored)
    }

    @Test func objectsFromAnotherContextAreRejected() throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let other = try ObjectContext(store: store)
        let item = try Self.item(context, "a")
        let list = try context.insert("ShoppingList")
        try list.set("code", "L1")
        let foreignUnit = try other.insert("Unit")
        try foreignUnit.set("name", "kg")
        let foreignTag = try other.insert("Tag")
        let foreignItem = try Self.item(other, "b")

        let toOne = try #require(throws: ObjectError.self) { try item.setRelated("unit", to: foreignUnit) }
        #expect(toOne.kind == .otherContext)
        #expect(toOne.entity == "Item" && toOne.key == "unit")
        #expect(try #require(throws: ObjectError.self) { try item.add(foreignTag, to: "tags") }.kind == .otherContext)
        #expect(
            try #require(throws: ObjectError.self) { try list.insert(foreignItem, at: 0, into: "items") }.kind
                == .otherContext)
        #expect(
            try #require(throws: ObjectError.self) { try list.setRelatedObjects("items", to: [item, foreignItem]) }
                .kind == .otherContext)
        #expect(try #require(throws: ObjectError.self) { try context.delete(foreignItem) }.kind == .otherContext)

        // Nothing changed on either side, and both contexts still save on their own.
        #expect(try item.related("unit") == nil)
        #expect(try list.relatedObjects("items").isEmpty)
        #expect(try item.relatedObjects("lists").isEmpty)
        #expect(try foreignUnit.relatedObjects("items").isEmpty)
        #expect(try foreignTag.relatedObjects("items").isEmpty)
        try context.save()
        try foreignTag.set("name", "fruit")
        try other.save()
    }

    @Test func bySlotAccessorsReadAndWriteLikeTheKeyedOnes() throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let entity = try context.entity(named: "Item")
        let slot = { (name: String) throws -> Int in
            try #require(entity.attribute(named: name)?.index ?? entity.relationship(named: name)?.index)
        }
        let item = try context.insert(entity)
        try item.setValue(.string("A-1"), at: slot("sku"))
        try item.setValue(.string("Apples"), at: slot("name"))
        try item.setValue(.integer(12), at: slot("quantity"))
        #expect(try item.value(at: slot("sku")) == .string("A-1"))
        #expect(try item.get("quantity", as: Int32.self) == 12)
        let mismatch = try #require(throws: ObjectError.self) { try item.setValue(.string("x"), at: slot("price")) }
        #expect(mismatch.key == "price")
        #expect(throws: ObjectError.self) { try item.value(at: entity.attributes.count) }
        #expect(throws: ObjectError.self) { try item.setValue(nil, at: -1) }

        let unit = try context.insert("Unit")
        try unit.set("name", "kg")
        try item.setRelated(at: slot("unit"), to: unit)
        #expect(try item.related(at: slot("unit")) === unit)
        #expect(try unit.relatedObjects("items").first === item)
        let tag = try context.insert("Tag")
        try tag.set("name", "fruit")
        try item.add(tag, toRelationshipAt: slot("tags"))
        #expect(try item.relatedObjects(at: slot("tags")).first === tag)
        #expect(try tag.relatedObjects("items").first === item)

        // A slot of the wrong kind, or outside the entity, is an error rather than a crash.
        let wrongKind = try #require(throws: ObjectError.self) { try item.related(at: slot("tags")) }
        #expect(wrongKind.key == "tags")
        #expect(throws: ObjectError.self) { try item.relatedObjects(at: slot("unit")) }
        #expect(throws: ObjectError.self) { try item.add(tag, toRelationshipAt: slot("unit")) }
        #expect(throws: ObjectError.self) { try item.setRelated(at: entity.relationships.count, to: unit) }
        try item.setRelated(at: slot("unit"), to: nil)
        #expect(try unit.relatedObjects("items").isEmpty)

        try context.save()
        let fresh = try ObjectContext(store: store)
        let stored = try fresh.existingObject(with: item.objectID)
        #expect(try stored.value(at: slot("name")) == .string("Apples"))
        #expect(try stored.relatedObjects(at: slot("tags")).map(\.objectID) == [tag.objectID])
        #expect(try stored.related(at: slot("unit")) == nil)
    }
}
