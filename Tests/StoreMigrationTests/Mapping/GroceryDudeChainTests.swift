// Grocery Dude's eight-version chain (fixture F1's cases, T-GD-1…6), built with SeedKit's own
// models and mapping models because the book's model versions and mapping files are not among the
// fixtures: Model → Model 2 inferred (+Measurement); Model2toModel3 maps Measurement → Amount
// (abc → xyz); Model3toModel4 maps Amount → Unit (xyz → name); Model 4 → 5 → 6 → 7 inferred
// (+Item.unit, +the abstract Location with LocationAtHome/LocationAtShop and their to-ones,
// +Item.thumbnail); Model7toModel8 moves Item.photoData into a new Item_Photo through two
// relationship expressions, one spelled without its final colon as in the book's file. Hooks add
// the book's data on the way: three Measurements at Model 2, units and locations at Model 6.
import Foundation
import GraphStore
import ModelFiles
import Synchronization
import Testing

@testable import StoreMigration

@Suite struct GroceryDudeChainTests {
    typealias Support = MigrationTestSupport

    /// The 14 distinct item names of SeedData/GroceryDude/DefaultData.xml.
    static let names = [
        "Apples", "Bananas", "Carrots", "Milk", "Yoghurt", "Butter", "Bread", "Rice", "Pasta", "Coffee",
        "Orange juice", "Toothpaste", "Soap", "Dish soap",
    ]
    /// The items with a photo.
    static let photos: [String: Data] = ["Apples": Data([1, 2, 3]), "Milk": Data([4, 5])]
    /// The Measurements' `abc`, which become Units' names.
    static let measurements = ["g", "kg", "l"]

    /// Grocery Dude's model at `version` (1…8).
    static func model(_ version: Int) throws -> ObjectModel {
        var builder = ModelBuilder("Model")
            .entity("Item") { item in
                item.attribute("name", .string, optional: false, default: .string("New Item"))
                item.attribute("quantity", .float, default: .double(1))
                if version < 8 { item.attribute("photoData", .binary) }
                item.attribute("listed", .boolean, default: .boolean(true))
                item.attribute("collected", .boolean, default: .boolean(false))
                if version >= 7 { item.attribute("thumbnail", .binary) }
                if version >= 5 { item.toOne("unit", "Unit", inverse: "items") }
                if version >= 6 {
                    item.toOne("locationAtHome", "LocationAtHome", inverse: "items")
                    item.toOne("locationAtShop", "LocationAtShop", inverse: "items")
                }
                if version >= 8 { item.toOne("photo", "Item_Photo", inverse: "item") }
            }
        if version == 2 { builder = builder.entity("Measurement") { $0.attribute("abc", .string) } }
        if version == 3 { builder = builder.entity("Amount") { $0.attribute("xyz", .string) } }
        if version >= 4 {
            builder = builder.entity("Unit") { unit in
                unit.attribute("name", .string, optional: false, default: .string("New Unit"))
                if version >= 5 { unit.toMany("items", "Item", inverse: "unit") }
            }
        }
        if version >= 6 {
            builder = builder.entity("Location", abstract: true) { $0.attribute("summary", .string) }
                .entity("LocationAtHome", parent: "Location") { home in
                    home.attribute("storedIn", .string)
                    home.toMany("items", "Item", inverse: "locationAtHome")
                }
                .entity("LocationAtShop", parent: "Location") { shop in
                    shop.attribute("aisle", .string)
                    shop.toMany("items", "Item", inverse: "locationAtShop")
                }
        }
        if version >= 8 {
            builder = builder.entity("Item_Photo") { photo in
                photo.attribute("data", .binary)
                photo.toOne("item", "Item", inverse: "photo")
            }
        }
        return try builder.build()
    }

    static func versions() throws -> ModelVersionSet {
        try ModelVersionSet(
            versions: try (1...8).map { ($0 == 1 ? "Model" : "Model \($0)", try model($0)) }, current: "Model 8")
    }

    /// An entity mapping from `source` to `destination` whose property mappings are blank (the
    /// same names), except those `expressions` gives.
    static func mapping(
        _ source: String, _ destination: String, number: Int, attributes: [String], relationships: [String] = [],
        _ expressions: [String: MappingExpression] = [:]
    ) -> EntityMapping {
        EntityMapping(
            name: "\(source)To\(destination)", kind: .transform, sourceEntity: source, destinationEntity: destination,
            number: number,
            attributeMappings: attributes.map { PropertyMapping(name: $0, valueExpression: expressions[$0]) },
            relationshipMappings: relationships.map {
                PropertyMapping(name: $0, valueExpression: expressions[$0], generatesExpression: expressions[$0] == nil)
            })
    }

    static let itemAttributes = ["name", "quantity", "photoData", "listed", "collected"]

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", mapping, $source)`.
    static func instances(
        of mapping: String, selector: String = "destinationInstancesForEntityMappingNamed:sourceInstances:"
    )
        -> MappingExpression
    {
        .function(
            target: .variable("manager"), selector: selector,
            arguments: [.constant(.string(mapping)), .variable("source")])
    }

    static func version(_ name: String) -> MappingModelVersion {
        MappingModelVersion(path: "Grocery Dude/Model.xcdatamodeld/\(name).xcdatamodel")
    }

    /// A mapping model from `from` to `to` keeping the items and mapping `entity` to `newEntity`
    /// with `newAttribute` = `$source.attribute` (the book's Model2toModel3 and Model3toModel4).
    static func itemsAndOneRenamed(
        from: String, to: String, _ entity: String, _ attribute: String, as newEntity: String, _ newAttribute: String
    ) -> MappingModel {
        MappingModel(
            source: version(from), destination: version(to),
            entityMappings: [
                mapping("Item", "Item", number: 1, attributes: itemAttributes),
                mapping(
                    entity, newEntity, number: 2, attributes: [newAttribute],
                    [newAttribute: .keyPath(variable: "source", [attribute])]),
            ])
    }

    /// Model2toModel3, Model3toModel4 and Model7toModel8.
    static func mappings() -> [MappingModel] {
        [
            itemsAndOneRenamed(from: "Model 2", to: "Model 3", "Measurement", "abc", as: "Amount", "xyz"),
            itemsAndOneRenamed(from: "Model 3", to: "Model 4", "Amount", "xyz", as: "Unit", "name"),
            MappingModel(
                source: version("Model 7"), destination: version("Model 8"),
                entityMappings: [
                    mapping(
                        "Item", "Item", number: 1,
                        attributes: ["name", "quantity", "listed", "collected", "thumbnail"],
                        relationships: ["unit", "locationAtHome", "locationAtShop", "photo"],
                        ["photo": instances(of: "ItemToItem_Photo")]),
                    mapping(
                        "Item", "Item_Photo", number: 2, attributes: ["data"], relationships: ["item"],
                        [
                            "data": .keyPath(variable: "source", ["photoData"]),
                            "item": instances(
                                of: "ItemToItem", selector: "destinationInstancesForEntityMappingNamed:sourceInstances"),
                        ]),
                    mapping("Unit", "Unit", number: 3, attributes: ["name"], relationships: ["items"]),
                    mapping(
                        "LocationAtHome", "LocationAtHome", number: 4, attributes: ["summary", "storedIn"],
                        relationships: ["items"]),
                    mapping(
                        "LocationAtShop", "LocationAtShop", number: 5, attributes: ["summary", "aisle"],
                        relationships: ["items"]),
                ]),
        ]
    }

    /// Three Measurements at Model 2; at Model 6, each item gets the unit of its index and the
    /// first seven a place at home.
    static func hooks() -> [MigrationHook] {
        [
            .after("Model 2") { hook in
                let context = try hook.newContext()
                for abc in measurements { try context.insert("Measurement").set("abc", abc) }
                try context.save()
            },
            .after("Model 6") { hook in
                let context = try hook.newContext()
                let units = try context.fetch(FetchRequest(entityName: "Unit")).sorted {
                    try $0.get("name", as: String.self) ?? "" < $1.get("name", as: String.self) ?? ""
                }
                let fridge = try context.insert("LocationAtHome")
                try fridge.set("storedIn", "Fridge")
                for item in try context.fetch(FetchRequest(entityName: "Item")) {
                    let index = try #require(names.firstIndex(of: try item.get("name", as: String.self) ?? ""))
                    try item.setRelated("unit", to: units[index % units.count])
                    if index < 7 { try item.setRelated("locationAtHome", to: fridge) }
                }
                try context.save()
            },
        ]
    }

    static func store(at path: String) throws -> String {
        try Support.store(at: path, model: try model(1)) { context in
            for name in names {
                let item = try context.insert("Item")
                try item.set("name", name)
                try item.set("photoData", photos[name])
            }
        }
    }

    @discardableResult
    static func migrate(_ path: String) async throws -> MigrationReport {
        try await StoreMigrator.migrate(
            store: path, source: MigrationSource(versions: try versions(), mappings: mappings(), hooks: hooks()))
    }

    @Test func modelToModel8KeepsTheItemsAndMovesPhotosAndUnitsThroughTheMappings() async throws {
        let scratch = try Scratch()
        let path = try Self.store(at: scratch.file("Grocery.sqlite"))
        let report = try await Self.migrate(path)
        #expect(report.steps == 7)
        #expect(
            report.passes.map { "\($0.kind.rawValue) \($0.versions.joined(separator: ","))" } == [
                "inferred Model,Model 2", "mapping Model 2,Model 3", "mapping Model 3,Model 4",
                "inferred Model 4,Model 5,Model 6", "inferred Model 6,Model 7", "mapping Model 7,Model 8",
            ])
        #expect(report.warnings.contains { $0.contains("sourceInstances") })
        #expect(report.entities["Item_Photo"]?.created == 14)
        #expect(report.entities["Amount"]?.created == 3 && report.entities["Unit"]?.created == 3)

        let store = try PersistentStore.open(at: path, model: try Self.model(8))
        let context = try ObjectContext(store: store)
        let items = try context.fetch(FetchRequest(entityName: "Item"))
        #expect(try items.map { try $0.get("name", as: String.self) ?? "" }.sorted() == Self.names.sorted())
        let units = try context.fetch(FetchRequest(entityName: "Unit"))
        #expect(try units.map { try $0.get("name", as: String.self) ?? "" }.sorted() == Self.measurements)
        for item in items {
            let name = try #require(try item.get("name", as: String.self))
            let index = try #require(Self.names.firstIndex(of: name))
            #expect(try item.get("quantity", as: Double.self) == 1)
            #expect(try item.get("listed", as: Bool.self) == true && item.get("collected", as: Bool.self) == false)
            let photo = try #require(try item.related("photo"))
            #expect(try photo.get("data", as: Data.self) == Self.photos[name])
            #expect(try photo.related("item")?.objectID == item.objectID)
            #expect(try item.related("unit")?.get("name", as: String.self) == Self.measurements.sorted()[index % 3])
            #expect(
                try item.related("locationAtHome")?.get("storedIn", as: String.self) == (index < 7 ? "Fridge" : nil))
        }
        #expect(try context.count(for: FetchRequest(entityName: "Item_Photo")) == 14)
        #expect(try Support.rows("SELECT count(*) FROM Item_Photo WHERE data IS NOT NULL", in: path) == [["2"]])
        #expect(
            try Support.rows("SELECT count(*) FROM pragma_table_info('Item') WHERE name = 'photoData'", in: path) == [
                ["0"]
            ])
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func theSameStoreMigratedTwiceGivesTheSameBytes() async throws {
        let scratch = try Scratch()
        let first = try Self.store(at: scratch.file("First.sqlite"))
        let second = scratch.file("Second.sqlite")
        try FileManager.default.copyItem(atPath: first, toPath: second)
        try await Self.migrate(first)
        try await Self.migrate(second)
        #expect(try Support.bytes(first) == Support.bytes(second))
    }

    /// Without the mapping models, Model 2 → 8 is one inferred pass: the Measurements and the
    /// photos are dropped.
    @Test func withoutTheMappingModelsTheMeasurementsAreDroppedAndTheGateSaysSo() async throws {
        let scratch = try Scratch()
        let path = try Self.store(at: scratch.file("Grocery.sqlite"))
        var options = MigrationOptions()
        options.target = "Model 2"
        try await StoreMigrator.migrate(
            store: path, source: MigrationSource(versions: try Self.versions(), hooks: [Self.hooks()[0]]),
            options: options)
        let before = try Support.bytes(path)
        let plan = try StoreMigrator.plan(store: path, source: MigrationSource(versions: try Self.versions()))
        #expect(plan.passes.count == 1 && plan.passes[0].kind == .inferred)
        let changes = plan.passes[0].steps[0].changes
        #expect(changes.contains("Measurement: entity removed") && changes.contains("Amount: entity added"))
        #expect(plan.dataDropped == ["Measurement: 3 objects", "Item.photoData: 2 values"])
        var gated = MigrationOptions()
        gated.allowDataLoss = false
        let error = try await #require(throws: MigrationError.self) {
            try await StoreMigrator.migrate(
                store: path, source: MigrationSource(versions: try Self.versions()), options: gated)
        }
        #expect(error.kind == .dataLoss(["Measurement: 3 objects", "Item.photoData: 2 values"]))
        #expect(try Support.bytes(path) == before)
    }

    @Test func theWholeChainIntoAnotherFileWithProgressOverEveryPass() async throws {
        let scratch = try Scratch()
        let path = try Self.store(at: scratch.file("Grocery.sqlite"))
        let before = try Support.bytes(path)
        let updates = Mutex<[MigrationProgress]>([])
        var options = MigrationOptions()
        options.batchSize = 4
        options.onProgress = { progress in updates.withLock { $0.append(progress) } }
        let migrator = StoreMigrator(
            store: path,
            source: MigrationSource(versions: try Self.versions(), mappings: Self.mappings(), hooks: Self.hooks()),
            options: options)
        let output = scratch.file("Model8.sqlite")
        let report = try await migrator.run(into: output)
        #expect(report.passes.count == 6 && report.output == output)
        #expect(try Support.bytes(path) == before)
        #expect(try Support.metadata(output).modelHash == (try Self.model(8)).versionHash)
        #expect(try Support.rows("SELECT count(*) FROM Item_Photo", in: output) == [["14"]])
        #expect(Support.leftovers(beside: path) == [] && Support.leftovers(beside: output) == [])
        let seen = updates.withLock { $0 }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed && $0.step <= $1.step })
        #expect(Set(seen.map(\.step)) == Set(0...6))
        let last = try #require(seen.last)
        #expect(last.phase == .finished && last.completed == last.total && last.stepCount == 6)
    }
}
