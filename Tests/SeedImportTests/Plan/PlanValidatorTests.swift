// Tests for PlanValidator: every kind of problem, with the exact line:column and key path it is
// reported at, against the catalog model of PlanTestSupport.swift and the fixture files.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite("Plan validation")
struct PlanValidatorTests {
    // MARK: - The run

    @Test func checksRunWideSettings() throws {
        let abortNote =
            "has no effect with onError: abort (it applies when bad records are skipped: onError: skip, or --on-error skip)"
        #expect(
            try validationProblems(
                """
                batchSize: 0
                maxErrors: -1
                rejects: rejects.jsonl
                sources: []
                """
            ) == [
                "plan.yaml:1:12 (batchSize): batchSize must be at least 1, not 0",
                "plan.yaml:2:12 (maxErrors): maxErrors must not be negative, not -1",
                "plan.yaml:2:12 (maxErrors): warning: maxErrors \(abortNote)",
                "plan.yaml:3:10 (rejects): warning: rejects \(abortNote)",
                "plan.yaml:4:10 (sources): warning: the plan has no sources: it imports nothing",
            ])
    }

    @Test func acceptsRejectsWithSkip() throws {
        #expect(
            try validationProblems(
                """
                onError: skip
                maxErrors: 0
                rejects: rejects.jsonl
                sources: [{file: items.csv, entity: Item}]
                """
            ).isEmpty)
    }

    // MARK: - Entities

    @Test func checksEntities() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Itme
                  - file: items.csv
                    entity: Shelf
                """
            ) == [
                "plan.yaml:3:13 (sources[0].entity): unknown entity 'Itme'; did you mean 'Item'?",
                "plan.yaml:5:13 (sources[1].entity): entity Shelf is abstract: name one of its concrete sub-entities (TopShelf), or give entityField: a field naming each record's",
            ])
    }

    @Test func anEntityFieldRoutesRecordsToSubEntities() throws {
        let problems = try validationProblems(
            """
            sources:
              - file: items.csv
                entity: Shelf
                entityField: kind
                attributes: {label: label, height: h, depth: d, items: i}
                relationships: {items: {field: items, split: ";", match: sku, missing: reject}, heigth: x}
              - file: items.csv
                entity: Shelf
                entityField: "kind["
              - file: catalog.json
                entity: Item
                relationships:
                  shelf: {field: shelf, nested: {entity: Shelf, entityField: type, attributes: {height: h}}}
            """
        )
        #expect(
            problems == [
                "plan.yaml:5:43 (sources[0].attributes.depth): 'depth' is not an attribute of Shelf or its sub-entities",
                "plan.yaml:5:53 (sources[0].attributes.items): 'items' is a relationship of Shelf: map it under relationships",
                "plan.yaml:6:85 (sources[0].relationships.heigth): 'heigth' is not a relationship of Shelf or its sub-entities",
                "plan.yaml:9:18 (sources[1].entityField): field 'kind[' is not a valid path: expected an index or '*' (at character 6)",
            ], "\(problems)")
    }

    @Test func theRunIdentityIsAKeyAndAMatchOfItsOwn() throws {
        let problems = try validationProblems(
            """
            sources:
              - file: items.csv
                entity: Item
                key: object-id
                attributes: {name: name}
                relationships: {unit: {field: unit, match: object-id}, location: {field: l, match: [object-id, aisle]}}
              - file: items.csv
                entity: Item
                key: [sku, object-id]
            """
        )
        #expect(
            problems == [
                "plan.yaml:6:89 (sources[0].relationships.location.match[0]): 'object-id' is a match of its own: give match: object-id without attributes",
                "plan.yaml:9:16 (sources[1].key[1]): 'object-id' is a key of its own: give key: [object-id] without attributes",
            ], "\(problems)")
    }

    // MARK: - Keys

    @Test func checksKeys() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    key: [tags, sku, skew, scratch, photo, extra, sku]
                  - file: items.csv
                    entity: Item
                    key: name
                    attributes: {sku: sku}
                  - file: items.csv
                    entity: Item
                    key: []
                """
            ) == [
                "plan.yaml:4:11 (sources[0].key[0]): 'tags' is a to-many relationship: a key names attributes and to-one relationships",
                "plan.yaml:4:22 (sources[0].key[2]): 'skew' is not an attribute of Item",
                "plan.yaml:4:28 (sources[0].key[3]): 'scratch' is transient, so it is not unique-able: it cannot be part of a key",
                "plan.yaml:4:37 (sources[0].key[4]): 'photo' is a binary attribute, so it is not unique-able: it cannot be part of a key",
                "plan.yaml:4:44 (sources[0].key[5]): 'extra' is a transformable attribute, so it is not unique-able: it cannot be part of a key",
                "plan.yaml:4:51 (sources[0].key[6]): 'sku' appears twice in key",
                "plan.yaml:7:10 (sources[1].key): key attribute 'name' is not mapped: add it to attributes",
                "plan.yaml:11:10 (sources[2].key): key is empty: name one or more attributes, or leave key out to always insert",
            ])
    }

    // MARK: - Attributes

    @Test func checksAttributeNames() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    attributes:
                      prise: price
                      unit: unit
                      scratch: scratch
                    relationships:
                      sku: {field: sku}
                      tagz: {field: tags}
                """
            ) == [
                "plan.yaml:5:7 (sources[0].attributes.prise): 'prise' is not an attribute of Item; did you mean 'price'?",
                "plan.yaml:6:7 (sources[0].attributes.unit): 'unit' is a relationship of Item: map it under relationships",
                "plan.yaml:7:7 (sources[0].attributes.scratch): 'scratch' is transient: it is never stored, so it cannot be imported",
                "plan.yaml:9:7 (sources[0].relationships.sku): 'sku' is an attribute of Item: map it under attributes",
                "plan.yaml:10:7 (sources[0].relationships.tagz): 'tagz' is not a relationship of Item; did you mean 'tags'?",
            ])
    }

    @Test func checksAttributeOptionsAgainstTheType() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    attributes:
                      sku: {field: sku, value: X}
                      name: {value: "n", default: "d"}
                      price: {field: price, date: iso8601, binary: base64}
                      added: {field: added, date: " "}
                      notes: {field: notes, true: [y]}
                      source: {field: source, false: [n]}
                      listed: {field: listed, true: [y, "1"], false: [n, "1"]}
                      photo: {field: photo, binary: base32}
                      quantity: {field: quantity, trim: true, null: [""], default: "0"}
                      extra: {field: extra, binary: hex}
                """
            ) == [
                "plan.yaml:5:32 (sources[0].attributes.sku.value): give field or value, not both",
                "plan.yaml:6:35 (sources[0].attributes.name.default): default has no effect with value (a constant is never missing)",
                "plan.yaml:7:35 (sources[0].attributes.price.date): date applies to date attributes; 'price' is double",
                "plan.yaml:7:52 (sources[0].attributes.price.binary): binary applies to binary and transformable attributes; 'price' is double",
                "plan.yaml:8:35 (sources[0].attributes.added.date): date must be iso8601, epoch, epoch-ms or a pattern like \"dd/MM/yyyy HH:mm\"",
                "plan.yaml:9:35 (sources[0].attributes.notes.true): true applies to boolean attributes; 'notes' is string",
                "plan.yaml:10:38 (sources[0].attributes.source.false): false applies to boolean attributes; 'source' is string",
                "plan.yaml:11:54 (sources[0].attributes.listed.false): '1' cannot mean both true and false",
                "plan.yaml:12:37 (sources[0].attributes.photo.binary): binary must be base64 or hex, not 'base32'; did you mean 'base64'?",
            ])
    }

    // MARK: - Field and records paths

    @Test func checksFieldPathsForTheFormat() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: catalog.json
                    entity: Item
                    attributes:
                      sku: "#1"
                      name: "tags["
                      notes: "location.aisle"
                  - file: items.csv
                    csv: {header: false}
                    entity: Item
                    attributes: {sku: "#1", name: name}
                """
            ) == [
                "plan.yaml:5:12 (sources[0].attributes.sku.field): field '#1' is a column number, which only csv and tsv sources have: name the key",
                "plan.yaml:6:13 (sources[0].attributes.name.field): field 'tags[' is not a valid path: expected an index or '*' (at character 6)",
                "plan.yaml:11:35 (sources[1].attributes.name.field): field 'name' names a column, but the file has no header row (header: false): use #1, #2, …",
            ])
    }

    @Test func checksFieldsGivenByTheModelsConventions() throws {
        let model = try ModelBuilder("M")
            .entity("Item") { item in
                item.attribute("sku", .string, userInfo: ["mappedKeyName": "item..sku"])
            }
            .build()
        let file = try parsePlan("sources: [{file: catalog.json, entity: Item}]")
        #expect(
            file.validate(model: model).map(\.description) == [
                "plan.yaml:1:11 (sources[0].attributes.sku.field): field 'item..sku' is not a valid path: expected a name (at character 6)"
            ])
    }

    @Test func checksRecordsPaths() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - {file: catalog.json, entity: Item, records: "items[*]"}
                  - {file: catalog.json, entity: Item, records: "$.items[0]"}
                  - {file: catalog.json, entity: Item, records: "$"}
                  - {file: catalog.json, entity: Item, records: "items/@id"}
                  - {file: catalog.json, entity: Item, records: "items[x]"}
                  - {file: catalog.xml, entity: Item, records: "catalog/item"}
                  - {file: catalog.xml, entity: Item, records: "/*/item"}
                  - {file: catalog.xml, entity: Item, records: "catalog/item[0]"}
                  - {file: catalog.xml, entity: Item, records: "catalog/@id"}
                  - {file: items.csv, entity: Item, records: "rows"}
                """
            ) == [
                "plan.yaml:5:49 (sources[3].records): records 'items/@id' is not a JSON records path: use keys, [n] and [*] (items[*], data.rows[*])",
                "plan.yaml:6:49 (sources[4].records): records 'items[x]' is not a valid path: expected an index or '*' (at character 7)",
                "plan.yaml:9:48 (sources[7].records): records 'catalog/item[0]' is not an XML records path: use element names from the root (catalog/item, */item)",
                "plan.yaml:10:48 (sources[8].records): records 'catalog/@id' is not an XML records path: use element names from the root (catalog/item, */item)",
                "plan.yaml:11:46 (sources[9].records): records applies to json and xml sources; every csv record is read",
            ])
    }

    // MARK: - Relationships

    @Test func checksMatchAgainstTheDestination() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    relationships:
                      unit:
                        field: unit
                        match: nme
                      tags: {field: tags, split: ";", match: [name, items]}
                      lists: {field: lists, split: ";", match: []}
                      location: {field: location}
                """
            ) == [
                "plan.yaml:7:16 (sources[0].relationships.unit.match): 'nme' is not an attribute of Unit; did you mean 'name'?",
                "plan.yaml:8:53 (sources[0].relationships.tags.match[1]): 'items' is a to-many relationship of Tag: a match names attributes and to-one relationships",
                "plan.yaml:9:48 (sources[0].relationships.lists.match): match is empty: name the attribute(s) of ShoppingList the field holds",
            ])
    }

    @Test func checksSplitAndMembers() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    relationships:
                      unit: {field: unit, split: ";", members: add}
                      tags: {field: tags, split: ""}
                  - file: catalog.json
                    entity: Item
                    relationships:
                      tags: {field: tags, split: ";"}
                      lists: {field: lists, members: replace}
                      location: {field: "locations[*]"}
                """
            ) == [
                "plan.yaml:5:34 (sources[0].relationships.unit.split): split applies to to-many relationships; 'unit' is a to-one",
                "plan.yaml:5:48 (sources[0].relationships.unit.members): members applies to to-many relationships; 'unit' is a to-one",
                "plan.yaml:6:34 (sources[0].relationships.tags.split): split must not be empty",
                "plan.yaml:12:25 (sources[1].relationships.location.field): field 'locations[*]' yields a list ([*]), but 'location' is a to-one",
            ])
    }

    @Test func checksNestedMappings() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: catalog.json
                    entity: Item
                    relationships:
                      location:
                        field: location
                        match: aisle
                        nested: {entity: Location, key: aisle, attributes: {aisle: aisle, floor: floor}}
                      shelf: {field: shelf, nested: {entity: TopShelf, attributes: {height: h}}}
                      unit: {field: unit, nested: {entity: Tag}}
                      tags: {field: tags, split: ",", nested: {entity: Tag, relationships: {itemz: {field: i}}}}
                  - file: items.csv
                    entity: Item
                    relationships:
                      unit: {field: unit, nested: {entity: Unit}}
                """
            ) == [
                "plan.yaml:7:16 (sources[0].relationships.location.match): match has no effect with nested: the nested mapping's key matches existing objects",
                "plan.yaml:8:75 (sources[0].relationships.location.nested.attributes.floor): 'floor' is not an attribute of Location",
                "plan.yaml:10:44 (sources[0].relationships.unit.nested.entity): entity Tag is not Unit or one of its sub-entities, which 'unit' holds",
                "plan.yaml:11:34 (sources[0].relationships.tags.split): split has no effect with nested records",
                "plan.yaml:11:77 (sources[0].relationships.tags.nested.relationships.itemz): 'itemz' is not a relationship of Tag; did you mean 'items'?",
                "plan.yaml:15:35 (sources[1].relationships.unit.nested): nested records need a json, ndjson or xml source; a csv field holds text only",
            ])
    }

    @Test func splitPatternsNeedOneStar() throws {
        let problems = try validationProblems(
            """
            sources:
              - file: catalog.xml
                entity: Item
                relationships:
                  tags: {field: "@tags", split: {pattern: "<*>"}}
                  lists: {field: lists, split: {pattern: "<>"}}
              - file: catalog.json
                entity: Item
                relationships:
                  tags: {field: tags, split: {pattern: "[**]"}}
            """)
        #expect(
            problems == [
                "plan.yaml:6:46 (sources[0].relationships.lists.split.pattern): split pattern '<>' must hold one '*' (the key) with the text around each key, such as '<*>' for <a><b>",
                "plan.yaml:10:44 (sources[1].relationships.tags.split.pattern): split pattern '[**]' must hold one '*' (the key) with the text around each key, such as '<*>' for <a><b>",
            ])
    }

    @Test func createNeedsStubsTheModelCanFill() throws {
        let model = try ModelBuilder("Stubs")
            .entity("Artist") { artist in
                artist.attribute("id", .integer64, optional: false)
                artist.attribute("name", .string, optional: false)
                artist.attribute("country", .string, optional: false, default: .string("?"))
                artist.attribute("born", .date)
                artist.toMany("albums", "Album", inverse: "artist")
                artist.unique("id")
            }
            .entity("Album") { album in
                album.attribute("title", .string, optional: false)
                album.toOne("artist", "Artist", inverse: "albums")
            }
            .build()
        let plan = try parsePlan(
            """
            sources:
              - file: items.csv
                entity: Album
                attributes: {title: title}
                relationships:
                  artist: {field: artist_id, match: id}
              - file: items.csv
                entity: Album
                attributes: {title: title}
                relationships:
                  artist: {field: artist_id, match: id, missing: reject}
              - file: items.csv
                entity: Album
                attributes: {title: title}
                relationships:
                  artist: {field: artist, match: [id, name], missing: create}
            """)
        #expect(
            plan.validate(model: model).map(\.description) == [
                "plan.yaml:6:15 (sources[0].relationships.artist.missing): missing: create would insert Artist objects holding just id, but 'name' is required with no default value: use missing: reject or ignore (and import Artist from a source of its own), or give it a default in the model"
            ])
    }

    @Test func nullTokensApplyToReferencesNotToNestedRecords() throws {
        let problems = try validationProblems(
            """
            sources:
              - file: catalog.json
                entity: Item
                relationships:
                  unit: {field: unit, match: name, null: [NULL, ""]}
                  location: {field: location, null: [NULL], nested: {entity: Location, key: aisle}}
            """)
        #expect(
            problems == [
                "plan.yaml:6:41 (sources[0].relationships.location.null): null has no effect with nested records (a null field holds no record)"
            ])
    }

    @Test func refusesToCreateAbstractDestinations() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    relationships:
                      shelf: {field: shelf, match: label}
                      unit: {field: unit, missing: reject}
                """
            ) == [
                "plan.yaml:5:14 (sources[0].relationships.shelf.missing): missing: create cannot insert Shelf, an abstract entity: use reject or ignore"
            ])
    }

    // MARK: - Formats and files

    @Test func checksFormatsAndFiles() throws {
        let missing = planFixtures + "/missing.csv"
        #expect(
            try validationProblems(
                """
                sources:
                  - file: items.dat
                    entity: Item
                  - file: missing.csv
                    entity: Item
                  - file: .
                    format: csv
                    entity: Item
                  - file: catalog.json
                    format: xml
                    entity: Item
                  - file: catalog.xml
                    format: csv
                    entity: Item
                  - file: items.csv
                    format: ndjson
                    entity: Item
                """
            ) == [
                "plan.yaml:2:11 (sources[0].file): cannot tell the format of 'items.dat' from its extension: give format: (csv, tsv, json, ndjson or xml)",
                "plan.yaml:2:11 (sources[0].file): file not found: \(planFixtures)/items.dat",
                "plan.yaml:4:11 (sources[1].file): file not found: \(missing)",
                "plan.yaml:6:11 (sources[2].file): \(planFixtures)/. is a folder, not a file",
                "plan.yaml:10:13 (sources[3].format): catalog.json starts with '{\"items\": [{', so it is not xml (it looks like JSON)",
                "plan.yaml:13:13 (sources[4].format): catalog.xml starts with '<?xml versio', so it is not csv (it looks like XML)",
                "plan.yaml:16:13 (sources[5].format): items.csv starts with 'sku,name,pri', so it is not ndjson (it looks like CSV or text)",
            ])
    }

    @Test func canLeaveFilesUnchecked() throws {
        #expect(try validationProblems("sources: [{file: nowhere.csv, entity: Item}]", checksFiles: false).isEmpty)
    }

    @Test func checksCSVOptions() throws {
        #expect(
            try validationProblems(
                """
                sources:
                  - file: catalog.json
                    entity: Item
                    csv: {delimiter: ";"}
                  - file: items.csv
                    entity: Item
                    csv: {delimiter: ";;", quote: "é"}
                  - file: items.csv
                    entity: Item
                    csv: {delimiter: "'", quote: "'"}
                  - file: items.csv
                    entity: Item
                    csv: {delimiter: "\\t", quote: ""}
                """
            ) == [
                "plan.yaml:4:10 (sources[0].csv): csv options apply to csv and tsv sources, not json",
                "plan.yaml:7:22 (sources[1].csv.delimiter): delimiter must be one ASCII character other than a line break, not ';;'",
                "plan.yaml:7:35 (sources[1].csv.quote): quote must be one ASCII character other than a line break, or \"\" for none, not 'é'",
                "plan.yaml:10:34 (sources[2].csv.quote): delimiter and quote must differ (both are ''')",
            ])
    }

    // MARK: - Plans built in Swift

    @Test func validatesPlansBuiltInSwift() {
        var items = SourcePlan(file: "items.csv", entity: "Item", key: ["sku"])
        items.relationships = ["unit": RelationshipMapping(field: "unit", members: .replace)]
        let lists = SourcePlan(file: "lists.csv", entity: "ShoppingLists")
        let plan = ImportPlan(batchSize: 0, sources: [items, lists], baseDirectory: planFixtures)
        #expect(
            PlanValidator().validate(plan, model: catalogModel).map(\.description) == [
                "batchSize: batchSize must be at least 1, not 0",
                "sources[0].relationships.unit.members: members applies to to-many relationships; 'unit' is a to-one",
                "sources[1].entity: unknown entity 'ShoppingLists'; did you mean 'ShoppingList'?",
            ])
    }

    @Test func describesProblemsWithWhatIsKnown() {
        let position = PlanPosition(line: 14, column: 9)
        let keyPath = "sources[0].relationships.unit.match"
        #expect(
            PlanError(file: "plan.yaml", position: position, keyPath: keyPath, message: "m").description
                == "plan.yaml:14:9 (sources[0].relationships.unit.match): m")
        #expect(PlanError(position: position, keyPath: "k", message: "m").description == "14:9 (k): m")
        #expect(PlanError(file: "p", keyPath: "k", message: "m").description == "p (k): m")
        #expect(PlanError(file: "p", message: "m", severity: .warning).description == "p: warning: m")
        #expect(PlanError(message: "m").description == "m")
        let error = PlanError(file: "p", position: position, message: "m")
        #expect(error.line == 14 && error.column == 9 && !error.isWarning)
    }
}
