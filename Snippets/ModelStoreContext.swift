// The object graph: a model built in Swift, a store created from it, objects inserted, related
// and saved through a context, then fetched back with a predicate.
// Run it from the package's folder: `swift run ModelStoreContext`.

// snippet.hide
import Foundation

// snippet.show
import GraphStore

// snippet.model
let model = try ModelBuilder("Pantry")
    .entity("Unit") { unit in
        unit.attribute("name", .string, optional: false)
        unit.toMany("items", "Item", inverse: "unit", deleteRule: .deny)
        unit.unique("name")
    }
    .entity("Item") { item in
        item.attribute("sku", .string, optional: false)
        item.attribute("price", .double, default: .double(0), validation: ValidationRules(minimum: 0))
        item.toOne("unit", "Unit", inverse: "items")
        item.unique("sku")
    }
    .build()  // throws a ModelError listing every problem
// snippet.end

// snippet.save
let store = try PersistentStore.inMemory(model: model)  // or PersistentStore.open(at:model:)
let context = try BackgroundContext(store: store)
try await context.perform { context in
    let kg = try context.insert("Unit")
    try kg.set("name", "kg")
    for (sku, price) in [("A-1", 2.49), ("A-2", 1.19)] {
        let item = try context.insert("Item")
        try item.set("sku", sku)
        try item.set("price", price)
        try item.setRelated("unit", to: kg)  // kg's items now hold it too
    }
    try context.save()  // one transaction; a validation error lists every failure
}
// snippet.end

// snippet.fetch
let skus = try await context.perform { context in
    let request = FetchRequest(
        entityName: "Item",
        predicate: try FetchPredicate(format: "unit.name == %@ AND price < %@", "kg", 2.0))
    return try context.fetch(request).map { try $0.get("sku", as: String.self) ?? "" }
}
print(skus)  // ["A-2"]
// snippet.end
