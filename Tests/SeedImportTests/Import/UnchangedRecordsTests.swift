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
    /// comparing rows (with `limits`), and through objects only.
    func reimportBothWays(
        plan: String, edited: (items: String, lists: String), limits: ImportLimits = ImportLimits()
    ) async throws -> (compared: ImportReport, objects: ImportReport, [String], [String]) {
        let (items, lists) = RowPathTests.catalog()
        return try await Self.reimportBothWays(
            first: ["items.csv": items, "lists.csv": lists, "plan.yaml": RowPathTests.plan],
            again: ["items.csv": edited.items, "lists.csv": edited.lists, "plan.yaml": plan], limits: limits,
            dump: RowPathTests.dump)
    }

    /// Imports `plan.yaml` of the files `first`, then, with the files `again`, imports it into
    /// two copies of that store: comparing rows (with `limits`), and through objects only; the
    /// reports and the stores as `dump` gives them.
    static func reimportBothWays(
        first: [String: String], again: [String: String], limits: ImportLimits = ImportLimits(),
        dump: (String) throws -> [String]
    ) async throws -> (compared: ImportReport, objects: ImportReport, [String], [String]) {
        let fixture = try ImportFixture()
        for (name, text) in first { try fixture.write(name, text) }
        var options = ImportOptions()
        options.store = fixture.path("first.sqlite")
        _ = try await fixture.run("plan.yaml", options: options)
        // A closed store in WAL mode may keep committed pages in its log: copy both.
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: fixture.path("first.sqlite" + suffix)) {
            try FileManager.default.copyItem(
                atPath: fixture.path("first.sqlite" + suffix), toPath: fixture.path("second.sqlite" + suffix))
        }
        for (name, text) in again { try fixture.write(name, text) }
        options.limits = limits
        let compared = try await fixture.run("plan.yaml", options: options)
        options.store = fixture.path("second.sqlite")
        options.comparesStoredRows = false
        let objects = try await fixture.run("plan.yaml", options: options)
        return (compared, objects, try dump(fixture.path("first.sqlite")), try dump(fixture.path("second.sqlite")))
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

    // MARK: - The cache of destinations

    /// Whatever the cache holds — every unit, location and tag (the default), the units but no
    /// locations or tags (8 keys), nothing (1 key: every lookup outgrows it) — the re-import
    /// gives the store and report of the object path.
    @Test(arguments: [1 << 12, 8, 1])
    func cachedDestinationsChangeNothing(keys: Int) async throws {
        var limits = ImportLimits()
        limits.destinationsPerLookup = keys
        let (compared, objects, comparedDump, objectDump) = try await reimportBothWays(
            plan: RowPathTests.plan, edited: Self.editedCatalog(), limits: limits)
        #expect(comparedDump == objectDump)
        #expect(compared.entities == objects.entities)
        #expect(compared.entities["Item"]?.updated == 8)
        #expect(compared.entities["Item"]?.unchanged == 1191)
    }

    /// A model whose units have a code besides their name, so a source can rename one.
    static let unitModel = """
        name: Units
        entities:
          Unit:
            attributes:
              code: string
              name: {type: string, optional: false}
            relationships:
              items: {destination: Item, inverse: unit, toMany: true}
            unique: [[name]]
          Item:
            attributes:
              sku: {type: string, optional: false}
            relationships:
              unit: {destination: Unit, inverse: items}
            unique: [[sku]]
        """

    /// Units by code, items naming their unit, units renamed, items again.
    static let unitPlan: String = {
        func units(_ file: String) -> String {
            "  - {file: \(file), entity: Unit, key: [code], attributes: {code: code, name: name}}\n"
        }
        func items(_ file: String) -> String {
            """
              - file: \(file)
                entity: Item
                key: [sku]
                attributes: {sku: sku}
                relationships: {unit: {field: unit, match: name, missing: create}}

            """
        }
        return "model: Units.yaml\nstore: Units.sqlite\nsources:\n" + units("units.csv") + items("items-a.csv")
            + units("renames.csv") + items("items-b.csv")
    }()

    /// A unit renamed during the run is no longer found by its old name, though the cache found
    /// it so for an earlier source: a later item naming the old name gets a new unit of it.
    @Test func aDestinationRenamedDuringTheRunIsLookedUpAgain() async throws {
        let files = [
            "Units.yaml": Self.unitModel, "plan.yaml": Self.unitPlan, "units.csv": "code,name\nU1,kg\nU2,g\n",
            "items-a.csv": "sku,unit\nA,kg\nB,g\n", "renames.csv": "code,name\nU1,kg\n",
            "items-b.csv": "sku,unit\nC,kg\n",
        ]
        let dump = { (store: String) in
            try ImportFixture.rows(
                store,
                "SELECT i.sku, u.code, u.name FROM Item i LEFT JOIN Unit u ON u.pk = i.unit ORDER BY i.sku")
        }
        let (compared, objects, comparedDump, objectDump) = try await Self.reimportBothWays(
            first: files, again: ["renames.csv": "code,name\nU1,kilo\n"], dump: dump)
        #expect(comparedDump == objectDump)
        #expect(compared.entities == objects.entities)
        #expect(comparedDump == ["A|U1|kilo", "B|U2|g", "C|NULL|kg"])
        #expect(compared.entities["Unit"]?.inserted == 1)
        #expect(compared.entities["Unit"]?.updated == 1)
        #expect(compared.entities["Item"]?.updated == 1)
        #expect(compared.entities["Item"]?.unchanged == 2)
    }

    /// The cache holds at most its capacity of keys per lookup, and nothing of a lookup that
    /// outgrew it; it tells a key found, a key known to have no row, and a key not asked apart.
    @Test func theCacheIsBounded() throws {
        let fixture = try ImportFixture()
        try fixture.write("plan.yaml", RowPathTests.plan)
        let plan = try PlanFile.load(from: fixture.path("plan.yaml")).plan
        let model = try ValidatedPlan.model(for: plan)
        let mappings = try PlanMappings(plan: plan, model: model, planFile: "plan.yaml")
        let cache = DestinationCache(
            mappings: mappings, layout: StoreLayout(model: model, rules: SeedKitLayout()), capacity: 3
        ) { _ in 0 }
        let unit = try #require(mappings.relationships.first { $0.relationship.name == "unit" })
        let number = cache.lookupNumber(of: unit)
        let (kg, g, l, m) = (
            KeyValue.single(.string("kg")), KeyValue.single(.string("g")),
            KeyValue.single(.string("l")), KeyValue.single(.string("m"))
        )
        #expect(cache.remember(number, asked: [kg, g], found: [kg: 7]))
        #expect(cache.row(number, kg) == .some(7))
        #expect(cache.row(number, g) == .some(nil))
        #expect(cache.row(number, l) == nil)
        #expect(cache.count(number) == 2)
        #expect(!cache.remember(number, asked: [l, m], found: [:]))
        #expect(cache.count(number) == 0)
        #expect(cache.row(number, kg) == nil)
        #expect(!cache.remember(number, asked: [kg], found: [kg: 7]))
        #expect(cache.count(number) == 0)
    }
}
