// Null tokens on relationship mappings (`null: ["NULL", ""]`): a field, or a split part, holding
// one is no reference — the link stays unset, `missing: reject` finds nothing to reject and
// `missing: create` creates nothing — in a store the run creates and in one that holds data,
// from CSV and from JSON.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct NullReferenceTests {
    static let managers =
        "SELECT p.name, coalesce(m.name, '-') FROM Person p LEFT JOIN Person m ON m.pk = p.manager ORDER BY p.name"

    static func orgFixture(_ people: String, null: String) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("Org.yaml", RelationshipImportTests.orgModel)
        try fixture.write("people.csv", people)
        try fixture.write(
            "org.yaml",
            """
            model: Org.yaml
            store: Org.sqlite
            sources:
              - file: people.csv
                entity: Person
                key: [name]
                attributes: {name: name}
                relationships:
                  manager: {field: manager, match: name, missing: reject\(null)}
            """)
        return fixture
    }

    @Test func aNullTokenIsNoReferenceEvenWithReject() async throws {
        let fixture = try Self.orgFixture(
            "name,manager\nAda,NULL\nBob,Ada\nCy,\nDan,\"\"\n", null: #", null: ["NULL", ""]"#)
        let report = try await fixture.run("org.yaml")
        #expect(report.errors.isEmpty)
        #expect(report.entities["Person"]?.inserted == 4)
        #expect(
            try ImportFixture.rows(fixture.path("Org.sqlite"), Self.managers) == ["Ada|-", "Bob|Ada", "Cy|-", "Dan|-"])
    }

    @Test func withoutTheTokenNullIsAKeyThatIsMissing() async throws {
        let fixture = try Self.orgFixture("name,manager\nAda,NULL\nBob,Ada\n", null: "")
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("org.yaml") }
        #expect(failure.reason.contains("people.csv:2:"))
        #expect(failure.reason.contains("NULL"))
    }

    @Test func aNullTokenUnsetsNothingInAStoreThatHoldsData() async throws {
        let fixture = try Self.orgFixture("name,manager\nAda,NULL\nBob,Ada\n", null: #", null: [NULL]"#)
        _ = try await fixture.run("org.yaml")
        try fixture.write("people.csv", "name,manager\nCy,NULL\nDan,Bob\nBob,Ada\n")
        let report = try await fixture.run("org.yaml")
        #expect(report.errors.isEmpty)
        #expect(report.entities["Person"]?.inserted == 2)
        #expect(report.entities["Person"]?.unchanged == 1)
        #expect(
            try ImportFixture.rows(fixture.path("Org.sqlite"), Self.managers) == [
                "Ada|-", "Bob|Ada", "Cy|-", "Dan|Bob",
            ])
    }

    @Test func nullPartsOfASplitFieldCreateNoDestination() async throws {
        let fixture = try ImportFixture()
        try fixture.write("items.csv", "sku,name,tags\nA-1,Apples,fruit;NULL\nA-2,Pears,NULL\n")
        try fixture.write(
            "plan.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: items.csv
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name}
                relationships:
                  tags: {field: tags, split: ";", match: name, missing: create, null: [NULL]}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Tag"]?.inserted == 1)
        #expect(
            try ImportFixture.rows(
                fixture.path("Catalog.sqlite"),
                """
                SELECT i.sku, coalesce(group_concat(t.name), '-') FROM Item i LEFT JOIN Item_tags j ON j.src = i.pk
                LEFT JOIN Tag t ON t.pk = j.dst GROUP BY i.sku ORDER BY i.sku
                """) == ["A-1|fruit", "A-2|-"])
    }

    @Test func aJSONTextNullTokenIsNoReference() async throws {
        let fixture = try ImportFixture()
        try fixture.write(
            "items.json",
            #"[{"sku": "A-1", "name": "Apples", "unit": "kg"}, {"sku": "A-2", "name": "Pears", "unit": "NULL"}]"#)
        try fixture.write(
            "plan.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: items.json
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name}
                relationships:
                  unit: {field: unit, match: name, missing: create, null: [NULL, "-"]}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Unit"]?.inserted == 1)
        #expect(
            try ImportFixture.rows(
                fixture.path("Catalog.sqlite"),
                "SELECT i.sku, coalesce(u.name, '-') FROM Item i LEFT JOIN Unit u ON u.pk = i.unit ORDER BY i.sku")
                == ["A-1|kg", "A-2|-"])
    }
}
