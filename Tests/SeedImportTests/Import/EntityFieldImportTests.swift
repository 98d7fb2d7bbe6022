// `entityField`: records routed to the sub-entity they name (SeedData/Zoo: an abstract Animal,
// Dog and Cat), with each sub-entity's own attributes, through the row path and the object path
// alike; records naming no such entity refused with their position; a key that cannot change
// its object's entity; nested records routed too. And the run identity (`key: [object-id]`,
// `match: object-id`) that links objects without a unique key, in a new store and in one that
// holds data.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct EntityFieldImportTests {
    /// A folder with the zoo sample (model, animals.csv, visits.csv, zoo.yaml).
    static func zoo() throws -> ImportFixture {
        let fixture = try ImportFixture()
        for file in ["Zoo.yaml", "animals.csv", "visits.csv", "zoo.yaml"] {
            try fixture.copy("SeedData/Zoo/" + file, as: file)
        }
        return fixture
    }

    /// Every object of `entity` as `Entity name attribute=value … relationship=[keys]`, by name
    /// (or by day for visits): its entity's own attributes and relationships, so each sub-entity
    /// shows what it has.
    static func objects(_ store: String, _ entity: String, by attribute: String = "name") throws -> [String] {
        let context = try ObjectContext(store: try PersistentStore.open(at: store))
        let request = FetchRequest(entityName: entity, sortDescriptors: [FetchSortDescriptor(attribute)])
        return try context.fetch(request).map { object in
            var parts = [object.entity.name]
            for property in object.entity.attributes {
                if let value = try object.value(at: property.index) { parts.append("\(property.name)=\(value)") }
            }
            for relationship in object.entity.relationships {
                let destinations =
                    relationship.isToMany
                    ? try object.relatedObjects(at: relationship.index)
                    : try object.related(at: relationship.index).map { [$0] } ?? []
                let names = try destinations.map { destination in
                    try destination.get(destination.entity.name == "Visit" ? "note" : "name", as: String.self) ?? "?"
                }
                parts.append("\(relationship.name)=[\(names.joined(separator: ","))]")
            }
            return parts.joined(separator: " ")
        }
    }

    /// The zoo's animals (Kitty's visit has no note).
    static let animals = [
        "Dog name=Fido breed=Beagle keeper=[Bob] visits=[]",
        "Cat born=2021-07-15T00:00:00Z name=Kitty indoor=false lives=7 keeper=[Bob] visits=[?]",
        "Dog born=2020-05-01T00:00:00Z name=Rex breed=Collie keeper=[Ann] visits=[first check,vaccine]",
        "Cat born=2019-01-02T00:00:00Z name=Tom indoor=true lives=9 keeper=[Ann] visits=[teeth]",
    ]

    @Test func recordsBecomeTheSubEntityTheyName() async throws {
        let fixture = try Self.zoo()
        let report = try await fixture.run("zoo.yaml")
        #expect(report.entities["Dog"]?.inserted == 2 && report.entities["Cat"]?.inserted == 2)
        #expect(report.entities["Animal"] == nil && report.entities["Visit"]?.inserted == 4)
        let animals = try Self.objects(fixture.path("Zoo.sqlite"), "Animal")
        #expect(animals == Self.animals, "\(animals)")
        // Running it again finds every animal by its key, whichever sub-entity it is (visits,
        // which have no key, are inserted again).
        let again = try await fixture.run("zoo.yaml")
        #expect(again.entities["Dog"]?.unchanged == 2 && again.entities["Cat"]?.unchanged == 2)
        #expect(again.entities["Visit"]?.inserted == 4)
        #expect(try Self.objects(fixture.path("Zoo.sqlite"), "Animal").count == 4)
    }

    @Test(arguments: [true, false])
    func theRowPathRoutesRecordsAsObjectsDo(rowPath: Bool) async throws {
        let fixture = try Self.zoo()
        let plan =
            "model: Zoo.yaml\nstore: Zoo.sqlite\nsources: [{file: animals.csv, entity: Animal, entityField: kind, key: [name]}]\n"
        try fixture.write("animals.yaml", plan)
        let file = try PlanFile.load(from: fixture.path("animals.yaml"))
        let model = try ValidatedPlan.model(for: file.plan)
        let compiled = try MappingCompiler(model: model, planFile: "animals.yaml").compile(
            file.plan.sources[0].mapping, path: "sources[0]", listSeparator: ";")
        let layout = StoreLayout(model: model, rules: SeedKitLayout())
        #expect(RowPathRules.admit([compiled], layout: layout))
        var options = ImportOptions()
        options.usesRowPath = rowPath
        _ = try await fixture.run("animals.yaml", options: options)
        #expect(
            try Self.objects(fixture.path("Zoo.sqlite"), "Animal")
                == Self.animals.map {
                    $0.replacingOccurrences(of: #" visits=\[.*\]"#, with: " visits=[]", options: .regularExpression)
                })
    }

    @Test func aRecordNamingNoConcreteSubEntityIsRefusedWithItsPosition() async throws {
        let fixture = try Self.zoo()
        try fixture.write(
            "animals.csv",
            "kind,name,born,breed,indoor,lives,keeper\nDog,Rex,,Collie,,,\nBird,Tweety,,,,,\nAnimal,Generic,,,,,\n"
                + ",Nobody,,,,,\nKeeper,Ann,,,,,\nCat,Tom,,,,,\n")
        try fixture.write(
            "plan.yaml",
            """
            model: Zoo.yaml
            store: Zoo.sqlite
            onError: skip
            rejects: rejects.jsonl
            sources: [{file: animals.csv, entity: Animal, entityField: kind, key: [name]}]
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Dog"]?.inserted == 1 && report.entities["Cat"]?.inserted == 1)
        #expect(
            report.errors.map(\.description) == [
                "\(fixture.path("animals.csv")):3:1 (byte 60, record 2) field kind: 'Bird' is not Animal or one of its concrete sub-entities (Cat, Dog)",
                "\(fixture.path("animals.csv")):4:1 (byte 77, record 3) field kind: 'Animal' is not Animal or one of its concrete sub-entities (Cat, Dog)",
                "\(fixture.path("animals.csv")):5:1 (byte 97, record 4) field kind: the record names no entity: kind must be one of Cat, Dog",
                "\(fixture.path("animals.csv")):6:1 (byte 110, record 5) field kind: 'Keeper' is not Animal or one of its concrete sub-entities (Cat, Dog)",
            ])
        #expect(report.errors.map(\.value) == ["Bird", "Animal", "", "Keeper"])
        let rejects = try String(contentsOfFile: fixture.path("rejects.jsonl"), encoding: .utf8)
        #expect(rejects.split(separator: "\n").count == 4)
    }

    @Test func aKeyCannotChangeTheEntityOfItsObject() async throws {
        let fixture = try Self.zoo()
        _ = try await fixture.run("zoo.yaml")
        try fixture.write("animals.csv", "kind,name,born,breed,indoor,lives,keeper\nCat,Rex,,,true,,\n")
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("zoo.yaml") }
        #expect(
            failure.reason.hasSuffix(
                "animals.csv:2:1 (byte 41, record 1) field name: the Dog with key Rex cannot become a Cat"))
        #expect(try Self.objects(fixture.path("Zoo.sqlite"), "Animal") == Self.animals)
        // In a store the run creates, within one batch.
        let fresh = try Self.zoo()
        try fresh.write("animals.csv", "kind,name,born,breed,indoor,lives,keeper\nDog,Rex,,,,,\nCat,Rex,,,true,,\n")
        let again = try await #require(throws: ImportFailure.self) { try await fresh.run("zoo.yaml") }
        #expect(
            again.reason.hasSuffix(
                "animals.csv:3:1 (byte 54, record 2) field name: the Dog with key Rex cannot become a Cat"))
    }

    @Test func nestedRecordsAreRoutedToo() async throws {
        let fixture = try Self.zoo()
        try fixture.write(
            "keepers.json",
            """
            [{"name": "Ann", "animals": [{"type": "Dog", "name": "Rex", "breed": "Collie"},
                                         {"type": "Cat", "name": "Tom", "lives": 9}]},
             {"name": "Bob", "animals": [{"type": "Cat", "name": "Kitty", "indoor": true}, {"type": "Fish", "name": "Nemo"}]}]
            """)
        try fixture.write(
            "plan.yaml",
            """
            model: Zoo.yaml
            store: Zoo.sqlite
            onError: skip
            sources:
              - file: keepers.json
                entity: Keeper
                key: [name]
                attributes: {name: name}
                relationships:
                  animals: {nested: {entity: Animal, entityField: type, key: [name]}}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.errors.map(\.message) == ["'Fish' is not Animal or one of its concrete sub-entities (Cat, Dog)"])
        #expect(report.errors.first?.line == 3)
        // Bob's record is refused whole, Kitty with it.
        #expect(
            try Self.objects(fixture.path("Zoo.sqlite"), "Animal") == [
                "Dog name=Rex breed=Collie keeper=[Ann] visits=[]",
                "Cat name=Tom indoor=false lives=9 keeper=[Ann] visits=[]",
            ])
        #expect(try Self.objects(fixture.path("Zoo.sqlite"), "Keeper") == ["Keeper name=Ann animals=[Rex,Tom]"])
    }

    /// Toys that refer to cats — a sub-entity whose key (`name`) its abstract parent declares —
    /// and animals routed by `kind`, in a plan that imports the animals first.
    static func toys() throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write(
            "Toys.yaml",
            """
            name: Toys
            entities:
              Animal:
                abstract: true
                attributes: {name: {type: string, optional: false}}
                unique: [[name]]
              Dog: {parent: Animal}
              Cat:
                parent: Animal
                relationships: {toys: {destination: Toy, inverse: cats, toMany: true}}
              Toy:
                attributes: {label: string}
                relationships: {cats: {destination: Cat, inverse: toys, toMany: true}}

            """)
        try fixture.write("animals.csv", "kind,name\nDog,Rex\nCat,Tom\nCat,Kit\n")
        try fixture.write("toys.csv", "label,cats\nball,Tom\nmouse,Tom;Kit\n")
        try fixture.write(
            "toys.yaml",
            """
            model: Toys.yaml
            store: Toys.sqlite
            sources:
              - {file: animals.csv, entity: Animal, entityField: kind, key: [name]}
              - {file: toys.csv, entity: Toy, relationships: {cats: {split: ";", missing: reject}}}

            """)
        return fixture
    }

    static let toysLinked = ["Toy label=ball cats=[Tom]", "Toy label=mouse cats=[Tom,Kit]"]

    @Test func aReferenceToASubEntityFindsARoutedRecordInAStoreThatExists() async throws {
        let fixture = try Self.toys()
        try fixture.write("none.csv", "kind,name\n")
        try fixture.write(
            "empty.yaml",
            "model: Toys.yaml\nstore: Toys.sqlite\nsources: [{file: none.csv, entity: Animal, entityField: kind, key: [name]}]\n"
        )
        _ = try await fixture.run("empty.yaml")
        let report = try await fixture.run("toys.yaml")
        #expect(report.entities["Toy"]?.inserted == 2 && report.errors.isEmpty)
        #expect(try Self.objects(fixture.path("Toys.sqlite"), "Toy", by: "label") == Self.toysLinked)
    }

    @Test func aReferenceToASubEntityFindsARoutedRecordInANewStore() async throws {
        let fixture = try Self.toys()
        // In a store the run creates, routed records are indexed under their source entity's key
        // (Animal by name) while the reference looks up Cat by name: it resolves after the load,
        // as on a store that exists.
        let report = try await fixture.run("toys.yaml")
        #expect(report.entities["Toy"]?.inserted == 2 && report.errors.isEmpty)
        #expect(try Self.objects(fixture.path("Toys.sqlite"), "Toy", by: "label") == Self.toysLinked)
    }
}
