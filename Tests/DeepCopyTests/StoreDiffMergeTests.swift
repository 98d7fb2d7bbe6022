// Diff's merge of two sorted stores: unkeyed objects sharing their attribute values pair up in
// key order (the second named `key'`), sub-entities compare as their own entity, and stores of
// different models report entities and properties only one side has.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct StoreDiffMergeTests {
    @Test func unkeyedTwinsPairUpAndTheExtraOneIsNamed() throws {
        let first = try DeepCopierTests.source()
        let second = try PersistentStore.inMemory(model: DeepCopierTests.model())
        _ = try DeepCopier(from: first, to: second).run()
        let context = try ObjectContext(store: first)
        try context.insert("List").set("title", "Weekly")
        try context.insert("List").set("title", "Weekly")
        try context.save()
        #expect(
            try StoreDiff(first, second).differences() == [
                "List[Weekly']: only in A", "List[Weekly'']: only in A",
            ])
        #expect(
            try StoreDiff(second, first).differences() == [
                "List[Weekly']: only in B", "List[Weekly'']: only in B",
            ])
    }

    @Test func subEntitiesAndDifferentModels() throws {
        let first = try DeepCopierTests.source()
        let second = try PersistentStore.inMemory(model: DeepCopierTests.model(variant: true))
        _ = try DeepCopier(from: first, to: second).run()
        let context = try ObjectContext(store: second)
        let special = try #require(try context.fetch(FetchRequest(entityName: "Special")).first)
        try special.set("reason", "clearance")
        try context.save()
        let differences = try StoreDiff(first, second).differences()
        #expect(differences.first == "Aardvark: entity only in B")
        #expect(differences.contains("Item[A].origin: — ≠ seed"))
        #expect(differences.contains { $0.hasPrefix("Item[A].photo: ") && $0.hasSuffix(" ≠ —") })
        #expect(differences.contains("Special[C].reason: seasonal ≠ clearance"))
        #expect(differences.contains("Special[C].origin: — ≠ seed"))
        #expect(!differences.contains { $0.hasPrefix("Item[C]") })
        // Per item: photo and origin; nothing else differs (relationships compare by keys).
        #expect(differences.count == 1 + 4 * 2 + 1)
    }
}
