// Tests of conflicts around child contexts, under each merge policy: a parent saving over a row
// another context changed after the child read it (the row-version check at the store), and a
// child saving over an object its parent changed or deleted after the child read it.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ChildContextConflictTests {
    static let policies: [MergePolicy] = [.error, .objectWins, .storeWins]

    @Test(arguments: Self.policies)
    func aParentSavingOverARowAnotherContextChanged(policy: MergePolicy) throws {
        let stock = try CatalogStock()
        let parent = try ObjectContext(store: stock.store)
        parent.mergePolicy = policy
        let child = try parent.newChildContext()
        let apples = try child.existingObject(with: stock.id("A-1"))  // Apples 1.0 kg, row version 1

        // Another context changes A-1's price and gives it a location.
        let other = try ObjectContext(store: stock.store)
        let otherApples = try other.existingObject(with: stock.id("A-1"))
        try otherApples.set("price", 3.0)
        let aisle = try other.insert("Location")
        try aisle.set("aisle", "9")
        try otherApples.setRelated("location", to: aisle)
        try other.save()
        let storedAisle = {
            try stock.stored {
                try $0.existingObject(with: stock.id("A-1")).related("location")?.get("aisle", as: String.self)
            }
        }

        try apples.set("name", "Green apples")
        try apples.setRelated("unit", to: child.existingObject(with: stock.id("g")))
        try child.save()  // the parent had not changed A-1: no conflict between them
        let storedApples = { try stock.storedItems()[0] }
        switch policy {
        case .error:
            let error = try #require(throws: ObjectValidationError.self) { try parent.save() }
            #expect(error.failures.map(\.rule) == [.rowVersionConflict])
            #expect(try storedApples() == "A-1 Apples 3.0 kg")
            #expect(try storedAisle() == "9")
            #expect(parent.hasChanges)
        case .objectWins:
            try parent.save()
            // The parent's whole object is written: the price it held, and no location.
            #expect(try storedApples() == "A-1 Green apples 1.0 g")
            #expect(try storedAisle() == nil)
        case .storeWins:
            try parent.save()
            // The stored attributes and location stay; the relationship the parent changed is written.
            #expect(try storedApples() == "A-1 Apples 3.0 g")
            #expect(try storedAisle() == "9")
            #expect(try stock.storedMembers(of: "g", "items", key: "sku") == ["A-1"])
            let parentApples = try parent.existingObject(with: stock.id("A-1"))
            #expect(try CatalogStock.line(of: parentApples) == "A-1 Apples 3.0 g")
            let parentAisle = try #require(try parentApples.related("location"))
            #expect(try parentAisle.get("aisle", as: String.self) == "9")
            #expect(try parentAisle.relatedObjects("items").map { try $0.get("sku", as: String.self) } == ["A-1"])
            // The parent's object now holds the row's version: its next change saves.
            try parentApples.set("price", 4.0)
            try parent.save()
            #expect(try storedApples() == "A-1 Apples 4.0 g")
            #expect(try storedAisle() == "9")
        }
    }

    @Test(arguments: Self.policies)
    func aChildSavingOverAnObjectItsParentChangedSinceTheChildReadIt(policy: MergePolicy) throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        child.mergePolicy = policy
        let apples = try child.existingObject(with: stock.id("A-1"))
        let bananas = try child.existingObject(with: stock.id("B-2"))
        // After the child read A-1, the parent changes its price and gives it a location.
        let parentApples = try parent.existingObject(with: stock.id("A-1"))
        try parentApples.set("price", 5.0)
        let aisle = try parent.insert("Location")
        try aisle.set("aisle", "3")
        try parentApples.setRelated("location", to: aisle)
        let parentAisle = { try parentApples.related("location")?.get("aisle", as: String.self) }

        try apples.set("name", "Green apples")
        try apples.setRelated("unit", to: child.existingObject(with: stock.id("g")))
        try bananas.set("price", 2.25)  // the parent did not change B-2
        let parentBananas = { try CatalogStock.line(of: parent.existingObject(with: stock.id("B-2"))) }
        switch policy {
        case .error:
            let error = try #require(throws: ObjectValidationError.self) { try child.save() }
            #expect(error.failures.map(\.rule) == [.parentChanged])
            #expect(error.failures.map(\.objectID) == [try stock.id("A-1")])
            // Nothing was pushed, not even B-2; the child keeps its changes.
            #expect(try CatalogStock.line(of: parentApples) == "A-1 Apples 5.0 kg")
            #expect(try parentBananas() == "B-2 Bananas 2.0 kg")
            #expect(child.hasChanges)
            // Refreshed with its changes kept, the child's object reads the parent's price and saves.
            try child.refresh(apples, mergeChanges: true)
            #expect(try CatalogStock.line(of: apples) == "A-1 Green apples 5.0 g")
            try child.save()
            #expect(try CatalogStock.line(of: parentApples) == "A-1 Green apples 5.0 g")
            #expect(try parentAisle() == "3")
        case .objectWins:
            // The child's whole object replaces the parent's: its price and its (missing) location too.
            try child.save()
            #expect(try CatalogStock.line(of: parentApples) == "A-1 Green apples 1.0 g")
            #expect(try parentAisle() == nil)
        case .storeWins:
            try child.save()
            // The parent's attribute values and its location stay, the relationship the child
            // changed is taken, and the child's object reads the parent's values again.
            #expect(try CatalogStock.line(of: parentApples) == "A-1 Apples 5.0 g")
            #expect(try parentAisle() == "3")
            #expect(try CatalogStock.line(of: apples) == "A-1 Apples 5.0 g")
            #expect(try apples.related("location")?.get("aisle", as: String.self) == "3")
        }
        #expect(try parentBananas() == "B-2 Bananas 2.25 kg")
        let (expected, expectedAisle) = (try CatalogStock.line(of: parentApples), try parentAisle())
        try parent.save()
        #expect(try stock.storedItems() == [expected, "B-2 Bananas 2.25 kg"])
        let storedAisle = try stock.stored { context in
            try context.existingObject(with: stock.id("A-1")).related("location")?.get("aisle", as: String.self)
        }
        #expect(storedAisle == expectedAisle)
    }

    @Test func underStoreWinsAToOneTheChildPointedAtANewObjectIsTakenThoughItsOldDestinationIsGone() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        child.mergePolicy = .storeWins
        let parentApples = try parent.existingObject(with: stock.id("A-1"))
        let shelf = try parent.insert("Location")
        try shelf.set("aisle", "1")
        try parentApples.setRelated("location", to: shelf)
        let apples = try child.existingObject(with: stock.id("A-1"))  // on the parent's unsaved shelf
        // The parent drops the shelf (A-1 loses its location) and saves: the shelf's temporary
        // ID no longer names anything there.
        try parent.delete(shelf)
        try parent.save()

        let aisle = try child.insert("Location")
        try aisle.set("aisle", "7")
        try apples.setRelated("location", to: aisle)
        try apples.set("price", 9.0)
        try child.save()
        // A-1 conflicts (its location changed in the parent): the parent's price stays, the
        // child's new location is taken.
        #expect(try CatalogStock.line(of: parentApples) == "A-1 Apples 1.0 kg")
        #expect(try parentApples.related("location")?.get("aisle", as: String.self) == "7")
        #expect(try apples.related("location")?.get("aisle", as: String.self) == "7")
        try parent.save()
        let storedAisle = try stock.stored { context in
            try context.existingObject(with: stock.id("A-1")).related("location")?.get("aisle", as: String.self)
        }
        #expect(storedAisle == "7")
    }

    @Test(arguments: Self.policies)
    func anObjectTheParentDeletedStaysDeleted(policy: MergePolicy) throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        child.mergePolicy = policy
        let bananas = try child.existingObject(with: stock.id("B-2"))
        try parent.delete(parent.existingObject(with: stock.id("B-2")))
        try bananas.set("price", 2.5)
        if policy == .error {
            let error = try #require(throws: ObjectValidationError.self) { try child.save() }
            #expect(error.failures.map(\.rule) == [.parentChanged])
            return
        }
        try child.save()
        let gone = try #require(throws: ObjectError.self) { try bananas.get("price", as: Double.self) }
        #expect(gone.kind == .notFound)
        try parent.save()
        #expect(try stock.storedItems() == ["A-1 Apples 1.0 kg"])
    }

    @Test func aChildLinkingToAnObjectItsParentDeletedIsRefused() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        let apples = try child.existingObject(with: stock.id("A-1"))
        let grams = try child.existingObject(with: stock.id("g"))
        try parent.delete(parent.existingObject(with: stock.id("g")))
        try apples.setRelated("unit", to: grams)
        let gramsID = try stock.id("g")
        let error = try #require(throws: ObjectError.self) { try child.save() }
        #expect(error.kind == .notFound && error.objectID == gramsID)
        #expect(try CatalogStock.line(of: parent.existingObject(with: stock.id("A-1"))) == "A-1 Apples 1.0 kg")
        #expect(parent.updatedObjects.isEmpty && child.hasChanges)
    }
}
