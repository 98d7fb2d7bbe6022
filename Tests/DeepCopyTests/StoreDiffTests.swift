// Diff: a copy compares equal to its source; altered attributes, order and membership show up.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct StoreDiffTests {
    @Test func aCopyIsEqualAndChangesAreReported() throws {
        let source = try DeepCopierTests.source()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        _ = try DeepCopier(from: source, to: target).run()
        #expect(try StoreDiff(source, target).differences().isEmpty)

        let context = try ObjectContext(store: target)
        let list = try #require(try context.fetch(FetchRequest(entityName: "List")).first)
        try list.moveRelated(in: "items", from: 0, to: 2)
        let b = try #require(try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == "B")).first)
        try b.set("price", 9.0)
        let extra = try context.insert("Tag")
        try extra.set("name", "new")
        try context.save()
        let differences = try StoreDiff(source, target).differences()
        #expect(differences.contains("Item[B].price: 1.5 ≠ 9.0"))
        #expect(differences.contains("List[Weekly].items: [C, A, D] ≠ [A, D, C]"))
        #expect(differences.contains("Tag[new]: only in B"))
        #expect(differences.count == 3)
    }
}
