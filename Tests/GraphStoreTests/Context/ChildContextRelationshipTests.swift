// Tests of relationship changes a child context's save pushes into its parent and the parent's
// save writes: to-one, to-many (through the member's to-one and through a join table), ordered
// to-many (insert, move, remove), and deletions whose cascade and nullify rules ran in the child.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ChildContextRelationshipTests {
    @Test func toOneToManyAndOrderedChangesReachTheParentAndTheStore() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        let apples = try child.existingObject(with: stock.id("A-1"))
        let bananas = try child.existingObject(with: stock.id("B-2"))
        let grams = try child.existingObject(with: stock.id("g"))
        let red = try child.existingObject(with: stock.id("red"))
        let list = try child.existingObject(with: stock.id("L1"))

        try apples.setRelated("unit", to: grams)  // to-one; kg.items and g.items follow
        try red.add(bananas, to: "items")  // many-to-many, from the other side
        try apples.remove(child.existingObject(with: stock.id("fruit")), from: "tags")
        let cherries = try CatalogModel.insertItem(into: child, sku: "C-3", name: "Cherries", price: 3)
        try grams.add(cherries, to: "items")
        try list.insert(cherries, at: 0, into: "items")  // ordered: [C-3, A-1, B-2]
        try list.moveRelated(in: "items", from: 2, to: 1)  // [C-3, B-2, A-1]
        let newList = try child.insert("ShoppingList")
        try newList.set("code", "L2")
        try newList.setRelatedObjects("items", to: [bananas, cherries])
        try child.save()

        // The parent holds the relationships as the child left them, inverses included.
        let parentList = try parent.existingObject(with: stock.id("L1"))
        #expect(try ChildContextFetchTests.skus(parentList.relatedObjects("items")) == ["C-3", "B-2", "A-1"])
        #expect(
            try ChildContextFetchTests.skus(parent.existingObject(with: stock.id("g")).relatedObjects("items")).sorted()
                == ["A-1", "C-3"])
        #expect(try stock.storedMembers(of: "L1", "items", key: "sku") == ["A-1", "B-2"])

        try parent.save()
        #expect(try stock.storedItems() == ["A-1 Apples 1.0 g", "B-2 Bananas 2.0 kg", "C-3 Cherries 3.0 g"])
        #expect(try stock.storedMembers(of: "kg", "items", key: "sku") == ["B-2"])
        #expect(try stock.storedMembers(of: "red", "items", key: "sku").sorted() == ["A-1", "B-2"])
        #expect(try stock.storedMembers(of: "A-1", "tags", key: "name") == ["red"])
        #expect(try stock.storedMembers(of: "L1", "items", key: "sku") == ["C-3", "B-2", "A-1"])
        let l2 = try stock.stored { context in
            try ChildContextFetchTests.skus(
                context.fetch(FetchRequest(entityName: "ShoppingList", predicate: .key("code") == "L2"))
                    .first?.relatedObjects("items") ?? [])
        }
        #expect(l2 == ["B-2", "C-3"])
    }

    @Test func removingFromAnOrderedRelationshipKeepsTheRestInOrder() throws {
        let stock = try CatalogStock()
        let (parent, child) = try stock.parentAndChild()
        let list = try child.existingObject(with: stock.id("L1"))
        let dates = try CatalogModel.insertItem(into: child, sku: "D-4", name: "Dates", price: 4)
        try list.add(dates, to: "items")  // [A-1, B-2, D-4]
        try list.remove(child.existingObject(with: stock.id("A-1")), from: "items")  // [B-2, D-4]
        try child.save()
        try parent.save()
        #expect(try stock.storedMembers(of: "L1", "items", key: "sku") == ["B-2", "D-4"])
    }

    /// Customers own orders (cascade), orders own ordered lines (cascade); lines point at
    /// products, which outlive them (nullify).
    static func ordersModel() throws -> ObjectModel {
        try ModelBuilder("Orders")
            .entity("Customer") { customer in
                customer.attribute("name", .string, optional: false)
                customer.toMany("orders", "Order", inverse: "customer", deleteRule: .cascade)
            }
            .entity("Order") { order in
                order.attribute("number", .integer64, optional: false)
                order.toOne("customer", "Customer", inverse: "orders")
                order.toMany("lines", "Line", inverse: "order", ordered: true, deleteRule: .cascade)
            }
            .entity("Line") { line in
                line.attribute("quantity", .integer32, default: .integer(1))
                line.toOne("order", "Order", inverse: "lines")
                line.toOne("product", "Product", inverse: "lines")
            }
            .entity("Product") { product in
                product.attribute("name", .string, optional: false)
                product.toMany("lines", "Line", inverse: "product")
            }
            .build()
    }

    @Test func aDeletionWhoseCascadeRanInTheChildReachesTheStore() throws {
        let store = try PersistentStore.inMemory(model: Self.ordersModel())
        let setup = try ObjectContext(store: store)
        let tea = try setup.insert("Product")
        try tea.set("name", "Tea")
        var customerObjects: [ManagedObject] = []
        for (name, orders) in [("Ann", [1, 2]), ("Bob", [3])] {
            let customer = try setup.insert("Customer")
            try customer.set("name", name)
            for number in orders {
                let order = try setup.insert("Order")
                try order.set("number", Int64(number))
                try order.setRelated("customer", to: customer)
                for quantity in 1...2 {
                    let line = try setup.insert("Line")
                    try line.set("quantity", Int32(quantity))
                    try line.setRelated("product", to: tea)
                    try order.add(line, to: "lines")
                }
            }
            customerObjects.append(customer)
        }
        try setup.save()
        let customers = customerObjects.map(\.objectID)
        func storedCounts() throws -> [Int] {
            let check = try ObjectContext(store: store)
            return try withExtendedLifetime(check) {
                try ["Customer", "Order", "Line", "Product"].map { try check.count(for: FetchRequest(entityName: $0)) }
            }
        }
        #expect(try storedCounts() == [2, 3, 6, 1])

        let parent = try ObjectContext(store: store)
        let child = try parent.newChildContext()
        try child.delete(child.existingObject(with: customers[0]))  // Ann, her 2 orders and their 4 lines
        #expect(child.deletedObjects.count == 7)
        try child.save()
        #expect(parent.deletedObjects.count == 7)
        #expect(try storedCounts() == [2, 3, 6, 1])
        #expect(try parent.count(for: FetchRequest(entityName: "Line")) == 2)

        try parent.save()
        #expect(try storedCounts() == [1, 1, 2, 1])
        let check = try ObjectContext(store: store)
        let remaining = try check.fetch(FetchRequest(entityName: "Line"))
        #expect(try remaining.map { try $0.related("order")?.get("number", as: Int64.self) } == [3, 3])
        let product = try #require(try check.fetch(FetchRequest(entityName: "Product")).first)
        #expect(try product.relatedObjects("lines").count == 2)
    }
}
