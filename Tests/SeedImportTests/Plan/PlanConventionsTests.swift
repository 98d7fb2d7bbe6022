// Tests for the model conventions of docs/PlanFormat.md (mappedKeyName, relatedByAttribute, unique
// constraints) and the small helpers behind plan messages: suggestions and first-bytes sniffing
// (of gzip files inflated).
import Foundation
import GraphStore
import RecordReaders
import Testing

@testable import SeedImport
import TestSupport

/// A model annotated the way an Xcode model for CoreDataImporter is: attribute `mappedKeyName`s,
/// a relationship `relatedByAttribute`, an entity-level `relatedByAttribute` (Grocery Dude's style).
private let annotatedModel: ObjectModel = {
    do {
        return try ModelBuilder("Annotated")
            .entity("Item") { item in
                item.attribute("sku", .string, userInfo: ["mappedKeyName": "item_sku"])
                item.attribute("name", .string)
                item.attribute("memo", .string, transient: true)
                item.toOne("unit", "Unit", userInfo: ["relatedByAttribute": "symbol"])
                item.toOne("aisle", "Aisle")
                item.toOne("tag", "Tag")
                item.toOne("note", "Note")
                item.toOne("corner", "Corner")
                item.toOne("shelf", "Shelf")
            }
            .entity("Unit") { unit in
                unit.attribute("name", .string)
                unit.attribute("symbol", .string)
                unit.unique("name")
            }
            .entity("Place") { place in
                place.attribute("code", .string)
                place.userInfo("relatedByAttribute", "code")
            }
            .entity("Aisle", parent: "Place") { aisle in
                aisle.attribute("number", .integer32)
                aisle.unique("number")
            }
            .entity("Corner", parent: "Place")
            .entity("Tag") { tag in
                tag.attribute("name", .string)
                tag.attribute("group", .string)
                tag.unique("name")
                tag.unique("name", "group")
            }
            .entity("Note") { note in
                note.attribute("text", .string)
            }
            .entity("Shelf") { shelf in
                shelf.attribute("row", .string)
                shelf.attribute("column", .string)
                shelf.unique("row")
                shelf.unique("column")
            }
            .build()
    } catch {
        fatalError("the test model is invalid: \(error)")
    }
}()

private func relationship(_ name: String) throws -> ModelRelationship {
    try #require(annotatedModel.entity(named: "Item")?.relationship(named: name))
}

@Suite("Plan conventions")
struct PlanConventionsTests {
    // MARK: - Attributes

    @Test func mapsEveryStoredAttributeWhenAttributesAreLeftOut() throws {
        let attributes = try PlanConventions.effectiveAttributes(
            of: RecordMapping(entity: "Item"), model: annotatedModel)
        #expect(attributes == ["sku": AttributeMapping(field: "item_sku"), "name": AttributeMapping(field: "name")])
    }

    @Test func fillsInTheFieldOfAttributesGivenWithOptionsOnly() throws {
        var trimmed = AttributeMapping()
        trimmed.trim = true
        let mapping = RecordMapping(
            entity: "Item",
            attributes: [
                "sku": trimmed, "name": .constant("n"), "memo": AttributeMapping(), "ghost": AttributeMapping(),
            ])
        let attributes = try PlanConventions.effectiveAttributes(of: mapping, model: annotatedModel)
        var expectedSKU = AttributeMapping(field: "item_sku")
        expectedSKU.trim = true
        #expect(attributes["sku"] == expectedSKU)
        #expect(attributes["name"] == .constant("n"))
        #expect(attributes["memo"] == AttributeMapping(field: "memo"))
        #expect(attributes["ghost"] == AttributeMapping(field: "ghost"))
        #expect(attributes.count == 4)
    }

    @Test func explicitFieldsWin() throws {
        let mapping = RecordMapping(entity: "Item", attributes: ["sku": AttributeMapping(field: "SKU")])
        #expect(
            try PlanConventions.effectiveAttributes(of: mapping, model: annotatedModel) == [
                "sku": AttributeMapping(field: "SKU")
            ])
    }

    @Test func reportsAnUnknownEntity() {
        #expect(throws: PlanError(keyPath: "entity", message: "unknown entity 'Nope'")) {
            try PlanConventions.effectiveAttributes(of: RecordMapping(entity: "Nope"), model: annotatedModel)
        }
    }

    // MARK: - Match

    @Test func takesMatchFromThePlanFirst() throws {
        let mapping = RelationshipMapping(field: "unit", match: ["name"])
        #expect(
            try PlanConventions.effectiveMatch(for: relationship("unit"), mapping: mapping, model: annotatedModel) == [
                "name"
            ])
    }

    @Test func takesMatchFromTheRelationshipsRelatedByAttribute() throws {
        // Unit's unique constraint is name, but the relationship's annotation wins.
        #expect(
            try PlanConventions.effectiveMatch(for: relationship("unit"), mapping: nil, model: annotatedModel) == [
                "symbol"
            ])
    }

    @Test func takesMatchFromTheDestinationsRelatedByAttributeOrItsAncestors() throws {
        // Aisle inherits Place's relatedByAttribute, which wins over Aisle's own unique constraint.
        #expect(
            try PlanConventions.effectiveMatch(for: relationship("aisle"), mapping: nil, model: annotatedModel) == [
                "code"
            ])
        #expect(
            try PlanConventions.effectiveMatch(for: relationship("corner"), mapping: nil, model: annotatedModel) == [
                "code"
            ])
    }

    @Test func takesMatchFromTheOnlySingleAttributeUniqueConstraint() throws {
        let mapping = RelationshipMapping(field: "tag")
        #expect(
            try PlanConventions.effectiveMatch(for: relationship("tag"), mapping: mapping, model: annotatedModel) == [
                "name"
            ])
    }

    @Test func asksForMatchWhenTheModelDoesNotSay() throws {
        #expect(
            throws: PlanError(
                keyPath: "relationships.note",
                message:
                    "cannot tell which attribute of Note 'note' matches (no relatedByAttribute in the model, no noteID, "
                    + "no single-attribute unique constraint): give match:")
        ) {
            try PlanConventions.effectiveMatch(for: relationship("note"), mapping: nil, model: annotatedModel)
        }
        #expect(
            throws: PlanError(
                keyPath: "relationships.shelf",
                message:
                    "cannot tell which attribute of Shelf 'shelf' matches (no relatedByAttribute in the model, no shelfID, "
                    + "several unique attributes): give match:")
        ) {
            try PlanConventions.effectiveMatch(for: relationship("shelf"), mapping: nil, model: annotatedModel)
        }
    }

    @Test func validationAppliesTheConventions() throws {
        let file = try parsePlan(
            """
            sources:
              - file: items.csv
                entity: Item
                key: sku
                relationships:
                  unit: unit
                  aisle: aisle
                  note: {field: note}
            """)
        #expect(
            file.validate(model: annotatedModel).map(\.description) == [
                "plan.yaml:8:13 (sources[0].relationships.note): cannot tell which attribute of Note 'note' matches "
                    + "(no relatedByAttribute in the model, no noteID, no single-attribute unique constraint): give match:"
            ])
    }

    @Test func validationChecksWhatTheConventionsName() throws {
        let model = try ModelBuilder("M")
            .entity("Item") { item in
                item.attribute("sku", .string)
                item.toOne("unit", "Unit", userInfo: ["relatedByAttribute": "nmae"])
            }
            .entity("Unit") { unit in
                unit.attribute("name", .string)
            }
            .build()
        let file = try parsePlan("sources: [{file: items.csv, entity: Item, relationships: {unit: unit}}]")
        #expect(
            file.validate(model: model).map(\.description) == [
                "plan.yaml:1:65 (sources[0].relationships.unit): 'nmae' (from the relationship's relatedByAttribute) "
                    + "is not an attribute of Unit; did you mean 'name'?"
            ])
    }

    @Test func leavingOutTheKeyAlwaysInserts() throws {
        // Item has a unique constraint on sku, but a plan without key: inserts every record.
        let plan = try parsePlan("sources: [{file: items.csv, entity: Item}]").plan
        #expect(plan.sources[0].key == nil)
        #expect(plan.sources[0].mapping.key == nil)
    }

    // MARK: - Helpers

    @Test func suggestsCloseNamesOnly() {
        #expect(PlanSuggestion.closest(to: "atributes", among: PlanFileKeys.source) == "attributes")
        #expect(PlanSuggestion.closest(to: "Itme", among: ["Item", "Unit"]) == "Item")
        #expect(PlanSuggestion.closest(to: "item", among: ["Item", "Unit"]) == "Item")
        #expect(PlanSuggestion.closest(to: "relationship", among: PlanFileKeys.source) == "relationships")
        #expect(PlanSuggestion.closest(to: "colour", among: PlanFileKeys.relationship) == nil)
        #expect(PlanSuggestion.closest(to: "", among: ["a"]) == "a")
        #expect(PlanSuggestion.didYouMean("x", among: []) == "")
    }

    @Test func sniffsTheFirstNonBlankBytes() {
        func mismatch(_ text: String, _ format: RecordFormat) -> String? {
            PlanSourceSniffer.mismatch(in: Data(text.utf8), format: format)
        }
        #expect(mismatch("\u{FEFF} \n\t{\"a\": 1}", .json) == nil)
        #expect(mismatch("[1]", .ndjson) == nil)
        #expect(mismatch("", .xml) == nil)
        #expect(mismatch("  \n", .json) == nil)
        #expect(mismatch("<root/>", .xml) == nil)
        #expect(mismatch("<b>,c\n", .csv) == nil)
        #expect(mismatch("[id],name\n", .csv) == nil)
        #expect(mismatch("\n\n{\"a\": 1}\n", .xml) == "starts with '{\"a\": 1}', so it is not xml (it looks like JSON)")
        #expect(
            mismatch("<?xml version=\"1.0\"?>", .tsv)
                == "starts with '<?xml versio', so it is not tsv (it looks like XML)")
        #expect(mismatch("a,b\n", .json) == "starts with 'a,b', so it is not json (it looks like CSV or text)")
    }

    @Test func sniffsAGzipFileInflated() throws {
        let file = URL(fileURLWithPath: ScratchFolder.path("sniff", suffix: ".json.gz"))
        defer { try? FileManager.default.removeItem(at: file) }
        let compressed = try #require(GzipCompression.compress(Array("{\"items\": []}".utf8)))
        try Data(compressed).write(to: file)
        #expect(PlanSourceSniffer.mismatch(at: file.path, format: .json) == nil)
        #expect(
            PlanSourceSniffer.mismatch(at: file.path, format: .xml)
                == "starts with '{\"items\": []', so it is not xml (it looks like JSON)")
    }
}
