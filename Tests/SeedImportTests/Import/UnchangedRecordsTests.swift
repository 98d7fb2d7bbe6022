// Re-runs into a store that holds data: records found unchanged by comparing them with their
// rows must give exactly the store and report that sending every record through objects gives,
// whatever mix of unchanged records, changed values, changed links (to-one, to-many, ordered),
// new records, repeated keys and conflict policies the input holds.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct UnchangedRecordsTests {
    /// The catalog of `RowPathTests`, edited: a few prices, units and tag lists changed, one
    /// item's notes cleared, new items, and lists with a member added or their order changed.
    static func editedCatalog() -> (items: String, lists: String) {
        let (items, lists) = RowPathTests.catalog()
        var itemLines = items.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in [5, 250, 999] {  // another price
            var fields = itemLines[index + 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[2] = "99.99"
            itemLines[index + 1] = fields.joined(separator: ",")
        }
        itemLines[41] = itemLines[41].replacingOccurrences(of: ",unit-0,", with: ",unit-3,")  // another unit
        itemLines[700] = itemLines[700].replacingOccurrences(of: ",aisle-", with: ",aisle-new-")  // a new aisle
        itemLines[8] += ";tag-22"  // one tag more
        itemLines.insert("I-5000,New item,1.00,1,yes,2026-03-01T10:00:00Z,,unit-1,aisle-1,tag-1", at: 600)
        var listLines = lists.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        listLines[3] += ";I-0001"  // a member more
        var fields = listLines[12].split(separator: ",").map(String.init)  // members reversed
        fields[3] = fields[3].split(separator: ";").reversed().joined(separator: ";")
        listLines[12] = fields.joined(separator: ",")
        return (itemLines.joined(separator: "\n"), listLines.joined(separator: "\n"))
    }

    /// Imports the catalog, then re-imports `edited` (with `plan`) into two copies of that store:
    /// comparing rows, and through objects only.
    func reimportBothWays(plan: String, edited: (items: String, lists: String)) async throws -> (
        compared: ImportReport, objects: ImportReport, [String], [String]
    ) {
        let fixture = try ImportFixture()
        let (items, lists) = RowPathTests.catalog()
        try fixture.write("items.csv", items)
        try fixture.write("lists.csv", lists)
        try fixture.write("plan.yaml", RowPathTests.plan)
        var options = ImportOptions()
        options.store = fixture.path("first.sqlite")
        _ = try await fixture.run("plan.yaml", options: options)
        // A closed store in WAL mode may keep committed pages in its log: copy both.
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: fixture.path("first.sqlite" + suffix)) {
            try FileManager.default.copyItem(
                atPath: fixture.path("first.sqlite" + suffix), toPath: fixture.path("second.sqlite" + suffix))
        }
        try fixture.write("items.csv", edited.items)
        try fixture.write("lists.csv", edited.lists)
        try fixture.write("again.yaml", plan)
        options.store = fixture.path("first.sqlite")
        let compared = try await fixture.run("again.yaml", options: options)
        options.store = fixture.path("second.sqlite")
        options.comparesStoredRows = false
        let objects = try await fixture.run("again.yaml", options: options)
        return (
            compared, objects, try RowPathTests.dump(fixture.path("first.sqlite")),
            try RowPathTests.dump(fixture.path("second.sqlite"))
        )
    }

    @Test func unchangedRecordsAreFoundAndTheRestApplyAsThroughObjects() async throws {
        let (compared, objects, comparedDump, objectDump) = try await reimportBothWays(
            plan: RowPathTests.plan, edited: Self.editedCatalog())
        #expect(comparedDump == objectDump)
        #expect(compared.entities == objects.entities)
        #expect(compared.entities["Item"]?.inserted == 1)
        // Three prices, a unit, an aisle and a tag, and the items whose key comes twice: I-0007
        // in two batches (each record changes it back: counted in both) and I-0430 twice in one
        // batch (counted once). 1 + 8 + 1191 = 1200 counts for 1201 records.
        #expect(compared.entities["Item"]?.updated == 8)
        #expect(compared.entities["Item"]?.unchanged == 1191)
        #expect(compared.entities["Location"]?.inserted == 1)
        // A member added to one list; reversing another's members adds none (members: add).
        #expect(compared.entities["ShoppingList"]?.updated == 1)
        #expect(compared.entities["ShoppingList"]?.unchanged == 29)
    }

    @Test func replacedMembersCompareInOrder() async throws {
        let plan = RowPathTests.plan.replacingOccurrences(
            of: "missing: ignore}", with: "missing: ignore, members: replace}")
        let (compared, objects, comparedDump, objectDump) = try await reimportBothWays(
            plan: plan, edited: Self.editedCatalog())
        #expect(comparedDump == objectDump)
        #expect(compared.entities == objects.entities)
        #expect(compared.entities["ShoppingList"]?.updated == 2)
        #expect(compared.entities["ShoppingList"]?.unchanged == 28)
    }

    @Test func keepLeavesEveryExistingRecordUnchanged() async throws {
        let plan = RowPathTests.plan.replacingOccurrences(of: "key: [sku]", with: "key: [sku]\n    onConflict: keep")
        let (compared, objects, comparedDump, objectDump) = try await reimportBothWays(
            plan: plan, edited: Self.editedCatalog())
        #expect(comparedDump == objectDump)
        #expect(compared.entities == objects.entities)
        #expect(compared.entities["Item"]?.inserted == 1)
        #expect(compared.entities["Item"]?.updated == 0)
    }
}
