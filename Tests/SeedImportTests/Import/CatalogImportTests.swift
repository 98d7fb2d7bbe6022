// End-to-end imports of the sample catalog: the same data as CSV, JSON and XML gives the same
// store; a re-import changes nothing; updates touch only mapped attributes.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct CatalogImportTests {
    static let expected = [
        "A-001|Apples|2.49|120|1|1767603600.0|NULL|kg|A1|fresh,fruit",
        "A-002|Bananas|1.19|80|1|1767603900.0|Fair trade|kg|A1|fruit",
        "A-003|Milk, whole|0.99|40|0|1767684600.0|Keep \"cold\"|l|B4|dairy,fresh",
        "A-004|Crème fraîche|1.79|25|1|1767684900.0|Two\nlines|pack|B4|dairy",
        "A-005|Bread & butter|3.1|10|1|1767765600.0|NULL|pack|C2|NULL",
        "L-1|Weekly shop|A-003,A-001,A-005",
        "L-2|Breakfast|A-005,A-004",
    ]

    static func catalogFixture() throws -> ImportFixture {
        let fixture = try ImportFixture()
        for name in [
            "items.csv", "lists.csv", "catalog.json", "catalog.xml", "catalog-csv.yaml", "catalog-json.yaml",
            "catalog-xml.yaml",
        ] {
            try fixture.copy("SeedData/Catalog/\(name)", as: name)
        }
        return fixture
    }

    @Test(arguments: ["catalog-csv.yaml", "catalog-json.yaml", "catalog-xml.yaml"])
    func everyFormatGivesTheSameStore(plan: String) async throws {
        let fixture = try Self.catalogFixture()
        let report = try await fixture.run(plan)
        #expect(report.committed)
        #expect(report.entities["Item"]?.inserted == 5)
        #expect(report.entities["Unit"]?.inserted == 3)
        #expect(report.entities["Tag"]?.inserted == 3)
        #expect(report.entities["ShoppingList"]?.inserted == 2)
        #expect(report.errors.isEmpty)
        let store = fixture.path("Catalog.sqlite")
        #expect(try ImportFixture.catalogContents(store) == Self.expected)
        let metadata = try PersistentStore.metadata(at: store)
        #expect(metadata["seed.version"] == "2026.11")
        #expect(metadata["run.active"] == nil && metadata["import.checkpoint"] == nil)
    }

    @Test func reimportChangesNothing() async throws {
        let fixture = try Self.catalogFixture()
        _ = try await fixture.run("catalog-csv.yaml")
        let store = fixture.path("Catalog.sqlite")
        let versions = try ImportFixture.rows(store, "SELECT pk, opt FROM Item ORDER BY pk")
        let again = try await fixture.run("catalog-json.yaml")
        #expect(again.entities["Item"]?.unchanged == 5)
        #expect(again.entities["Item"]?.inserted == 0 && again.entities["Item"]?.updated == 0)
        #expect(again.entities["ShoppingList"]?.unchanged == 2)
        #expect(again.entities["Unit"] == nil)
        #expect(try ImportFixture.rows(store, "SELECT pk, opt FROM Item ORDER BY pk") == versions)
        #expect(try ImportFixture.catalogContents(store) == Self.expected)
    }

    @Test func updateChangesOnlyMappedAttributes() async throws {
        let fixture = try Self.catalogFixture()
        _ = try await fixture.run("catalog-csv.yaml")
        try fixture.write("prices.csv", "sku,price\nA-001,2.99\nA-002,1.19\n")
        try fixture.write(
            "prices.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: prices.csv
                entity: Item
                key: [sku]
                attributes: {sku: sku, price: price}
            """)
        let report = try await fixture.run("prices.yaml")
        #expect(report.entities["Item"]?.updated == 1)
        #expect(report.entities["Item"]?.unchanged == 1)
        let rows = try ImportFixture.rows(
            fixture.path("Catalog.sqlite"),
            "SELECT sku, name, price, quantity, opt FROM Item WHERE sku IN ('A-001', 'A-002') ORDER BY sku")
        #expect(rows == ["A-001|Apples|2.99|120|2", "A-002|Bananas|1.19|80|1"])
    }

    @Test func conflictPoliciesKeepAndFail() async throws {
        let fixture = try Self.catalogFixture()
        _ = try await fixture.run("catalog-csv.yaml")
        try fixture.write("names.csv", "sku,name\nA-001,Green apples\nA-009,Figs\n")
        for policy in ["keep", "fail"] {
            try fixture.write(
                "\(policy).yaml",
                """
                model: Catalog.yaml
                store: Catalog.sqlite
                sources:
                  - {file: names.csv, entity: Item, key: [sku], onConflict: \(policy), attributes: {sku: sku, name: name}}
                """)
        }
        let kept = try await fixture.run("keep.yaml")
        #expect(kept.entities["Item"]?.inserted == 1 && kept.entities["Item"]?.unchanged == 1)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT name FROM Item WHERE sku = 'A-001'") == [
                "Apples"
            ])
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("fail.yaml") }
        #expect(failure.reason.contains("names.csv:2:"))
        #expect(failure.reason.contains("Item with key A-001 already exists"))
        #expect(try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT count(*) FROM Item") == ["6"])
    }

    @Test func duplicatesInOneFileUpdateTheEarlierRecord() async throws {
        let fixture = try ImportFixture()
        try fixture.write("dupes.csv", "sku,name,quantity\nB-1,First,1\nB-2,Other,2\nB-1,Second,3\n")
        try fixture.write(
            "dupes.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            batchSize: 2
            sources:
              - {file: dupes.csv, entity: Item, key: [sku], attributes: {sku: sku, name: name, quantity: quantity}}
            """)
        let report = try await fixture.run("dupes.yaml")
        #expect(report.entities["Item"]?.inserted == 2)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT sku, name, quantity FROM Item ORDER BY sku")
                == ["B-1|Second|3", "B-2|Other|2"])
    }
}
