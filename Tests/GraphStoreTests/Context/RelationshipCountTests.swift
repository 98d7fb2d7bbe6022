// Tests of to-many minimum and maximum counts at save, for inserted owners and for saved owners
// whose members change only from the other side (the owner's row does not change).
import Foundation
import Testing

@testable import GraphStore

@Suite struct RelationshipCountTests {
    /// A Crate holds at most 2 bottles; a Box needs at least 2 marbles.
    static func model() throws -> ObjectModel {
        try ModelBuilder("Counts")
            .entity("Crate") { crate in
                crate.attribute("label", .string)
                crate.toMany("bottles", "Bottle", inverse: "crate", maxCount: 2)
            }
            .entity("Bottle") { $0.toOne("crate", "Crate", inverse: "bottles") }
            .entity("Box") { box in
                box.attribute("label", .string)
                box.toMany("marbles", "Marble", inverse: "box", minCount: 2)
            }
            .entity("Marble") { $0.toOne("box", "Box", inverse: "marbles", deleteRule: .nullify) }
            .build()
    }

    static func countRules(_ error: ObjectValidationError) -> [ValidationRule] {
        error.failures.map(\.rule)
    }

    @Test func savedOwnerOverMaximumThroughMembersToOneFails() throws {
        let store = try PersistentStore.inMemory(model: Self.model())
        let context = try ObjectContext(store: store)
        let crate = try context.insert("Crate")
        for _ in 0..<2 { try context.insert("Bottle").setRelated("crate", to: crate) }
        try context.save()

        // The third bottle changes only its own row; the crate is merely touched.
        let third = try context.insert("Bottle")
        try third.setRelated("crate", to: crate)
        #expect(!crate.isUpdated)
        let error = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(Self.countRules(error) == [.maximumCount(2)])
        #expect(error.failures.first?.key == "bottles")
        #expect(error.failures.first?.objectID == crate.objectID)
        #expect(error.failures.first?.value == "3")
        #expect(third.objectID.isTemporary)

        // The same through a fresh context, where the crate is a fault whose members never loaded.
        context.rollback()
        let fresh = try ObjectContext(store: store)
        let stored = try fresh.object(with: crate.objectID)
        try fresh.insert("Bottle").setRelated("crate", to: stored)
        let again = try #require(throws: ObjectValidationError.self) { try fresh.save() }
        #expect(Self.countRules(again) == [.maximumCount(2)])
        #expect(try ObjectContext(store: store).count(for: FetchRequest(entityName: "Bottle")) == 2)
    }

    @Test func insertedOwnerBelowMinimumFails() throws {
        let context = try ObjectContext(store: PersistentStore.inMemory(model: Self.model()))
        let box = try context.insert("Box")
        try context.insert("Marble").setRelated("box", to: box)
        let error = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(Self.countRules(error) == [.minimumCount(2)])
        #expect(error.failures.first?.description.hasPrefix("Box.marbles = 1 has fewer than 2 members") == true)
    }

    @Test func savedOwnerLosingMembersBelowMinimumFails() throws {
        let store = try PersistentStore.inMemory(model: Self.model())
        let context = try ObjectContext(store: store)
        let box = try context.insert("Box")
        let marbles = try (0..<2).map { _ in try context.insert("Marble") }
        for marble in marbles { try marble.setRelated("box", to: box) }
        try context.save()

        // Deleting one member (nullify) leaves one: below the minimum of 2.
        try context.delete(marbles[0])
        #expect(!box.isUpdated)
        let one = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(Self.countRules(one) == [.minimumCount(2)])
        #expect(one.failures.first?.objectID == box.objectID)

        // Deleting every member of a relationship with a minimum fails as well (it is required).
        try context.delete(marbles[1])
        let none = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(Self.countRules(none) == [.required])
        #expect(none.failures.first?.key == "marbles")
        #expect(try ObjectContext(store: store).count(for: FetchRequest(entityName: "Marble")) == 2)

        // Moving a member to another box is checked for the box it leaves.
        context.rollback()
        let other = try context.insert("Box")
        try other.set("label", "other")
        try marbles[0].setRelated("box", to: other)
        let moved = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(Set(moved.failures.map(\.objectID)) == [box.objectID, other.objectID])
        #expect(Set(Self.countRules(moved)) == [.minimumCount(2)])
    }
}
