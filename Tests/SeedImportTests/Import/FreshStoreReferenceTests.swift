// References resolve the same in a store the run creates as in one that exists (issue 18,
// points 1 and 12a): a `match` on attributes the destination's source does not key by, a
// destination that is an abstract parent (or a sub-entity whose records are keyed by their
// parent's key), and destinations an earlier source without a key inserted — each run into a new
// store written as rows, a new store written through objects, and an existing empty store, with
// the same objects, links, counts and refused records.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct FreshStoreReferenceTests {
    /// Where a plan runs.
    enum Target: String, CaseIterable, CustomStringConvertible {
        /// A store the run creates, written as rows where the plan allows.
        case newStore
        /// A store the run creates, written through objects.
        case newStoreThroughObjects
        /// A store that exists (empty).
        case existingStore

        var description: String { rawValue }

        /// The options of a run into this target, the store `store` of `model` made ready in
        /// `fixture` (for an existing store: created by importing no record into `entity`, which
        /// has an attribute `name`).
        func options(for fixture: ImportFixture, model: String, store: String, entity: String) async throws
            -> ImportOptions
        {
            var options = ImportOptions()
            switch self {
            case .newStore:
                break
            case .newStoreThroughObjects:
                options.usesRowPath = false
            case .existingStore:
                try fixture.write("nothing.csv", "name\n")
                try fixture.write(
                    "empty.yaml",
                    "model: \(model)\nstore: \(store)\n"
                        + "sources: [{file: nothing.csv, entity: \(entity), attributes: {name: name}}]\n")
                _ = try await fixture.run("empty.yaml")
            }
            return options
        }
    }

    static let model = """
        name: Shop
        entities:
          Product:
            attributes: {sku: string, name: string}
            unique: [[sku]]
            relationships: {lines: {destination: Line, inverse: product, toMany: true}}
          Line:
            attributes: {name: string}
            relationships: {product: {destination: Product, inverse: lines}}
          Tag:
            attributes: {name: string}
            relationships: {items: {destination: Item, inverse: tags, toMany: true}}
          Item:
            attributes: {sku: string, name: string}
            unique: [[sku]]
            relationships: {tags: {destination: Tag, inverse: items, toMany: true}}
          Animal:
            abstract: true
            attributes: {name: {type: string, optional: false}}
            unique: [[name]]
            relationships: {keeper: {destination: Keeper, inverse: animals}}
          Dog: {parent: Animal}
          Cat:
            parent: Animal
            relationships: {toys: {destination: Toy, inverse: cats, toMany: true}}
          Keeper:
            attributes: {name: string}
            relationships: {animals: {destination: Animal, inverse: keeper, toMany: true}}
          Toy:
            attributes: {name: string}
            relationships: {cats: {destination: Cat, inverse: toys, toMany: true}}

        """

    /// A folder with the model and `files`, and the plan `plan.yaml` of `sources` (YAML list
    /// items), which skips bad records when `skip`.
    static func fixture(skip: Bool = false, files: [String: String], sources: [String]) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("Shop.yaml", model)
        for (name, text) in files { try fixture.write(name, text) }
        try fixture.write(
            "plan.yaml",
            "model: Shop.yaml\nstore: Shop.sqlite\n" + (skip ? "onError: skip\n" : "") + "sources:\n"
                + sources.map { "  - \($0)\n" }.joined())
        return fixture
    }

    /// Runs `plan.yaml` of `fixture` into `target`.
    static func run(_ fixture: ImportFixture, into target: Target) async throws -> ImportReport {
        let options = try await target.options(for: fixture, model: "Shop.yaml", store: "Shop.sqlite", entity: "Tag")
        return try await fixture.run("plan.yaml", options: options)
    }

    /// Each refused record as `file:line field: message`.
    static func refused(_ report: ImportReport) -> [String] {
        report.errors.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line) \($0.field ?? "-")" }
    }

    /// A plan whose second source refers to the objects the first wrote, with what it must do.
    enum Case: String, CaseIterable, CustomStringConvertible {
        /// Lines refer to products by name, products are keyed by sku (`missing: create`): Pear
        /// and Apple are found, not created again; Plum is created.
        case matchOnAnotherAttribute
        /// The same with `missing: reject`: only the line naming Plum is refused.
        case matchOnAnotherAttributeRejecting
        /// Keepers refer to the abstract Animal; dogs and cats come from sources of their own:
        /// Bob names an animal no source wrote, and his record is refused whole.
        case abstractDestination
        /// Toys refer to Cat; cats are routed from Animal's source under Animal's key
        /// (`missing: create`): only Felix is new.
        case subEntityDestination
        /// Items refer to tags by name; the tags come from a source without a key (`missing:
        /// create`): red and blue are found, green is created once.
        case keylessDestination
        /// The same with `missing: reject`: the items naming green are refused.
        case keylessDestinationRejecting

        var description: String { rawValue }

        /// The files, and the sources of the plan (YAML list items).
        var plan: (files: [String: String], sources: [String]) {
            let create = rawValue.hasSuffix("Rejecting") ? "reject" : "create"
            switch self {
            case .matchOnAnotherAttribute, .matchOnAnotherAttributeRejecting:
                return (
                    [
                        "products.csv": "sku,name\nP1,Apple\nP2,Pear\n",
                        "lines.csv": "name,product\nfirst,Pear\nsecond,Apple\nthird,Plum\nfourth,Pear\n",
                    ],
                    [
                        "{file: products.csv, entity: Product, key: [sku]}",
                        "{file: lines.csv, entity: Line, relationships: {product: {match: name, missing: \(create)}}}",
                    ]
                )
            case .abstractDestination:
                return (
                    [
                        "dogs.csv": "name\nRex\nFido\n", "cats.csv": "name\nTom\nKit\n",
                        "keepers.csv": "name,animals\nAnn,Rex;Tom\nBob,Fido;Nobody\nCid,Kit\n",
                    ],
                    [
                        "{file: dogs.csv, entity: Dog, key: [name]}", "{file: cats.csv, entity: Cat, key: [name]}",
                        "{file: keepers.csv, entity: Keeper, relationships: {animals: {split: \";\", missing: reject}}}",
                    ]
                )
            case .subEntityDestination:
                return (
                    [
                        "animals.csv": "kind,name\nDog,Rex\nCat,Tom\nCat,Kit\n",
                        "toys.csv": "name,cats\nball,Tom\nmouse,Tom;Kit\nyarn,Felix\n",
                    ],
                    [
                        "{file: animals.csv, entity: Animal, entityField: kind, key: [name]}",
                        "{file: toys.csv, entity: Toy, relationships: {cats: {split: \";\", missing: create}}}",
                    ]
                )
            case .keylessDestination, .keylessDestinationRejecting:
                return (
                    [
                        "tags.csv": "name\nred\nblue\n",
                        "items.csv": "sku,name,tags\nA,Apple,red;green\nB,Pear,blue\nC,Plum,green;red\n",
                    ],
                    [
                        "{file: tags.csv, entity: Tag, attributes: {name: name}}",
                        "{file: items.csv, entity: Item, key: [sku], relationships: "
                            + "{tags: {split: \";\", match: name, missing: \(create)}}}",
                    ]
                )
            }
        }

        /// What the run inserts, per entity.
        var inserted: [String: Int] {
            switch self {
            case .matchOnAnotherAttribute: ["Product": 3, "Line": 4]
            case .matchOnAnotherAttributeRejecting: ["Product": 2, "Line": 3]
            case .abstractDestination: ["Dog": 2, "Cat": 2, "Keeper": 2]
            case .subEntityDestination: ["Cat": 3, "Dog": 1, "Toy": 3]
            case .keylessDestination: ["Tag": 3, "Item": 3]
            case .keylessDestinationRejecting: ["Tag": 2, "Item": 1]
            }
        }

        /// The records the run refuses, `file:line field`, in order.
        var refused: [String] {
            switch self {
            case .matchOnAnotherAttributeRejecting: ["lines.csv:4 product"]
            case .abstractDestination: ["keepers.csv:3 animals"]
            case .keylessDestinationRejecting: ["items.csv:2 tags", "items.csv:4 tags"]
            case .matchOnAnotherAttribute, .subEntityDestination, .keylessDestination: []
            }
        }

        /// The objects of some entities after the run (EntityFieldImportTests.objects).
        var objects: [String: [String]] {
            switch self {
            case .matchOnAnotherAttribute:
                [
                    "Product": [
                        "Product name=Apple sku=P1 lines=[second]", "Product name=Pear sku=P2 lines=[first,fourth]",
                        "Product name=Plum lines=[third]",
                    ],
                    "Line": [
                        "Line name=first product=[Pear]", "Line name=fourth product=[Pear]",
                        "Line name=second product=[Apple]", "Line name=third product=[Plum]",
                    ],
                ]
            case .matchOnAnotherAttributeRejecting:
                [
                    "Product": [
                        "Product name=Apple sku=P1 lines=[second]", "Product name=Pear sku=P2 lines=[first,fourth]",
                    ]
                ]
            case .abstractDestination:
                [
                    "Keeper": ["Keeper name=Ann animals=[Rex,Tom]", "Keeper name=Cid animals=[Kit]"],
                    "Animal": [
                        "Dog name=Fido keeper=[]", "Cat name=Kit keeper=[Cid] toys=[]", "Dog name=Rex keeper=[Ann]",
                        "Cat name=Tom keeper=[Ann] toys=[]",
                    ],
                ]
            case .subEntityDestination:
                [
                    "Toy": ["Toy name=ball cats=[Tom]", "Toy name=mouse cats=[Tom,Kit]", "Toy name=yarn cats=[Felix]"],
                    "Cat": [
                        "Cat name=Felix keeper=[] toys=[yarn]", "Cat name=Kit keeper=[] toys=[mouse]",
                        "Cat name=Tom keeper=[] toys=[ball,mouse]",
                    ],
                ]
            case .keylessDestination:
                [
                    "Tag": [
                        "Tag name=blue items=[Pear]", "Tag name=green items=[Apple,Plum]",
                        "Tag name=red items=[Apple,Plum]",
                    ]
                ]
            case .keylessDestinationRejecting:
                ["Tag": ["Tag name=blue items=[Pear]", "Tag name=red items=[]"]]
            }
        }

        /// A folder with the model, the files and `plan.yaml` (skipping bad records where some are refused).
        func fixture() throws -> ImportFixture {
            try FreshStoreReferenceTests.fixture(skip: !refused.isEmpty, files: plan.files, sources: plan.sources)
        }
    }

    @Test(arguments: Case.allCases, Target.allCases)
    func referencesResolveTheSameInEveryStore(_ example: Case, target: Target) async throws {
        let fixture = try example.fixture()
        let report = try await Self.run(fixture, into: target)
        #expect(
            Dictionary(uniqueKeysWithValues: example.inserted.keys.map { ($0, report.entities[$0]?.inserted ?? 0) })
                == example.inserted)
        #expect(Self.refused(report) == example.refused)
        for (entity, expected) in example.objects {
            #expect(try EntityFieldImportTests.objects(fixture.path("Shop.sqlite"), entity) == expected, "\(entity)")
        }
    }

    // MARK: - The key index

    @Test func theKeyIndexLearnsOnlyLookupsWhoseRowsItSeesAll() throws {
        /// Whether the key index learns each lookup of `plan`, by its entity's name.
        func indexed(_ plan: ImportPlan) throws -> [String: Bool] {
            let model = try ValidatedPlan.model(for: plan)
            let mappings = try PlanMappings(plan: plan, model: model, planFile: "plan.yaml")
            return Dictionary(
                uniqueKeysWithValues: zip(
                    mappings.lookups.map { model.entities[$0.entityIndex].name }, mappings.indexedLookups))
        }
        // Items by sku (only the items source writes items); tags by name are written also by
        // the keyless tags source, which the index does not learn.
        let tagged = try PlanFile.load(from: try Case.keylessDestination.fixture().path("plan.yaml")).plan
        #expect(try indexed(tagged) == ["Item": true, "Tag": false])
        // The catalog's lookups are all learnt, so its rows are still written as they load.
        let catalog = try PlanFile.load(
            from: ImportFixture.repository.appendingPathComponent("SeedData/Catalog/catalog-csv.yaml").path
        ).plan
        #expect(
            try indexed(catalog) == [
                "Item": true, "Unit": true, "Location": true, "Tag": true, "ShoppingList": true,
            ])
    }
}
