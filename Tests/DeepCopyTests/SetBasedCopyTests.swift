// The set-based copy's own cases: many small batches, entity numbers that differ between
// compatible models (with a default for an attribute only the target has), ordered members
// appended on merge under keep (OrderedMergeTests has every case of ordered merges), predicates,
// source objects sharing a key,
// a failure after batches were committed, completion metadata and the fail message.
import Foundation
import GraphStore
import Synchronization
import Testing

@testable import DeepCopy

@Suite struct SetBasedCopyTests {
    static let expected = [
        "Item|A|0.5|[1, 2, 0]|kg|fresh|B", "Item|B|1.5|[1, 2, 1]|pack|fresh|A",
        "Special|C|2.5|[1, 2, 2]|kg|fresh|-", "Item|D|3.5|[1, 2, 3]|pack||D", "List|Weekly|C,A,D",
    ]

    /// Counts progress calls.
    final class Calls: Sendable {
        let count = Mutex(0)
    }

    @Test func manyBatchesOfOneRowGiveTheSameGraph() throws {
        let source = try DeepCopierTests.source()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        let user = try ObjectContext(store: target)  // not empty: rows are remapped, not moved as they are
        try user.insert("Tag").set("name", "other")
        try user.save()
        let calls = Calls()
        var options = DeepCopyOptions()
        options.batchSize = 1
        options.progress = { _ in calls.count.withLock { $0 += 1 } }
        let report = try DeepCopier(from: source, to: target, options: options).run()
        #expect(try DeepCopierTests.walk(target) == Self.expected)
        #expect(report.entities["Item"]?.copied == 3 && report.entities["Special"]?.copied == 1)
        #expect(calls.count.withLock { $0 } > 10)
        // A merge in batches of one: every row matched, nothing duplicated.
        let again = try DeepCopier(from: source, to: target, options: options).run()
        #expect(again.entities["Item"]?.matched == 3 && again.entities["Item"]?.unchanged == 3)
        #expect(
            try DeepCopierTests.walk(target) == Array(Self.expected.dropLast()) + [
                "List|Weekly|C,A,D", "List|Weekly|C,A,D",
            ])
    }

    @Test func entityNumbersAndAttributesFollowACompatibleTargetModel() throws {
        let source = try DeepCopierTests.source()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model(variant: true))
        let report = try DeepCopier(from: source, to: target).run()
        #expect(report.warnings.contains("Item.photo: the target has no such attribute; skipped"))
        let context = try ObjectContext(store: target)
        let items = try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("sku")]))
        let lines = try items.map { item in
            [
                item.entity.name, try item.get("sku", as: String.self) ?? "",
                try item.get("origin", as: String.self) ?? "-",
                try item.related("unit")?.get("name", as: String.self) ?? "-",
                try item.related("replacement")?.get("sku", as: String.self) ?? "-",
            ].joined(separator: "|")
        }
        #expect(lines == ["Item|A|seed|kg|B", "Item|B|seed|pack|A", "Special|C|seed|kg|-", "Item|D|seed|pack|D"])
        let list = try #require(try context.fetch(FetchRequest(entityName: "List")).first)
        #expect(try list.relatedObjects("items").map { try $0.get("sku", as: String.self) ?? "" } == ["C", "A", "D"])
    }

    @Test func mergingAnOrderedRelationshipAppendsTheMissingMembersInSourceOrder() throws {
        let source = try DeepCopierTests.source()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        let user = try ObjectContext(store: target)
        let list = try user.insert("List")
        try list.set("title", "Weekly")
        for sku in ["D", "X"] {
            let item = try user.insert("Item")
            try item.set("sku", sku)
            try list.add(item, to: "items")
        }
        try user.save()
        var options = DeepCopyOptions()
        options.keys = ["List": ["title"]]
        options.onConflict = .keep
        let report = try DeepCopier(from: source, to: target, options: options).run()
        #expect(report.entities["List"]?.matched == 1 && report.entities["List"]?.copied == 0)
        #expect(try DeepCopierTests.walk(target).last == "List|Weekly|D,X,C,A")
    }

    @Test func predicatesLeaveObjectsAndLinksOut() throws {
        let source = try DeepCopierTests.source()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        var options = DeepCopyOptions()
        options.predicates = ["Item": try FetchPredicate(format: "price < 2")]
        let report = try DeepCopier(from: source, to: target, options: options).run()
        #expect(report.entities["Item"]?.copied == 2 && report.entities["Item"]?.skipped == 1)
        #expect(report.entities["Special"]?.skipped == 1)
        #expect(
            try DeepCopierTests.walk(target) == [
                "Item|A|0.5|[1, 2, 0]|kg|fresh|B", "Item|B|1.5|[1, 2, 1]|pack|fresh|A", "List|Weekly|A",
            ])
    }

    @Test func sourceObjectsSharingAKeyBecomeOneObject() throws {
        let source = try DeepCopierTests.source()
        let context = try ObjectContext(store: source)
        let other = try context.insert("List")
        try other.set("title", "Weekly")
        try context.save()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        var options = DeepCopyOptions()
        options.keys = ["List": ["title"]]
        let report = try DeepCopier(from: source, to: target, options: options).run()
        #expect(report.entities["List"]?.copied == 1 && report.entities["List"]?.matched == 1)
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "List")) == 1)
    }

    @Test func aFailureAfterCommittedBatchesLeavesTheTargetAsItWas() throws {
        func model(uniqueShelves: Bool) throws -> ObjectModel {
            try ModelBuilder("Store")
                .entity("Aisle") { aisle in
                    aisle.attribute("name", .string)
                    aisle.unique("name")
                }
                .entity("Shelf") { shelf in
                    shelf.attribute("label", .string)
                    if uniqueShelves { shelf.unique("label") }
                }
                .build()
        }
        let source = try PersistentStore.inMemory(model: model(uniqueShelves: false))
        let seeding = try ObjectContext(store: source)
        for name in ["a1", "a2", "a3"] { try seeding.insert("Aisle").set("name", name) }
        for label in ["s1", "s1"] { try seeding.insert("Shelf").set("label", label) }
        try seeding.save()
        let target = try PersistentStore.inMemory(model: model(uniqueShelves: true))
        let user = try ObjectContext(store: target)
        try user.insert("Aisle").set("name", "mine")
        try user.save()
        var options = DeepCopyOptions()
        options.batchSize = 1
        #expect(throws: (any Error).self) { _ = try DeepCopier(from: source, to: target, options: options).run() }
        let check = try ObjectContext(store: target)
        #expect(try check.count(for: FetchRequest(entityName: "Aisle")) == 1)
        #expect(try check.count(for: FetchRequest(entityName: "Shelf")) == 0)
        #expect(try check.activeRun() == nil)
    }

    @Test func completionMetadataAndTheFailMessage() throws {
        let source = try DeepCopierTests.source()
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        var options = DeepCopyOptions()
        options.completionMetadata = ["seed.version": "2"]
        _ = try DeepCopier(from: source, to: target, options: options).run()
        #expect(try target.metadata()["seed.version"] == "2")
        #expect(try ObjectContext(store: target).activeRun() == nil)
        options.onConflict = .fail
        let error = try #require(throws: DeepCopyError.self) {
            _ = try DeepCopier(from: source, to: target, options: options).run()
        }
        #expect(error.description == "Item [A] already exists in the target (onConflict: fail)")
    }
}
