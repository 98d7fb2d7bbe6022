// Tests of the run journal: batches commit as they go, yet undo restores the store exactly
// (inserted rows gone, updated and deleted rows back, join rows and positions restored), and
// finishing keeps everything.
import Foundation
import Testing

@testable import GraphStore

@Suite struct RunJournalTests {
    static func snapshot(_ store: PersistentStore) throws -> [String] {
        let connection = try store.makeConnection()
        var rows: [String] = []
        for sql in [
            "SELECT pk, opt, sku, name, price, unit FROM Item ORDER BY pk", "SELECT pk, name FROM Unit ORDER BY pk",
            "SELECT src, dst FROM Item_tags ORDER BY src, dst",
            "SELECT src, dst, position FROM ShoppingList_items ORDER BY src, dst",
        ] {
            let statement = try connection.prepare(sql)
            while try statement.step() {
                rows.append(
                    (0..<statement.columnCount).map { statement.isNull($0) ? "NULL" : statement.string($0) }.joined(
                        separator: "|"))
            }
        }
        return rows
    }

    /// A store with two items, a unit, a tag and a list.
    static func seeded() throws -> (PersistentStore, ObjectContext) {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let unit = try context.insert("Unit")
        try unit.set("name", "kg")
        let tag = try context.insert("Tag")
        try tag.set("name", "fresh")
        let list = try context.insert("ShoppingList")
        try list.set("code", "L")
        for sku in ["A", "B"] {
            let item = try context.insert("Item")
            try item.set("sku", sku)
            try item.set("name", sku)
            try item.setRelated("unit", to: unit)
            try item.add(tag, to: "tags")
            try list.add(item, to: "items")
        }
        try context.save()
        context.reset()
        return (store, context)
    }

    @Test func undoRestoresEverythingAcrossBatches() throws {
        let (store, context) = try Self.seeded()
        let before = try Self.snapshot(store)
        let run = try context.beginRun(id: "test")
        let items = try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("sku")]))
        try items[0].set("price", 9.5)
        try items[0].set("name", "changed")
        try items[1].setRelated("unit", to: nil)
        try context.save()
        context.reset()
        let list = try #require(try context.fetch(FetchRequest(entityName: "ShoppingList")).first)
        try list.moveRelated(in: "items", from: 1, to: 0)
        let tag = try #require(try context.fetch(FetchRequest(entityName: "Tag")).first)
        let a = try #require(try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == "A")).first)
        try a.remove(tag, from: "tags")
        let extra = try context.insert("Item")
        try extra.set("sku", "C")
        try extra.set("name", "C")
        try extra.add(tag, to: "tags")
        try context.delete(
            try #require(try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == "B")).first))
        try context.save()
        context.reset()
        #expect(try Self.snapshot(store) != before)
        #expect(try context.activeRun() == run)
        try context.undoRun(run)
        #expect(try Self.snapshot(store) == before)
        #expect(try context.activeRun() == nil)
    }

    @Test func finishKeepsTheRunsWork() throws {
        let (store, context) = try Self.seeded()
        let run = try context.beginRun(id: "keep")
        let unit = try context.insert("Unit")
        try unit.set("name", "g")
        try context.finishRun(run, metadata: ["seed.version": "2"])
        #expect(try context.activeRun() == nil)
        #expect(try store.metadata()["seed.version"] == "2")
        #expect(try context.count(for: FetchRequest(entityName: "Unit")) == 2)
        let log = try store.makeConnection().prepare("SELECT count(*) FROM seedkit_undo")
        _ = try log.step()
        #expect(log.int(0) == 0)
    }

    @Test func dryRunsLeaveNothing() throws {
        let (store, context) = try Self.seeded()
        let before = try Self.snapshot(store)
        let seen = try context.withoutCommitting {
            let unit = try context.insert("Unit")
            try unit.set("name", "g")
            try context.save()
            return try context.count(for: FetchRequest(entityName: "Unit"))
        }
        #expect(seen == 2)
        #expect(try Self.snapshot(store) == before)
    }
}
