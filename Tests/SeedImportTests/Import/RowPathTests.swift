// The row path (new stores, rows written with SQL) against the object path: the same records
// must give the same store, row for row, whatever mix of new keys, duplicates across and within
// batches, created destinations, forward references and rejected records the input holds.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct RowPathTests {
    /// 1,200 items in batches of 100: units, locations and tags created by reference; an item
    /// repeated in a later batch and one within its batch (object path for those batches);
    /// lists referring to items, one to an item that never comes (missing: ignore).
    static func catalog(badPrice: Bool = false) -> (items: String, lists: String) {
        var items = "sku,name,price,quantity,listed,added,notes,unit,location,tags\n"
        for number in 0..<1200 {
            let sku = number == 1150 ? "I-0007" : number == 431 ? "I-0430" : String(format: "I-%04d", number)
            let price = badPrice && number == 777 ? "cheap" : String(format: "%d.%02d", number % 50, number % 100)
            let notes = number % 3 == 0 ? "" : "\"note \(number), with comma\""
            let tags = (0..<(number % 4)).map { "tag-\((number + $0 * 7) % 23)" }.joined(separator: ";")
            items +=
                "\(sku),Item \(number),\(price),\(number % 90),\(number % 2 == 0 ? "yes" : "no"),"
                + "2026-01-\(String(format: "%02d", number % 28 + 1))T10:00:00Z,\(notes),unit-\(number % 5),"
                + "aisle-\(number % 11),\(tags)\n"
        }
        var lists = "code,title,created,items\n"
        for number in 0..<30 {
            let members = (0..<(number % 6 + 1)).map { String(format: "I-%04d", (number * 37 + $0 * 11) % 1200) }
            let missing = number == 4 ? ";I-9999" : ""
            lists += "L-\(number),List \(number),2026-02-01T08:00:00Z,\(members.joined(separator: ";"))\(missing)\n"
        }
        return (items, lists)
    }

    static let plan = """
        model: Catalog.yaml
        store: Catalog.sqlite
        batchSize: 100
        onError: skip
        maxErrors: 10
        sources:
          - file: items.csv
            entity: Item
            key: [sku]
            attributes:
              sku: sku
              name: name
              price: price
              quantity: quantity
              listed: {field: listed, true: ["yes"], false: ["no"]}
              added: {field: added, date: iso8601}
              notes: {field: notes, null: [""]}
            relationships:
              unit: {field: unit, match: name, missing: create}
              location: {field: location, match: aisle, missing: create}
              tags: {field: tags, split: ";", match: name, missing: create}
          - file: lists.csv
            entity: ShoppingList
            key: [code]
            attributes: {code: code, title: title, created: {field: created, date: iso8601}}
            relationships:
              items: {field: items, split: ";", match: sku, missing: ignore}
        """

    /// Every row of every table, in key order (the store UUID aside).
    static func dump(_ store: String) throws -> [String] {
        var rows: [String] = []
        for table in ["Item", "Unit", "Location", "Tag", "ShoppingList", "Item_tags", "ShoppingList_items"] {
            rows += try ImportFixture.rows(store, "SELECT '\(table)', * FROM \(table) ORDER BY 2, 3")
        }
        return rows
            + (try ImportFixture.rows(store, "SELECT * FROM seedkit_metadata WHERE key != 'store.uuid' ORDER BY key"))
    }

    func importBothWays(badPrice: Bool = false) async throws -> (
        rows: ImportReport, objects: ImportReport, [String], [String]
    ) {
        let fixture = try ImportFixture()
        let (items, lists) = Self.catalog(badPrice: badPrice)
        try fixture.write("items.csv", items)
        try fixture.write("lists.csv", lists)
        try fixture.write("plan.yaml", Self.plan)
        var options = ImportOptions()
        options.store = fixture.path("rows.sqlite")
        let rows = try await fixture.run("plan.yaml", options: options)
        options.store = fixture.path("objects.sqlite")
        options.usesRowPath = false
        let objects = try await fixture.run("plan.yaml", options: options)
        return (
            rows, objects, try Self.dump(fixture.path("rows.sqlite")), try Self.dump(fixture.path("objects.sqlite"))
        )
    }

    @Test func rowsAndObjectsGiveTheSameStore() async throws {
        let (rows, objects, rowDump, objectDump) = try await importBothWays()
        #expect(rowDump == objectDump)
        #expect(rowDump.count > 2500)
        #expect(rows.entities == objects.entities)
        #expect(rows.entities["Item"]?.inserted == 1198)
        // I-0007 again in a later batch updates a saved item; I-0430 twice in one batch is one insert.
        #expect(rows.entities["Item"]?.updated == 1)
        #expect(rows.entities["Unit"]?.inserted == 5)
        #expect(rows.entities["Tag"]?.inserted == 23)
        #expect(rows.entities["ShoppingList"]?.inserted == 30)
    }

    @Test func aRejectedRecordIsLeftOutTheSameWay() async throws {
        let (rows, objects, rowDump, objectDump) = try await importBothWays(badPrice: true)
        #expect(rowDump == objectDump)
        #expect(rows.errors.map(\.record) == [778])
        #expect(objects.errors.map(\.record) == [778])
        #expect(rows.errors.first?.field == "price")
        #expect(rows.entities["Item"]?.rejected == 1)
        #expect(!rowDump.contains { $0.contains("|I-0777|") })
        #expect(rowDump.contains { $0.contains("|I-0776|") })
    }
}
