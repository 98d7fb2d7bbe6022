// Tests for reading plan files: every key in YAML and in JSON, the defaults, the short forms,
// YAML's spellings of numbers and Booleans, and positions for every element.
import Foundation
import RecordReaders
import Testing

@testable import SeedImport

@Suite("Plan files: parsing")
struct PlanFileParsingTests {
    /// The plan of docs/PlanFormat.md, as `catalog.yaml` and `catalog.plan.json` (tab-indented) both give it.
    private func expectDesignExample(_ plan: ImportPlan) throws {
        #expect(plan.model == "Catalog.xcdatamodeld")
        #expect(plan.store == "Catalog.sqlite")
        #expect(plan.seedVersion == "2026.11")
        #expect(plan.batchSize == 5000)
        #expect(plan.onError == .skip)
        #expect(plan.maxErrors == 100)
        #expect(plan.rejects == "rejects.jsonl")
        #expect(plan.baseDirectory == planFixtures)
        try #require(plan.sources.count == 2)

        let items = plan.sources[0]
        #expect(items.file == "items.csv" && items.format == .csv && items.records == nil)
        #expect(items.csv == CSVPlanOptions(delimiter: ",", quote: "\"", header: true))
        #expect(items.entity == "Item" && items.mapping.entity == "Item")
        #expect(items.key == ["sku"] && items.mapping.onConflict == .update)
        let attributes = try #require(items.attributes)
        #expect(attributes.count == 8)
        #expect(attributes["sku"] == AttributeMapping(field: "sku"))
        var listed = AttributeMapping(field: "listed")
        listed.trueWords = ["true", "yes", "1"]
        listed.falseWords = ["false", "no", "0"]
        #expect(attributes["listed"] == listed)
        #expect(attributes["added"]?.dateFormat == "iso8601")
        #expect(attributes["notes"]?.nullTokens == [""])
        #expect(attributes["source"] == .constant("catalog"))
        #expect(items.relationships["unit"] == RelationshipMapping(field: "unit", match: ["name"], missing: .create))
        #expect(items.relationships["location"] == RelationshipMapping(field: "location", match: ["aisle"]))
        #expect(items.relationships["tags"] == RelationshipMapping(field: "tags", match: ["name"], split: ";"))

        let lists = plan.sources[1]
        #expect(lists.file == "lists.csv" && lists.format == nil && lists.csv == nil)
        #expect(lists.entity == "ShoppingList" && lists.key == ["code"])
        #expect(lists.attributes?["created"]?.dateFormat == "iso8601")
        #expect(
            lists.relationships["items"]
                == RelationshipMapping(field: "items", match: ["sku"], missing: .reject, split: ";"))
    }

    @Test func readsTheDesignExampleInYAML() throws {
        let file = try PlanFile.load(from: planFixture("catalog.yaml"))
        try expectDesignExample(file.plan)
        #expect(file.validate(model: catalogModel).isEmpty)
    }

    @Test func readsTheDesignExampleInTabIndentedJSON() throws {
        let file = try PlanFile.load(from: planFixture("catalog.plan.json"))
        try expectDesignExample(file.plan)
        #expect(file.positions.file == planFixture("catalog.plan.json"))
        #expect(file.positions.value(at: "sources[1].relationships.items.match") == PlanPosition(line: 39, column: 56))
        #expect(file.validate(model: catalogModel).isEmpty)
    }

    @Test func bothFormsGiveEqualPlans() throws {
        #expect(
            try ImportPlan.load(from: planFixture("catalog.yaml"))
                == ImportPlan.load(from: planFixture("catalog.plan.json")))
    }

    // MARK: - Every key

    private static let everyKeyYAML = """
        model: Model.json
        store: out/Store.sqlite
        seed: {version: 2026.10}
        batchSize: 250
        onError: skip
        maxErrors: 3
        rejects: rejects.jsonl
        sources:
          - file: data.tsv
            format: tsv
            csv: {delimiter: "|", quote: "", header: no, allowRagged: on}
            entity: Item
            key: [sku, name]
            onConflict: keep
            attributes:
              sku: "#1"
              name: {field: "#2", trim: true, default: "?"}
              photo: {field: "#3", binary: hex}
              listed: {field: "#4", true: Y, false: [N, "-"], null: [~, NULL]}
              added: {field: "#5", date: "dd/MM/yyyy HH:mm"}
              source: {value: tsv}
            relationships:
              tags: {field: "#6", split: "|", match: name, missing: ignore, members: replace}
          - file: catalog.json
            records: "items[*]"
            entity: Item
            key: sku
            onConflict: fail
            relationships:
              location:
                field: location
                nested:
                  entity: Location
                  key: aisle
                  onConflict: keep
                  attributes: {aisle: aisle}
                  relationships:
                    items: {field: items, match: [sku, name], missing: reject}
        """

    private static let everyKeyJSON = """
        {"model": "Model.json", "store": "out/Store.sqlite", "seed": {"version": "2026.10"},
         "batchSize": 250, "onError": "skip", "maxErrors": 3, "rejects": "rejects.jsonl",
         "sources": [
          {"file": "data.tsv", "format": "tsv",
           "csv": {"delimiter": "|", "quote": "", "header": false, "allowRagged": true},
           "entity": "Item", "key": ["sku", "name"], "onConflict": "keep",
           "attributes": {
             "sku": "#1",
             "name": {"field": "#2", "trim": true, "default": "?"},
             "photo": {"field": "#3", "binary": "hex"},
             "listed": {"field": "#4", "true": "Y", "false": ["N", "-"], "null": ["~", "NULL"]},
             "added": {"field": "#5", "date": "dd/MM/yyyy HH:mm"},
             "source": {"value": "tsv"}},
           "relationships": {
             "tags": {"field": "#6", "split": "|", "match": "name", "missing": "ignore", "members": "replace"}}},
          {"file": "catalog.json", "records": "items[*]", "entity": "Item", "key": "sku", "onConflict": "fail",
           "relationships": {"location": {"field": "location", "nested": {
             "entity": "Location", "key": "aisle", "onConflict": "keep", "attributes": {"aisle": "aisle"},
             "relationships": {"items": {"field": "items", "match": ["sku", "name"], "missing": "reject"}}}}}}
         ]}
        """

    /// The plan both texts above describe, built in Swift.
    private static var everyKeyPlan: ImportPlan {
        var tsv = SourcePlan(file: "data.tsv", format: .tsv, entity: "Item", key: ["sku", "name"], onConflict: .keep)
        tsv.csv = CSVPlanOptions(delimiter: "|", quote: "", header: false, allowRagged: true)
        var name = AttributeMapping(field: "#2")
        name.trim = true
        name.defaultValue = "?"
        var photo = AttributeMapping(field: "#3")
        photo.binaryEncoding = "hex"
        var listed = AttributeMapping(field: "#4")
        listed.trueWords = ["Y"]
        listed.falseWords = ["N", "-"]
        listed.nullTokens = ["~", "NULL"]
        var added = AttributeMapping(field: "#5")
        added.dateFormat = "dd/MM/yyyy HH:mm"
        tsv.attributes = [
            "sku": AttributeMapping(field: "#1"), "name": name, "photo": photo, "listed": listed, "added": added,
            "source": .constant("tsv"),
        ]
        tsv.relationships = [
            "tags": RelationshipMapping(field: "#6", match: ["name"], missing: .ignore, split: "|", members: .replace)
        ]

        var json = SourcePlan(file: "catalog.json", entity: "Item", key: ["sku"], onConflict: .fail)
        json.records = "items[*]"
        let location = RecordMapping(
            entity: "Location", key: ["aisle"], onConflict: .keep,
            attributes: ["aisle": AttributeMapping(field: "aisle")],
            relationships: ["items": RelationshipMapping(field: "items", match: ["sku", "name"], missing: .reject)])
        json.relationships = ["location": RelationshipMapping(field: "location", nested: NestedMapping(location))]

        return ImportPlan(
            model: "Model.json", store: "out/Store.sqlite", seedVersion: "2026.10", batchSize: 250, onError: .skip,
            maxErrors: 3, rejects: "rejects.jsonl", sources: [tsv, json], baseDirectory: planFixtures)
    }

    @Test(arguments: [PlanSyntax.yaml, .json])
    func readsEveryKey(syntax: PlanSyntax) throws {
        let text = syntax == .yaml ? Self.everyKeyYAML : Self.everyKeyJSON
        let plan = try parsePlan(text, syntax: syntax).plan
        #expect(plan == Self.everyKeyPlan)
    }

    // MARK: - Defaults and short forms

    @Test func leavesOutKeysAtTheirDefaults() throws {
        let plan = try parsePlan("sources: [{file: items.csv, entity: Item}]").plan
        #expect(
            plan == ImportPlan(sources: [SourcePlan(file: "items.csv", entity: "Item")], baseDirectory: planFixtures))
        #expect(plan.batchSize == 5000 && plan.onError == .abort && plan.maxErrors == 100)
        #expect(plan.model == nil && plan.store == nil && plan.seedVersion == nil && plan.rejects == nil)
        let source = plan.sources[0]
        #expect(source.format == nil && source.csv == nil && source.records == nil)
        #expect(source.key == nil && source.mapping.onConflict == .update)
        #expect(source.attributes == nil && source.relationships.isEmpty)
    }

    @Test func treatsNullValuesAsLeftOut() throws {
        let plan = try parsePlan(
            """
            model: ~
            batchSize:
            onError: null
            sources:
              - {file: items.csv, entity: Item, key: ~, attributes: ~, relationships: ~, csv: ~}
            """
        ).plan
        #expect(
            plan == ImportPlan(sources: [SourcePlan(file: "items.csv", entity: "Item")], baseDirectory: planFixtures))
    }

    @Test func acceptsTheShortForms() throws {
        let source = try parsePlan(
            """
            sources:
              - file: items.csv
                entity: Item
                key: sku
                attributes:
                  sku:
                  name: title
                  notes: {null: "", trim: yes}
                relationships:
                  unit:
                  location: aisle_code
                  tags: {match: name}
            """
        ).plan.sources[0]
        #expect(source.key == ["sku"])
        var notes = AttributeMapping()
        notes.nullTokens = [""]
        notes.trim = true
        #expect(
            source.attributes == ["sku": AttributeMapping(), "name": AttributeMapping(field: "title"), "notes": notes])
        #expect(
            source.relationships == [
                // Without field: the conventional field (mappedKeyName, else the name), at compile time.
                "unit": RelationshipMapping(), "location": RelationshipMapping(field: "aisle_code"),
                "tags": RelationshipMapping(match: ["name"]),
            ])
    }

    @Test func readsEntityFieldOnSourcesAndNestedMappings() throws {
        let source = try parsePlan(
            """
            sources:
              - file: catalog.json
                entity: Shelf
                entityField: kind
                key: label
                relationships:
                  items: {field: items, nested: {entity: Item, entityField: "type.name", key: sku}}
            """
        ).plan.sources[0]
        #expect(source.entityField == "kind" && source.mapping.entityField == "kind")
        #expect(source.relationships["items"]?.nested?.mapping.entityField == "type.name")
        #expect(source.relationships["items"]?.nested?.mapping.key == ["sku"])
        #expect(try parsePlan("sources: [{file: items.csv, entity: Item}]").plan.sources[0].entityField == nil)
    }

    @Test func emptyAttributesMapNothing() throws {
        let source = try parsePlan("sources: [{file: items.csv, entity: Item, attributes: {}}]").plan.sources[0]
        #expect(source.attributes == [:])
    }

    @Test func acceptsYAMLSpellingsOfNumbersAndBooleans() throws {
        let plan = try parsePlan(
            """
            batchSize: 10_000
            maxErrors: 0x10
            sources:
              - {file: a.csv, entity: Item, csv: {header: No, allowRagged: ON}}
              - {file: b.csv, entity: Item, csv: {header: TRUE, allowRagged: off}}
            """
        ).plan
        #expect(plan.batchSize == 10_000 && plan.maxErrors == 16)
        #expect(plan.sources.map { $0.csv?.header } == [false, true])
        #expect(plan.sources.map { $0.csv?.allowRagged } == [true, false])
    }

    @Test func keepsTextsAsWritten() throws {
        let plan = try parsePlan(
            """
            seed: {version: 1.10}
            sources: [{file: items.csv, entity: Item, attributes: {quantity: {value: 007}, listed: {true: [yes, on, 1]}}}]
            """
        ).plan
        #expect(plan.seedVersion == "1.10")
        #expect(plan.sources[0].attributes?["quantity"]?.value == "007")
        #expect(plan.sources[0].attributes?["listed"]?.trueWords == ["yes", "on", "1"])
    }

    @Test func followsAnchorsAndAliases() throws {
        let plan = try parsePlan(
            """
            sources:
              - {file: a.csv, entity: Item, csv: &semicolons {delimiter: ";"}}
              - {file: b.csv, entity: Item, csv: *semicolons}
            """
        ).plan
        #expect(plan.sources.map(\.csv) == [CSVPlanOptions(delimiter: ";"), CSVPlanOptions(delimiter: ";")])
    }

    // MARK: - Files, syntax and positions

    @Test func picksTheSyntaxFromTheExtension() {
        #expect(PlanSyntax(path: "plan.json") == .json)
        #expect(PlanSyntax(path: "Plan.JSON") == .json)
        #expect(PlanSyntax(path: "plan.yaml") == .yaml)
        #expect(PlanSyntax(path: "plan.yml") == .yaml)
        #expect(PlanSyntax(path: "plan") == .yaml)
    }

    @Test func resolvesPathsFromThePlanFilesFolder() throws {
        #expect(PlanFile.folder(of: "plan.yaml") == ".")
        #expect(PlanFile.folder(of: "seeds/plan.yaml") == "seeds")
        #expect(PlanFile.folder(of: "/plan.yaml") == "/")
        let plan = try ImportPlan.load(from: planFixture("catalog.yaml"))
        #expect(plan.resolve(plan.sources[0].file) == planFixture("items.csv"))
        #expect(plan.resolve("/abs/items.csv") == "/abs/items.csv")
    }

    @Test func recordsKeyAndValuePositions() throws {
        let positions = try parsePlan(
            """
            batchSize: 10
            sources:
              - file: items.csv
                entity: Item
                key: [sku, name]
                attributes:
                  price: {field: cost}
            """
        ).positions
        #expect(positions.file == "plan.yaml")
        #expect(positions.value(at: "") == PlanPosition(line: 1, column: 1))
        #expect(positions.key(at: "batchSize") == PlanPosition(line: 1, column: 1))
        #expect(positions.value(at: "batchSize") == PlanPosition(line: 1, column: 12))
        #expect(positions.value(at: "sources[0]") == PlanPosition(line: 3, column: 5))
        #expect(positions.key(at: "sources[0]") == nil)
        #expect(positions.value(at: "sources[0].entity") == PlanPosition(line: 4, column: 13))
        #expect(positions.value(at: "sources[0].key[1]") == PlanPosition(line: 5, column: 16))
        #expect(positions.key(at: "sources[0].attributes.price") == PlanPosition(line: 7, column: 7))
        #expect(positions.value(at: "sources[0].attributes.price.field") == PlanPosition(line: 7, column: 22))
        #expect(positions.contains("sources[0].attributes.price"))
        #expect(!positions.contains("sources[0].relationships"))
        // Elements the file did not give are placed at their closest written owner.
        #expect(positions.nearest(to: "sources[0].attributes.price.date") == PlanPosition(line: 7, column: 14))
        #expect(
            positions.nearest(to: "sources[0].attributes.price", preferKey: true) == PlanPosition(line: 7, column: 7))
        #expect(positions.nearest(to: "sources[0].relationships.unit.match[0]") == PlanPosition(line: 3, column: 5))
        #expect(positions.nearest(to: "onError") == PlanPosition(line: 1, column: 1))
        #expect(PlanPositions().nearest(to: "sources[0].file") == nil)
    }
}
