// PluginCheck's program: opens a copy of the seed SeedKitPlugin built (Catalog.sqlite, a resource),
// reads the catalog through the types SeedKitCodegenPlugin generated (and the hand-written Tag),
// inserts an item with typed setters, saves, and reads it back in another context with the typed
// fetch helper. Prints one line per failed check and exits 1 if any failed; else a summary line.
import Foundation
import GraphStore

/// Collects the outcome of checks.
final class Checks {
    private(set) var passed = 0
    private(set) var failed = 0

    func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
        if actual == expected {
            passed += 1
        } else {
            failed += 1
            print("FAILED \(what): got \(actual), expected \(expected)")
        }
    }
}

func run() throws -> Checks {
    let checks = Checks()
    guard let seed = Bundle.module.path(forResource: "Catalog", ofType: "sqlite") else {
        throw CocoaError(
            .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the bundled Catalog.sqlite is missing"])
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PluginCheck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("Catalog.sqlite").path
    try FileManager.default.copyItem(atPath: seed, toPath: path)
    let store = try PersistentStore.open(at: path)

    // What SeedKitPlugin imported, read through the generated types.
    let context = try ObjectContext(store: store)
    let items = try Item.fetch(in: context, sortedBy: [Item.Keys.sku.ascending])
    checks.expect(try items.map { try $0.sku }, ["A-001", "A-002", "A-003", "A-004", "A-005"], "skus")
    checks.expect(
        try items.map { try $0.name }, ["Apples", "Bananas", "Milk, whole", "Crème fraîche", "Bread & butter"],
        "names")
    checks.expect(try items.map { try $0.price }, [2.49, 1.19, 0.99, 1.79, 3.10], "prices")
    checks.expect(try items.map { try $0.quantity }, [120, 80, 40, 25, 10] as [Int32?], "quantities")
    checks.expect(try items.map { try $0.listed }, [true, true, false, true, true] as [Bool?], "listed")
    checks.expect(try items.map { try $0.notes }, [nil, "Fair trade", "Keep \"cold\"", "Two\nlines", nil], "notes")
    checks.expect(
        try items[0].added, ISO8601DateFormatter().date(from: "2026-01-05T09:00:00Z"), "added of A-001")
    let milk = items[2]
    checks.expect(try milk.unit?.name, "l", "unit of A-003")
    checks.expect(try milk.location?.aisle, "B4", "location of A-003")
    checks.expect(try Set(milk.tags.map { try $0.name }), ["dairy", "fresh"], "tags of A-003")
    let weekly = try ShoppingList.first(in: context, where: ShoppingList.Keys.code == "L-1")
    checks.expect(try weekly?.items.map { try $0.sku }, ["A-003", "A-001", "A-005"], "items of L-1, in order")
    let cheap = try Item.fetch(in: context, where: Item.Keys.price < 1.5, sortedBy: [Item.Keys.price.ascending])
    checks.expect(try cheap.map { try $0.sku }, ["A-003", "A-002"], "items under 1.5")
    checks.expect(
        try Item.count(in: context, where: Item.Keys.unit.appending(Unit.Keys.name) == "kg"), 2, "items in kg")

    // A new item through the typed setters, saved, read back in another context.
    guard let kg = try Unit.first(in: context, where: Unit.Keys.name == "kg"),
        let fresh = try Tag.first(in: context, where: .key("name") == "fresh"),
        let breakfast = try ShoppingList.first(in: context, where: ShoppingList.Keys.code == "L-2")
    else {
        checks.expect(false, true, "kg, fresh and L-2 exist")
        return checks
    }
    let cheese = try Item.insert(into: context)
    try cheese.setSku("A-006")
    try cheese.setName("Cheese")
    try cheese.setPrice(4.5)
    try cheese.setQuantity(3)
    try cheese.setUnit(kg)
    try cheese.addToTags(fresh)
    try breakfast.insertIntoItems(cheese, at: 0)
    try context.save()

    let reader = try ObjectContext(store: store)
    let saved = try Item.fetch(in: reader, where: Item.Keys.sku == "A-006")
    checks.expect(saved.count, 1, "A-006 saved once")
    checks.expect(try saved.first?.name, "Cheese", "name of A-006")
    checks.expect(try saved.first?.price, 4.5, "price of A-006")
    checks.expect(try saved.first?.quantity, 3, "quantity of A-006")
    checks.expect(try saved.first?.listed, true, "listed of A-006 (the model's default)")
    checks.expect(try saved.first?.unit?.name, "kg", "unit of A-006")
    checks.expect(try saved.first.map { try $0.tags.map { try $0.name } }, ["fresh"], "tags of A-006")
    let lists = try ShoppingList.fetch(in: reader, where: ShoppingList.Keys.code == "L-2")
    checks.expect(try lists.first?.items.map { try $0.sku }, ["A-006", "A-005", "A-004"], "items of L-2, in order")
    checks.expect(try Item.count(in: reader), 6, "items after the insert")
    return checks
}

do {
    let checks = try run()
    guard checks.failed == 0 else { exit(1) }
    print("PluginCheck: all \(checks.passed) checks passed")
} catch {
    print("PluginCheck: \(error)")
    exit(1)
}
