// Tests of child contexts: a child's save goes into its parent and reaches the store only with
// the parent's save; discarding a child discards its changes; two levels of nesting; the IDs of
// objects a child inserts becoming permanent; validation at the child's save; store-level
// operations refused in a child.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ChildContextTests {
    @Test func aChildSaveGoesToTheParentAndOnlyTheParentsSaveReachesTheStore() throws {
        let stock = try CatalogStock()
        let parent = try ObjectContext(store: stock.store)
        let child = try parent.newChildContext(name: "editor")
        #expect(child.hasParent && !parent.hasParent)

        let apples = try child.existingObject(with: stock.id("A-1"))
        try apples.set("name", "Green apples")
        try apples.set("price", 2.5)
        let cherries = try CatalogModel.insertItem(into: child, sku: "C-3", name: "Cherries", price: 7.25)
        try cherries.setRelated("unit", to: child.existingObject(with: stock.id("g")))
        try child.delete(child.existingObject(with: stock.id("B-2")))
        let cherriesID = cherries.objectID

        let pushed = try #require(try child.save())
        let (applesID, bananasID) = (try stock.id("A-1"), try stock.id("B-2"))
        #expect(pushed.inserted == [cherriesID] && pushed.updated == [applesID] && pushed.deleted == [bananasID])
        #expect(!child.hasChanges && !cherries.isInserted && cherriesID.isTemporary)

        // The store has not changed; the parent holds the changes, the new object under the same ID.
        #expect(try stock.storedItems() == CatalogStock.originalItems)
        #expect(parent.hasChanges)
        #expect(parent.insertedObjects.map(\.objectID) == [cherriesID])
        #expect(parent.deletedObjects.map(\.objectID) == [bananasID])
        #expect(try CatalogStock.line(of: parent.existingObject(with: stock.id("A-1"))) == "A-1 Green apples 2.5 kg")
        #expect(try CatalogStock.line(of: parent.existingObject(with: cherriesID)) == "C-3 Cherries 7.25 g")

        try parent.save()
        #expect(try stock.storedItems() == ["A-1 Green apples 2.5 kg", "C-3 Cherries 7.25 g"])
        #expect(try stock.storedMembers(of: "g", "items", key: "sku") == ["C-3"])
        #expect(try stock.storedMembers(of: "L1", "items", key: "sku") == ["A-1"])
    }

    @Test(arguments: ["rollback", "reset", "release"])
    func discardingAChildLeavesTheParentAndTheStoreUnchanged(how: String) throws {
        let stock = try CatalogStock()
        let parent = try ObjectContext(store: stock.store)
        let parentApples = try parent.existingObject(with: stock.id("A-1"))
        /// A child that changed, inserted and deleted objects, and its copy of A-1.
        func editingChild() throws -> (ObjectContext, ManagedObject) {
            let child = try parent.newChildContext()
            let apples = try child.existingObject(with: stock.id("A-1"))
            try apples.set("price", 9.5)
            _ = try CatalogModel.insertItem(into: child, sku: "C-3", name: "Cherries", price: 1)
            try child.delete(child.existingObject(with: stock.id("B-2")))
            #expect(child.hasChanges)
            return (child, apples)
        }

        switch how {
        case "rollback":
            let (child, apples) = try editingChild()
            child.rollback()
            #expect(!child.hasChanges)
            #expect(try apples.get("price", as: Double.self) == 1.0)  // read from the parent again
            #expect(try child.count(for: FetchRequest(entityName: "Item")) == 2)
            #expect(try child.save() == nil)
        case "reset":
            let (child, apples) = try editingChild()
            child.reset()
            #expect(!child.hasChanges && child.registeredObjects.isEmpty && apples.context == nil)
            #expect(try child.save() == nil)
        default:
            _ = try editingChild()  // released at once
        }
        #expect(!parent.hasChanges)
        #expect(try parentApples.get("price", as: Double.self) == 1.0)
        #expect(try parent.count(for: FetchRequest(entityName: "Item")) == 2)
        #expect(try parent.save() == nil)
        #expect(try stock.storedItems() == CatalogStock.originalItems)
    }

    @Test func twoLevelsOfChildrenSaveUpOneLevelAtATime() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        let grandchild = try child.newChildContext()

        let bananas = try grandchild.existingObject(with: stock.id("B-2"))
        try bananas.set("price", 2.75)
        let dates = try CatalogModel.insertItem(into: grandchild, sku: "D-4", name: "Dates", price: 5)
        try dates.setRelated("unit", to: bananas.related("unit"))
        let datesID = dates.objectID

        try grandchild.save()
        #expect(child.hasChanges && !parent.hasChanges)
        #expect(try child.existingObject(with: datesID).get("sku", as: String.self) == "D-4")
        #expect(try stock.storedItems() == CatalogStock.originalItems)

        try child.save()
        #expect(parent.hasChanges && !child.hasChanges)
        #expect(try CatalogStock.line(of: parent.existingObject(with: stock.id("B-2"))) == "B-2 Bananas 2.75 kg")
        #expect(try stock.storedItems() == CatalogStock.originalItems)

        try parent.save()
        #expect(try stock.storedItems() == ["A-1 Apples 1.0 kg", "B-2 Bananas 2.75 kg", "D-4 Dates 5.0 kg"])
        // Every level now knows the new object by its permanent ID, and by its old one.
        let permanent = try parent.object(with: datesID).objectID
        #expect(!permanent.isTemporary)
        #expect(dates.objectID == permanent)
        #expect(try child.object(with: datesID).objectID == permanent)
        #expect(try grandchild.object(with: datesID) === dates)
        #expect(try stock.stored { try $0.existingObject(with: permanent).get("sku", as: String.self) } == "D-4")
    }

    @Test func theIDsAChildHandedOutResolveToTheirRowsOnceTheParentSaved() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        let skus = ["E-5", "F-6", "G-7"]
        let handedOut = try skus.map { sku in
            try CatalogModel.insertItem(into: child, sku: sku, name: sku, price: 1).objectID
        }
        try child.save()
        // Temporary in the child and in the parent until the parent saves.
        #expect(handedOut.allSatisfy { $0.isTemporary })
        #expect(try handedOut.map { try parent.object(with: $0).objectID } == handedOut)

        try parent.save()
        let permanent = try handedOut.map { try parent.object(with: $0).objectID }
        #expect(!permanent.contains { $0.isTemporary })
        #expect(Set(permanent).count == 3)
        // The child's objects carry the permanent IDs without being asked, and old IDs still resolve.
        #expect(try handedOut.map { try child.object(with: $0).objectID } == permanent)
        #expect(child.registeredObjects.allSatisfy { !$0.objectID.isTemporary })
        // Each permanent ID names the row of the object that was handed out.
        #expect(
            try stock.stored { context in
                try permanent.map { try context.existingObject(with: $0).get("sku", as: String.self) }
            } == skus)
        // Changing the object in the child again updates that row.
        try child.object(with: handedOut[1]).set("price", 6.5)
        try child.save()
        try parent.save()
        #expect(try stock.stored { try $0.existingObject(with: permanent[1]).get("price", as: Double.self) } == 6.5)
        #expect(try stock.stored { try $0.count(for: FetchRequest(entityName: "Item")) } == 5)
    }

    @Test func aChildSaveValidatesAndRefusesBrokenObjectsWithoutTouchingTheParent() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        let apples = try child.existingObject(with: stock.id("A-1"))
        try apples.set("price", -1.0)
        let nameless = try child.insert("Item")
        try nameless.set("sku", "N-1")
        try child.delete(child.existingObject(with: stock.id("kg")))  // deny: it still has items

        let error = try #require(throws: ObjectValidationError.self) { try child.save() }
        #expect(Set(error.failures.map(\.rule)) == [.minimum(0), .required, .deleteDenied])
        #expect(!parent.hasChanges && child.hasChanges)
        #expect(parent.registeredObjects.allSatisfy { !$0.hasChanges })
    }

    @Test func storeLevelOperationsAreRefusedInAChild() throws {
        let stock = try CatalogStock()
        let (_, child) = try stock.parentAndChild()
        func expectRefused(_ operation: () throws -> Void) {
            let error = #expect(throws: ObjectError.self) { try operation() }
            if case .childContext = error?.kind {
            } else {
                Issue.record("expected .childContext, got \(String(describing: error))")
            }
        }
        expectRefused { _ = try child.execute(BatchUpdateRequest(entityName: "Item", values: ["price": .double(0)])) }
        expectRefused { _ = try child.execute(BatchDeleteRequest(entityName: "Item")) }
        expectRefused { _ = try child.beginRun(id: "run") }
        expectRefused { _ = try child.save(metadata: ["seed.version": "1"]) }
        expectRefused { _ = try child.fetchPage(of: "Item", after: 0, limit: 10) }
        #expect(try stock.storedItems() == CatalogStock.originalItems)
    }
}
