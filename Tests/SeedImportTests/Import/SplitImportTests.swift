// `split:` on text fields of JSON and XML sources (not only CSV), and its pattern form for lists
// written as `<a><b>`: each key becomes a member, in the store the run creates and in one that
// holds data.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct SplitImportTests {
    static let tagsBySku = """
        SELECT i.sku, coalesce((SELECT group_concat(name, ' ') FROM (SELECT t.name FROM Item_tags j
          JOIN Tag t ON t.pk = j.dst WHERE j.src = i.pk ORDER BY t.name)), '-') FROM Item i ORDER BY i.sku
        """

    static func run(_ file: String, _ text: String, relationship: String) async throws -> (ImportFixture, ImportReport)
    {
        let fixture = try ImportFixture()
        try fixture.write(file, text)
        try fixture.write(
            "plan.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            sources:
              - file: \(file)
                entity: Item
                key: [sku]
                attributes: {sku: "\(file.hasSuffix(".xml") ? "@sku" : "sku")", name: "\(file.hasSuffix(".xml") ? "@name" : "name")"}
                relationships:
                  tags: \(relationship)
            """)
        return (fixture, try await fixture.run("plan.yaml"))
    }

    @Test func aJSONTextFieldIsSplitAtItsSeparator() async throws {
        let (fixture, report) = try await Self.run(
            "items.json",
            #"[{"sku": "A-1", "name": "Apples", "tags": "fruit,fresh"}, {"sku": "A-2", "name": "Pears", "tags": ["fruit", "green,ripe"]}, {"sku": "A-3", "name": "Nuts", "tags": ""}]"#,
            relationship: #"{field: tags, split: ",", match: name}"#)
        #expect(report.entities["Tag"]?.inserted == 4)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), Self.tagsBySku) == [
                "A-1|fresh fruit", "A-2|fruit green ripe", "A-3|-",
            ])
    }

    @Test func anXMLAttributeIsSplitByAPattern() async throws {
        let xml = """
            <items>
              <item sku="A-1" name="Apples" tags="&lt;fruit&gt;&lt;fresh&gt;"/>
              <item sku="A-2" name="Pears" tags="  &lt;fruit&gt; &lt;green&gt;&lt;&gt;"/>
              <item sku="A-3" name="Nuts" tags=""/>
            </items>
            """
        let (fixture, report) = try await Self.run(
            "items.xml", xml, relationship: #"{field: "@tags", split: {pattern: "<*>"}, match: name}"#)
        #expect(report.entities["Tag"]?.inserted == 3)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), Self.tagsBySku) == [
                "A-1|fresh fruit", "A-2|fruit green", "A-3|-",
            ])
        // Again into the store that now holds them: nothing changes.
        let again = try await fixture.run("plan.yaml")
        #expect(again.entities["Item"]?.unchanged == 3)
    }

    @Test func aPatternWithoutASuffixEndsEachKeyAtTheNextPrefix() async throws {
        let (fixture, _) = try await Self.run(
            "items.json", ##"[{"sku": "A-1", "name": "Apples", "tags": "#fruit #fresh"}]"##,
            relationship: ##"{field: tags, split: {pattern: "#*"}, match: name}"##)
        // The text up to the next prefix is the key, white space included ("fruit ").
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT name FROM Tag ORDER BY name") == [
                "fresh", "fruit ",
            ])
    }
}
