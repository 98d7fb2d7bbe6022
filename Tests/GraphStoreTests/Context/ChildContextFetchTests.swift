// Tests of what a child context sees: its fetches, counts and ID fetches include its parent's
// unsaved inserts, leave out the parent's unsaved deletions and evaluate predicates on the
// parent's unsaved values; its faults and to-many relationships read the parent's state; its
// own unsaved changes come on top.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ChildContextFetchTests {
    /// A parent over the stock with unsaved changes: P-9 (Plums, 0.5) inserted, B-2 deleted,
    /// A-1's price raised to 9.0 and its unit set to g; and its child.
    static func parentWithPendingChanges() throws -> (CatalogStock, ObjectContext, ObjectContext, plums: ObjectID) {
        let stock = try CatalogStock()
        let parent = try ObjectContext(store: stock.store)
        let plums = try CatalogModel.insertItem(into: parent, sku: "P-9", name: "Plums", price: 0.5)
        try parent.delete(parent.existingObject(with: stock.id("B-2")))
        let apples = try parent.existingObject(with: stock.id("A-1"))
        try apples.set("price", 9.0)
        try apples.setRelated("unit", to: parent.existingObject(with: stock.id("g")))
        return (stock, parent, try parent.newChildContext(), plums.objectID)
    }

    static func skus(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.get("sku", as: String.self) ?? "?" }
    }

    static let bySKU = [FetchSortDescriptor("sku")]

    @Test func aChildFetchSeesTheParentsInsertsDeletionsAndValues() throws {
        let (_, _, child, plumsID) = try Self.parentWithPendingChanges()
        let all = try child.fetch(FetchRequest(entityName: "Item", sortDescriptors: Self.bySKU))
        #expect(try Self.skus(all) == ["A-1", "P-9"])
        #expect(try all.map(CatalogStock.line) == ["A-1 Apples 9.0 g", "P-9 Plums 0.5 -"])
        #expect(all[1].objectID == plumsID && plumsID.isTemporary)

        // Predicates are decided on the parent's values, not the stored ones (A-1 is stored at 1.0).
        let cheap = FetchRequest(entityName: "Item", predicate: .key("price") < 5, sortDescriptors: Self.bySKU)
        #expect(try Self.skus(child.fetch(cheap)) == ["P-9"])
        let inGrams = FetchRequest(entityName: "Item", predicate: .key("unit.name") == "g")
        #expect(try Self.skus(child.fetch(inGrams)) == ["A-1"])
        #expect(try child.count(for: FetchRequest(entityName: "Item")) == 2)
        #expect(try child.fetchObjectIDs(cheap) == [plumsID])
    }

    @Test func aChildsFaultsAndToManysReadTheParent() throws {
        let (stock, _, child, plumsID) = try Self.parentWithPendingChanges()
        #expect(try child.existingObject(with: plumsID).get("name", as: String.self) == "Plums")
        let deleted = try #require(throws: ObjectError.self) { try child.existingObject(with: stock.id("B-2")) }
        #expect(deleted.kind == .notFound)
        // kg lost both items in the parent (B-2 deleted, A-1 moved to g).
        #expect(try child.existingObject(with: stock.id("kg")).relatedObjects("items").isEmpty)
        #expect(try Self.skus(child.existingObject(with: stock.id("g")).relatedObjects("items")) == ["A-1"])
        #expect(try Self.skus(child.existingObject(with: stock.id("L1")).relatedObjects("items")) == ["A-1"])
        // Prefetching through the child goes to the parent too.
        var request = FetchRequest(entityName: "Unit", sortDescriptors: [FetchSortDescriptor("name")])
        request.relationshipKeyPathsForPrefetching = ["items.tags"]
        let units = try child.fetch(request)
        #expect(try units.map { try $0.relatedObjects("items").count } == [1, 0])
        #expect(try units[0].relatedObjects("items")[0].relatedObjects("tags").count == 2)
    }

    @Test func aChildsOwnChangesComeOnTopOfTheParents() throws {
        let (stock, _, child, plumsID) = try Self.parentWithPendingChanges()
        _ = try CatalogModel.insertItem(into: child, sku: "C-3", name: "Cherries", price: 4)
        try child.existingObject(with: plumsID).set("price", 7.0)
        let cheap = FetchRequest(entityName: "Item", predicate: .key("price") < 5, sortDescriptors: Self.bySKU)
        #expect(try Self.skus(child.fetch(cheap)) == ["C-3"])
        var firstTwo = FetchRequest(entityName: "Item", sortDescriptors: Self.bySKU)
        firstTwo.fetchLimit = 2
        #expect(try Self.skus(child.fetch(firstTwo)) == ["A-1", "C-3"])
        try child.delete(child.existingObject(with: stock.id("A-1")))
        #expect(
            try Self.skus(child.fetch(FetchRequest(entityName: "Item", sortDescriptors: Self.bySKU))) == ["C-3", "P-9"])
        #expect(try child.count(for: FetchRequest(entityName: "Item")) == 2)
    }

    @Test func aGrandchildSeesBothLevelsAbove() throws {
        let (_, _, child, plumsID) = try Self.parentWithPendingChanges()
        _ = try CatalogModel.insertItem(into: child, sku: "C-3", name: "Cherries", price: 4)
        let grandchild = try child.newChildContext()
        let all = try grandchild.fetch(FetchRequest(entityName: "Item", sortDescriptors: Self.bySKU))
        #expect(try all.map(CatalogStock.line) == ["A-1 Apples 9.0 g", "C-3 Cherries 4.0 -", "P-9 Plums 0.5 -"])
        #expect(try grandchild.existingObject(with: plumsID).get("price", as: Double.self) == 0.5)
    }
}
