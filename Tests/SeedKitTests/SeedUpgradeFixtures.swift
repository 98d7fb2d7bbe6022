// Fixtures of the seed-upgrade tests: a pantry model with keyed products and categories and
// tips without a key, seeds v1 and v2 of it, and a user store made from v1 and then changed the
// way a user changes one (an edit, a user-state flag, a deletion, a re-link, objects of their own,
// and the same on the keyless tips).
import Foundation
import GraphStore
import Testing

@testable import SeedKit

/// One tip of a seed: its text, rank and product code (nil: none).
struct SeedTip: Sendable {
    let text: String
    let rank: Int
    let product: String?
}

enum SeedUpgradeFixtures {
    /// Categories by name; products by code (name, price, favourite, category); tips without a key.
    static func model() throws -> ObjectModel {
        try ModelBuilder("Pantry")
            .entity("Category") { category in
                category.attribute("name", .string, optional: false)
                category.toMany("products", "Product", inverse: "category")
                category.unique("name")
            }
            .entity("Product") { product in
                product.attribute("code", .string, optional: false)
                product.attribute("name", .string)
                product.attribute("price", .double)
                product.attribute("favorite", .boolean, default: .boolean(false))
                product.toOne("category", "Category", inverse: "products")
                product.toMany("tips", "Tip", inverse: "product")
                product.unique("code")
            }
            .entity("Tip") { tip in
                tip.attribute("text", .string)
                tip.attribute("rank", .integer32)
                tip.toOne("product", "Product", inverse: "tips")
            }
            .build()
    }

    static let categories = ["Fruit", "Bakery", "Dairy"]
    static let v1Products: [(code: String, name: String, price: Double, category: String)] = [
        ("P1", "Apple", 1.0, "Fruit"), ("P2", "Bread", 2.0, "Bakery"), ("P3", "Cheese", 3.0, "Dairy"),
        ("P4", "Dates", 4.0, "Fruit"),
    ]
    static let v1Tips = [
        SeedTip(text: "Wash fruit", rank: 1, product: "P1"), SeedTip(text: "Keep bread dry", rank: 2, product: "P2"),
        SeedTip(text: "Cheese likes paper", rank: 3, product: "P3"),
    ]
    /// v2: P1 renamed and repriced, P2 renamed, P3 and P4 as they were, P5 new; the third tip
    /// reworded, a fourth added.
    static let v2Products: [(code: String, name: String, price: Double, category: String)] = [
        ("P1", "Red apple", 1.5, "Fruit"), ("P2", "Sourdough", 2.0, "Bakery"), ("P3", "Cheese", 3.0, "Dairy"),
        ("P4", "Dates", 4.0, "Fruit"), ("P5", "Eggs", 2.5, "Dairy"),
    ]
    static let v2Tips = [
        SeedTip(text: "Wash fruit", rank: 1, product: "P1"), SeedTip(text: "Keep bread dry", rank: 2, product: "P2"),
        SeedTip(text: "Cheese likes wax paper", rank: 3, product: "P3"),
        SeedTip(text: "Eggs keep longer cold", rank: 4, product: "P5"),
    ]

    /// A seed store at `path` (single file, with its seed record, as a seed build makes it),
    /// objects inserted in the order given.
    static func makeSeed(
        at path: String, version: String,
        products: [(code: String, name: String, price: Double, category: String)], tips: [SeedTip]
    ) throws {
        var options = StoreOptions()
        options.writeAheadLog = false
        let store = try PersistentStore.open(at: path, model: try model(), options: options)
        let context = try ObjectContext(store: store)
        var byName: [String: ManagedObject] = [:]
        for name in categories {
            let category = try context.insert("Category")
            try category.set("name", name)
            byName[name] = category
        }
        var byCode: [String: ManagedObject] = [:]
        for entry in products {
            let product = try context.insert("Product")
            try product.set("code", entry.code)
            try product.set("name", entry.name)
            try product.set("price", entry.price)
            try product.setRelated("category", to: byName[entry.category])
            byCode[entry.code] = product
        }
        for entry in tips {
            let tip = try context.insert("Tip")
            try tip.set("text", entry.text)
            try tip.set("rank", Int32(entry.rank))
            try tip.setRelated("product", to: entry.product.flatMap { byCode[$0] })
        }
        try context.save()
        try store.setMetadata(["seed.version": version])
        try store.recordSeedObjects()
    }

    /// Seeds v1 and v2 in a new folder, and the path of a user store there (not created).
    static func seeds(_ name: String) throws -> (v1: String, v2: String, store: String) {
        let folder = try LoaderFixtures.folder(name)
        try makeSeed(at: folder + "/v1.sqlite", version: "1", products: v1Products, tips: v1Tips)
        try makeSeed(at: folder + "/v2.sqlite", version: "2", products: v2Products, tips: v2Tips)
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        return (folder + "/v1.sqlite", folder + "/v2.sqlite", folder + "/data/App.sqlite")
    }

    /// The user's store: seed v1 brought in by a first launch, then changed by the user — P1
    /// renamed "My apple", P2 marked favourite, P3 deleted, P4 moved to a category of their own
    /// ("Treats"), a product of their own (U1 "Honey"); the tip "Wash fruit" reworded "Wash all
    /// fruit", "Keep bread dry" deleted, a tip of their own ("My tip").
    static func makeUserStore(at store: String, from seed: String) async throws {
        #expect(try await SeedLoader(seed: .store(seed), store: store).prepare() == .copiedSeed(version: "1"))
        let context = try ObjectContext(store: try PersistentStore.open(at: store))
        try object("Product", "code", "P1", in: context).set("name", "My apple")
        try object("Product", "code", "P2", in: context).set("favorite", true)
        try context.delete(try object("Product", "code", "P3", in: context))
        let treats = try context.insert("Category")
        try treats.set("name", "Treats")
        try object("Product", "code", "P4", in: context).setRelated("category", to: treats)
        let honey = try context.insert("Product")
        try honey.set("code", "U1")
        try honey.set("name", "Honey")
        try honey.set("price", 5.0)
        try honey.setRelated("category", to: treats)
        try object("Tip", "text", "Wash fruit", in: context).set("text", "Wash all fruit")
        try context.delete(try object("Tip", "text", "Keep bread dry", in: context))
        let mine = try context.insert("Tip")
        try mine.set("text", "My tip")
        try mine.set("rank", Int32(9))
        try context.save()
    }

    /// The one object of `entity` whose `attribute` is `value`.
    static func object(_ entity: String, _ attribute: String, _ value: String, in context: ObjectContext) throws
        -> ManagedObject
    {
        let request = FetchRequest(
            entityName: entity, predicate: try FetchPredicate(format: "%K == %@", attribute, value))
        let found = try context.fetch(request)
        #expect(found.count == 1, "\(entity) with \(attribute) \(value): \(found.count) objects")
        return try #require(found.first)
    }

    /// Every product as `code: name price favourite category`, sorted by code.
    static func products(in store: String) throws -> [String] {
        let context = try ObjectContext(store: try PersistentStore.open(at: store))
        return try context.fetch(FetchRequest(entityName: "Product")).map { product in
            let code = try product.get("code", as: String.self) ?? "?"
            let name = try product.get("name", as: String.self) ?? "-"
            let price = try product.get("price", as: Double.self) ?? 0
            let favorite = try product.get("favorite", as: Bool.self) ?? false
            let category = try product.related("category")?.get("name", as: String.self) ?? "-"
            return "\(code): \(name) \(price) \(favorite ? "favourite" : "-") \(category)"
        }.sorted()
    }

    /// Every tip as `text rank product`, sorted.
    static func tips(in store: String) throws -> [String] {
        let context = try ObjectContext(store: try PersistentStore.open(at: store))
        return try context.fetch(FetchRequest(entityName: "Tip")).map { tip in
            let text = try tip.get("text", as: String.self) ?? "-"
            let rank = try tip.get("rank", as: Int32.self) ?? 0
            let product = try tip.related("product")?.get("code", as: String.self) ?? "-"
            return "\(text) \(rank) \(product)"
        }.sorted()
    }
}
