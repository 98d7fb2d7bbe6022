// The catalog model of docs/Performance.md, built in Swift, shared by the GraphStore tests.
@testable import GraphStore

enum CatalogModel {
    /// Unit, Location, Tag, Item and ShoppingList with to-one, many-to-many and ordered to-many relationships.
    static func build(name: String = "Catalog") throws -> ObjectModel {
        try declaration(name: name).build()
    }

    static func declaration(name: String = "Catalog") -> ModelBuilder {
        ModelBuilder(name)
            .entity("Unit") { unit in
                unit.attribute("name", .string, optional: false)
                unit.toMany("items", "Item", inverse: "unit", deleteRule: .deny)
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
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("name", .string, optional: false)
                item.attribute("price", .double, default: .double(0), validation: ValidationRules(minimum: 0))
                item.attribute("quantity", .integer32, default: .integer(0))
                item.attribute("listed", .boolean, default: .boolean(true))
                item.attribute("added", .date)
                item.attribute("notes", .string)
                item.toOne("unit", "Unit", inverse: "items")
                item.toOne("location", "Location", inverse: "items")
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
    }

    /// Inserts an item with the catalog's required attributes into `context` (unsaved).
    static func insertItem(
        into context: ObjectContext, sku: String, name: String, price: Double
    ) throws -> ManagedObject {
        let item = try context.insert("Item")
        try item.set("sku", sku)
        try item.set("name", name)
        try item.set("price", price)
        return item
    }
}
