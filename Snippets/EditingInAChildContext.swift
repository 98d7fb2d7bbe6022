// Editing in a child context: an editor on top of the view context, whose change is dropped on
// cancel, or saved into the view context and then to the store.
// Run it from the package's folder: `swift run EditingInAChildContext`.

// snippet.hide
import Foundation
import GraphStore

let model = try ModelBuilder("Pantry")
    .entity("Item") { item in
        item.attribute("sku", .string, optional: false)
        item.attribute("price", .double, default: .double(0), validation: ValidationRules(minimum: 0))
        item.unique("sku")
    }
    .build()
let container = try PersistentContainer(store: PersistentStore.inMemory(model: model))
let apples = try container.viewContext.insert("Item")
try apples.set("sku", "A-1")
try apples.set("price", 2.49)
try container.viewContext.save()
let id = apples.objectID
// snippet.show

// snippet.cancel
let draft = try container.viewContext.newChildContext(name: "editor")
try draft.existingObject(with: id).set("price", 0.99)
draft.rollback()  // or let the editor go: the view context never sees the change
print(try apples.get("price", as: Double.self) ?? 0)  // 2.49
// snippet.end

// snippet.save
let editor = try container.viewContext.newChildContext(name: "editor")
try editor.existingObject(with: id).set("price", 2.99)
let pears = try editor.insert("Item")
try pears.set("sku", "P-1")
try editor.save()  // validated, then pushed into the view context; the store is unchanged
print(try apples.get("price", as: Double.self) ?? 0)  // 2.99 in the view context
try container.viewContext.save()  // one transaction writes both changes
print(pears.objectID.isTemporary)  // false: the editor's object now has its permanent ID
// snippet.end
