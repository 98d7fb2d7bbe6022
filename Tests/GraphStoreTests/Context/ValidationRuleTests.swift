// Every kind of validation rule at save, the store-wins merge policy, and fetch batch sizes.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ValidationRuleTests {
    static func model() throws -> ObjectModel {
        try ModelBuilder("Rules")
            .entity("Thing") { thing in
                thing.attribute(
                    "code", .string, validation: ValidationRules(minimumLength: 2, maximumLength: 4, pattern: "[A-Z]+"))
                thing.attribute("level", .integer32, validation: ValidationRules(minimum: 1, maximum: 9))
                thing.attribute(
                    "when", .date,
                    validation: ValidationRules(
                        earliestDate: Date(timeIntervalSince1970: 0),
                        latestDate: Date(timeIntervalSince1970: 1_000_000_000)))
                thing.toMany("parts", "Part", inverse: "thing", maxCount: 2)
                thing.unique("code")
            }
            .entity("Part") { $0.toOne("thing", "Thing", inverse: "parts") }
            .build()
    }

    @Test func everyRuleIsCheckedAndReported() throws {
        let context = try ObjectContext(store: PersistentStore.inMemory(model: Self.model()))
        let thing = try context.insert("Thing")
        try thing.set("code", "abcde")
        try thing.set("level", Int32(12))
        try thing.set("when", Date(timeIntervalSince1970: 2_000_000_000))
        for _ in 0..<3 { try thing.add(try context.insert("Part"), to: "parts") }
        let error = try #require(throws: ObjectValidationError.self) { try context.save() }
        let rules = Set(error.failures.map(\.rule))
        #expect(
            rules == [
                .maximumLength(4), .pattern("[A-Z]+"), .maximum(9), .latestDate("2001-09-09T01:46:40Z"),
                .maximumCount(2),
            ])
        #expect(
            error.failures.first { $0.rule == .maximum(9) }?.description.hasPrefix(
                "Thing.level = 12 is above the maximum 9.0") == true)
        try thing.set("code", "A")
        try thing.set("level", Int32(0))
        try thing.set("when", Date(timeIntervalSince1970: -1))
        let again = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(
            Set(again.failures.map(\.rule)).isSuperset(of: [
                .minimumLength(2), .minimum(1), .earliestDate("1970-01-01T00:00:00Z"),
            ]))
    }

    @Test func storeWinsKeepsTheStoredRow() throws {
        let store = try PersistentStore.inMemory(model: Self.model())
        let first = try ObjectContext(store: store)
        let original = try first.insert("Thing")
        try original.set("code", "AB")
        try original.set("level", Int32(3))
        try first.save()
        let second = try ObjectContext(store: store)
        second.mergePolicy = .storeWins
        let duplicate = try second.insert("Thing")
        try duplicate.set("code", "AB")
        try duplicate.set("level", Int32(7))
        try second.save()
        #expect(duplicate.objectID == original.objectID)
        #expect(try duplicate.get("level", as: Int32.self) == 3)
        #expect(try second.count(for: FetchRequest(entityName: "Thing")) == 1)
    }

    @Test func batchSizeLoadsOnlyTheFirstBatch() throws {
        let store = try PersistentStore.inMemory(model: Self.model())
        let context = try ObjectContext(store: store)
        for code in ["AA", "BB", "CC", "DD"] {
            try context.insert("Thing").set("code", code)
        }
        try context.save()
        context.reset()
        var request = FetchRequest(entityName: "Thing", sortDescriptors: [FetchSortDescriptor("code")])
        request.fetchBatchSize = 2
        let things = try context.fetch(request)
        #expect(things.map(\.isFault) == [false, false, true, true])
        #expect(try things[3].get("code", as: String.self) == "DD")
    }
}
