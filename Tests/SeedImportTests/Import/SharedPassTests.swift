// Sources over one file share one pass: the report counts one pass per file, and the store, the
// counts and the rejects (with their positions in the file) equal those of the same plan with
// each source reading its own copy of the file — for JSON sources with different record paths,
// XML sources with two element paths, and CSV sources; a cancelled shared pass leaves no spill.
import Foundation
import Testing

@testable import SeedImport

@Suite struct SharedPassTests {
    /// Every row of the catalog's tables, keys and versions included.
    static func tables(_ store: String) throws -> [String] {
        try ["Item", "Unit", "Location", "Tag", "ShoppingList", "Item_tags", "ShoppingList_items"].flatMap { table in
            try ImportFixture.rows(store, "SELECT '\(table)', * FROM \(table) ORDER BY 2, 3")
        }
    }

    /// `plan` (whose sources read `files[index]` as `FILE\(index)`) run once with every source
    /// over `shared`, and once with each over its own copy of it; returns both reports after
    /// checking that the stores are equal row for row.
    static func sharedAndSplit(_ plan: String, shared: String, sources: Int, fixture: ImportFixture) async throws
        -> (shared: ImportReport, split: ImportReport)
    {
        var sharedPlan = plan
        var splitPlan = plan.replacingOccurrences(of: "Catalog.sqlite", with: "Split.sqlite")
        for index in 0..<sources {
            let copy = "copy\(index)-" + shared
            try? FileManager.default.removeItem(atPath: fixture.path(copy))
            try FileManager.default.copyItem(atPath: fixture.path(shared), toPath: fixture.path(copy))
            sharedPlan = sharedPlan.replacingOccurrences(of: "FILE\(index)", with: shared)
            splitPlan = splitPlan.replacingOccurrences(of: "FILE\(index)", with: copy)
        }
        try fixture.write("shared.yaml", sharedPlan)
        try fixture.write("split.yaml", splitPlan)
        let sharedReport = try await fixture.run("shared.yaml")
        let splitReport = try await fixture.run("split.yaml")
        #expect(try tables(fixture.path("Catalog.sqlite")) == tables(fixture.path("Split.sqlite")))
        #expect(sharedReport.entities == splitReport.entities)
        #expect(sharedReport.sources.map(\.records) == splitReport.sources.map(\.records))
        #expect(sharedReport.sources.map(\.rejected) == splitReport.sources.map(\.rejected))
        #expect(sharedReport.files.map(\.passes) == [1])
        #expect(sharedReport.files.map(\.sources) == [sources])
        #expect(splitReport.files.map(\.passes) == Array(repeating: 1, count: sources))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder).filter {
            $0.contains("seedkit-pass")
        }
        #expect(leftovers == [])
        return (sharedReport, splitReport)
    }

    /// The positions of a report's errors, without file names.
    static func positions(_ report: ImportReport) -> [String] {
        report.errors.map { "\($0.line):\($0.column) byte \($0.byteOffset) record \($0.record): \($0.message)" }
    }

    @Test func threeJSONSourcesReadTheFileOnce() async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        // The lists come first: the pass spills the items, which precede them in the file.
        let plan = """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: FILE0
                records: "lists[*]"
                entity: ShoppingList
                key: [code]
                attributes: {code: code, title: title, created: {field: created, date: iso8601}}
                relationships:
                  items: {field: items, match: sku, missing: reject}
              - file: FILE1
                records: "items[*]"
                entity: Item
                key: [sku]
                attributes:
                  sku: sku
                  name: name
                  price: price
                  quantity: quantity
                  listed: listed
                  added: {field: added, date: iso8601}
                  notes: notes
                relationships:
                  unit: {field: unit, match: name, missing: create}
                  tags: {field: tags, match: name, missing: create}
              - file: FILE2
                records: "items[*]"
                entity: Location
                key: [aisle]
                attributes: {aisle: location}
            """
        let (shared, _) = try await Self.sharedAndSplit(plan, shared: "catalog.json", sources: 3, fixture: fixture)
        #expect(shared.files.first?.file == "catalog.json")
        #expect(
            shared.files.first?.bytes
                == (try FileManager.default.attributesOfItem(atPath: fixture.path("catalog.json"))[.size] as? Int))
        #expect(shared.sources.map(\.records) == [2, 5, 5])
        #expect(shared.entities["Location"]?.inserted == 3)
        #expect(shared.entities["ShoppingList"]?.inserted == 2)
        #expect(shared.entities["Item"]?.inserted == 5)
        #expect(shared.errors.isEmpty)
        // The lists, read first, link the items read after them, in their order.
        let contents = try ImportFixture.catalogContents(fixture.path("Catalog.sqlite"))
        #expect(Array(contents.suffix(2)) == Array(CatalogImportTests.expected.suffix(2)))
        #expect(shared.summary.contains("catalog.json: 1 pass for 3 sources"))
    }

    @Test func xmlSourcesWithTwoElementPathsReadTheFileOnce() async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        let plan = try String(contentsOfFile: fixture.path("catalog-xml.yaml"), encoding: .utf8)
            .replacingOccurrences(
                of: "file: catalog.xml\n    records: \"catalog/item\"",
                with: "file: FILE0\n    records: \"catalog/item\""
            )
            .replacingOccurrences(
                of: "file: catalog.xml\n    records: \"catalog/list\"",
                with: "file: FILE1\n    records: \"catalog/list\"")
        #expect(plan.contains("FILE0") && plan.contains("FILE1"))
        let (shared, _) = try await Self.sharedAndSplit(plan, shared: "catalog.xml", sources: 2, fixture: fixture)
        #expect(shared.sources.map(\.records) == [5, 2])
        #expect(try ImportFixture.catalogContents(fixture.path("Catalog.sqlite")) == CatalogImportTests.expected)
    }

    @Test func csvSourcesReadTheFileOnce() async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        let plan = """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: FILE0
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name, price: price, quantity: quantity}
                relationships:
                  unit: {field: unit, match: name, missing: create}
                  location: {field: location, match: aisle, missing: reject}
              - file: FILE1
                entity: Location
                key: [aisle]
                attributes: {aisle: location}
            """
        let (shared, _) = try await Self.sharedAndSplit(plan, shared: "items.csv", sources: 2, fixture: fixture)
        #expect(shared.sources.map(\.records) == [5, 5])
        #expect(shared.entities["Location"]?.inserted == 3)
        let links = try ImportFixture.rows(
            fixture.path("Catalog.sqlite"),
            "SELECT i.sku, l.aisle FROM Item i JOIN Location l ON l.pk = i.location ORDER BY i.sku")
        #expect(links == ["A-001|A1", "A-002|A1", "A-003|B4", "A-004|B4", "A-005|C2"])
    }

    @Test func rejectsOfALaterSourceKeepTheirPositionsInTheFile() async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        // A broken row (too few fields) and a bad number, read by both sources.
        try fixture.write(
            "rows.csv",
            "sku,name,price,unit\nB-1,Pen,1.5,pc\nB-2,Pad\nB-3,Ink,cheap,ml\nB-4,\"Two\nlines\",2,pc\n")
        let plan = """
            model: Catalog.yaml
            store: Catalog.sqlite
            onError: skip
            sources:
              - file: FILE0
                entity: Unit
                key: [name]
                attributes: {name: unit}
              - file: FILE1
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name, price: price}
            """
        let (shared, split) = try await Self.sharedAndSplit(plan, shared: "rows.csv", sources: 2, fixture: fixture)
        #expect(Self.positions(shared) == Self.positions(split))
        #expect(shared.errors.allSatisfy { $0.file == fixture.path("rows.csv") })
        // The broken row, for each source (found at its line end, byte 35 + 7), then the bad
        // price of the second (line 4 starts at byte 43, its price 8 bytes on).
        #expect(shared.errors.map(\.line) == [3, 3, 4])
        #expect(shared.errors.map(\.byteOffset) == [42, 42, 51])
        #expect(shared.errors.map(\.record) == [2, 2, 3])
        #expect(shared.errors.last?.field == "price")
        #expect(shared.sources.map(\.rejected) == [1, 2])
    }

    @Test func aRejectInALaterJSONSourceNamesItsPlaceInTheFile() async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        try fixture.write(
            "dump.json",
            """
            {"lists": [{"code": "L-1", "created": "yesterday"}],
             "units": [{"name": "kg"}, {"name": "l"}],
             "items": [{"sku": "A", "name": "Apple", "price": 1},
                       {"sku": "B", "name": "Bean", "price": "a lot"}]}
            """)
        let plan = """
            model: Catalog.yaml
            store: Catalog.sqlite
            onError: skip
            sources:
              - file: FILE0
                records: "units[*]"
                entity: Unit
                key: [name]
                attributes: {name: name}
              - file: FILE1
                records: "items[*]"
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name, price: price}
              - file: FILE2
                records: "lists[*]"
                entity: ShoppingList
                key: [code]
                attributes: {code: code, created: {field: created, date: iso8601}}
            """
        let (shared, split) = try await Self.sharedAndSplit(plan, shared: "dump.json", sources: 3, fixture: fixture)
        #expect(Self.positions(shared) == Self.positions(split))
        #expect(shared.errors.map(\.line) == [4, 1])
        #expect(shared.errors.map(\.record) == [2, 1])
        #expect(shared.errors.map(\.field) == ["price", "created"])
        #expect(shared.sources.map(\.rejected) == [0, 1, 1])
    }

    @Test func cancellingASharedPassLeavesNoStoreAndNoSpill() async throws {
        let fixture = try ImportFixture()
        var items = "sku,name,unit\n"
        for number in 0..<30_000 { items += "S-\(number),Item \(number),u\(number % 5)\n" }
        try fixture.write("items.csv", items)
        try fixture.write(
            "plan.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            batchSize: 20
            sources:
              - file: items.csv
                entity: Unit
                key: [name]
                attributes: {name: unit}
              - file: items.csv
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name}
            """)
        let (result, committed) = try await ImportCancellationTests.cancelMidRun(planFile: fixture.path("plan.yaml"))
        #expect(committed >= 20)
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.folder).sorted() == [
                "Catalog.yaml", "items.csv", "plan.yaml",
            ])
    }
}
