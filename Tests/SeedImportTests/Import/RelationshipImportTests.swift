// References resolved after all records (forward and self references), unresolved references
// with reject, members replace, and nested records.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct RelationshipImportTests {
    static let orgModel = """
        name: Org
        entities:
          Person:
            attributes: {name: {type: string, optional: false}}
            relationships:
              manager: {destination: Person, inverse: reports}
              reports: {destination: Person, inverse: manager, toMany: true}
            unique: [[name]]
        """

    static func orgFixture(_ people: String) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("Org.yaml", orgModel)
        try fixture.write("people.csv", people)
        try fixture.write(
            "org.yaml",
            """
            model: Org.yaml
            store: Org.sqlite
            batchSize: 2
            sources:
              - file: people.csv
                entity: Person
                key: [name]
                attributes: {name: name}
                relationships:
                  manager: {field: manager, match: name, missing: reject}
            """)
        return fixture
    }

    @Test func forwardAndSelfReferencesResolveAfterAllRecords() async throws {
        let fixture = try Self.orgFixture("name,manager\nAda,Grace\nBob,Ada\nGrace,Grace\nDan,\n")
        let report = try await fixture.run("org.yaml")
        #expect(report.entities["Person"]?.inserted == 4)
        let rows = try ImportFixture.rows(
            fixture.path("Org.sqlite"),
            "SELECT p.name, coalesce(m.name, '-') FROM Person p LEFT JOIN Person m ON m.pk = p.manager ORDER BY p.name")
        #expect(rows == ["Ada|Grace", "Bob|Ada", "Dan|-", "Grace|Grace"])
    }

    @Test func unresolvedReferenceWithRejectFails() async throws {
        let fixture = try Self.orgFixture("name,manager\nAda,Nobody\nBob,Ada\n")
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("org.yaml") }
        #expect(failure.reason.contains("people.csv:2:"))
        #expect(failure.reason.contains("Nobody"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Org.sqlite")))
    }

    @Test(arguments: [false, true])
    func aReferenceRejectedWithSkipLeavesItsRecordOutWhole(dryRun: Bool) async throws {
        let fixture = try Self.orgFixture("name,manager\nAda,Nobody\nBob,Ada\nCy,Bob\n")
        let plan = try String(contentsOfFile: fixture.path("org.yaml"), encoding: .utf8)
        try fixture.write(
            "org.yaml", plan.replacingOccurrences(of: "batchSize: 2", with: "batchSize: 2\nonError: skip"))
        var options = ImportOptions()
        options.dryRun = dryRun
        let report = try await fixture.run("org.yaml", options: options)
        #expect(report.errors.map(\.field) == ["manager"])
        #expect(report.errors.first?.line == 2)
        #expect(report.entities["Person"]?.rejected == 1)
        #expect(report.entities["Person"]?.inserted == 2)
        guard !dryRun else { return }
        // Ada is left out; Bob's manager was Ada, so Bob keeps none (as if Ada had never come).
        let rows = try ImportFixture.rows(
            fixture.path("Org.sqlite"),
            "SELECT p.name, coalesce(m.name, '-') FROM Person p LEFT JOIN Person m ON m.pk = p.manager ORDER BY p.name")
        #expect(rows == ["Bob|-", "Cy|Bob"])
    }

    @Test func nestedRecordsBecomeObjectsWithTheirOwnKeys() async throws {
        let fixture = try ImportFixture()
        for name in ["QuakesModel.yaml", "feed.json", "quakes.yaml"] {
            try fixture.copy("SeedData/Quakes/\(name)", as: name)
        }
        let report = try await fixture.run("quakes.yaml")
        #expect(report.entities["Quake"]?.inserted == 4)
        #expect(report.entities["Network"]?.inserted == 3)
        let rows = try ImportFixture.rows(
            fixture.path("Quakes.sqlite"),
            "SELECT q.code, q.magnitude, q.time, q.depth, n.code FROM Quake q JOIN Network n ON n.pk = q.network ORDER BY q.code"
        )
        #expect(rows.first == "ak0003|4.6|1767942000.0|35.0|ak")
        #expect(rows.contains("nc73002|2.1|1767945600.123|1.9|nc"))
        let again = try await fixture.run("quakes.yaml")
        #expect(again.entities["Quake"]?.unchanged == 4 && again.entities["Network"]?.unchanged == 3)
    }

    @Test func membersReplaceMakesTheRelationshipExact() async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        _ = try await fixture.run("catalog-csv.yaml")
        try fixture.write("tags.csv", "sku,tags\nA-001,red\n")
        try fixture.write(
            "tags.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: tags.csv
                entity: Item
                key: [sku]
                attributes: {sku: sku}
                relationships:
                  tags: {field: tags, split: ";", match: name, missing: create, members: replace}
            """)
        let report = try await fixture.run("tags.yaml")
        #expect(report.entities["Item"]?.updated == 1)
        let tags = try ImportFixture.rows(
            fixture.path("Catalog.sqlite"),
            "SELECT t.name FROM Item_tags j JOIN Tag t ON t.pk = j.dst JOIN Item i ON i.pk = j.src WHERE i.sku = 'A-001'"
        )
        #expect(tags == ["red"])
    }

    @Test func groceryDudeDefaultDataFindsOrCreates() async throws {
        let fixture = try ImportFixture()
        try FileManager.default.copyItem(
            atPath: ImportFixture.repository.appendingPathComponent("SeedData/GroceryDude/GroceryDude.xcdatamodeld")
                .path,
            toPath: fixture.path("GroceryDude.xcdatamodeld"))
        try fixture.copy("SeedData/GroceryDude/DefaultData.xml", as: "DefaultData.xml")
        try fixture.copy("SeedData/GroceryDude/GroceryDude.yaml", as: "GroceryDude.yaml")
        let report = try await fixture.run("GroceryDude.yaml")
        #expect(report.entities["Item"]?.inserted == 14)
        #expect(report.entities["Unit"]?.inserted == 8)
        #expect(report.entities["LocationAtHome"]?.inserted == 5)
        #expect(report.entities["LocationAtShop"]?.inserted == 7)
        let milk = try ImportFixture.rows(
            fixture.path("GroceryDude.sqlite"),
            """
            SELECT i.quantity, i.listed, u.name, h.storedIn, s.aisle FROM Item i JOIN Unit u ON u.pk = i.unit
            JOIN Location h ON h.pk = i.locationAtHome JOIN Location s ON s.pk = i.locationAtShop WHERE i.name = 'Milk'
            """)
        #expect(milk == ["1.0|1|l|Fridge|Dairy"])
        let again = try await fixture.run("GroceryDude.yaml")
        #expect(again.entities["Item"]?.unchanged == 14)
        #expect(try ImportFixture.rows(fixture.path("GroceryDude.sqlite"), "SELECT count(*) FROM Item") == ["14"])
    }
}
