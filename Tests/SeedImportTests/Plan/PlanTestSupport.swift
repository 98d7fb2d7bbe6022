// Shared helpers for the plan tests: the fixture folder, a catalog model in the shape of docs/Performance.md
// (plus the odd attributes and entities the validator's checks need), and short ways to parse
// plan text and collect its problems.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

/// The plan fixtures' folder, found from this file so tests run from any working directory.
let planFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/Plans").path

/// The path of a plan fixture.
func planFixture(_ name: String) -> String {
    planFixtures + "/" + name
}

/// The catalog model: Unit, Location, Tag, Item, ShoppingList (docs/Performance.md), plus an abstract Shelf
/// with a concrete TopShelf, and attributes of every kind the checks care about.
let catalogModel: ObjectModel = {
    do {
        return try ModelBuilder("Catalog")
            .entity("Unit") { unit in
                unit.attribute("name", .string, optional: false)
                unit.toMany("items", "Item", inverse: "unit")
                unit.unique("name")
            }
            .entity("Location") { location in
                location.attribute("aisle", .string, optional: false)
                location.toMany("items", "Item", inverse: "location")
                location.unique("aisle")
            }
            .entity("Tag") { tag in
                tag.attribute("name", .string, optional: false)
                tag.toMany("items", "Item", inverse: "tags")
                tag.unique("name")
            }
            .entity("Shelf", abstract: true) { shelf in
                shelf.attribute("label", .string)
                shelf.toMany("items", "Item", inverse: "shelf")
            }
            .entity("TopShelf", parent: "Shelf") { top in
                top.attribute("height", .double)
            }
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("name", .string)
                item.attribute("price", .double)
                item.attribute("quantity", .integer32)
                item.attribute("listed", .boolean)
                item.attribute("added", .date)
                item.attribute("notes", .string)
                item.attribute("source", .string)
                item.attribute("photo", .binary)
                item.attribute("extra", .transformable)
                item.attribute("scratch", .string, transient: true)
                item.toOne("unit", "Unit", inverse: "items")
                item.toOne("location", "Location", inverse: "items")
                item.toOne("shelf", "Shelf", inverse: "items")
                item.toMany("tags", "Tag", inverse: "items")
                item.toMany("lists", "ShoppingList", inverse: "items")
                item.unique("sku")
            }
            .entity("ShoppingList") { list in
                list.attribute("code", .string, optional: false)
                list.attribute("title", .string)
                list.attribute("created", .date)
                list.toMany("items", "Item", inverse: "lists", ordered: true)
                list.unique("code")
            }
            .build()
    } catch {
        fatalError("the test model is invalid: \(error)")
    }
}()

/// Parses YAML plan text named `plan.yaml`, with relative paths starting at the fixtures.
func parsePlan(_ text: String, syntax: PlanSyntax = .yaml) throws(PlanErrors) -> PlanFile {
    try PlanFile.parse(
        text, syntax: syntax, source: syntax == .json ? "plan.json" : "plan.yaml", baseDirectory: planFixtures)
}

/// The problems parsing `text` reports (none when it parses).
func parseProblems(_ text: String, syntax: PlanSyntax = .yaml) -> [String] {
    do {
        _ = try parsePlan(text, syntax: syntax)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

/// The problems validating `text` against the catalog model reports; parsing must succeed.
func validationProblems(_ text: String, checksFiles: Bool = true) throws -> [String] {
    let file = try parsePlan(text)
    return file.validate(model: catalogModel, checksFiles: checksFiles).map(\.description)
}
