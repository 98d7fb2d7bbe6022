// Inferred rules for entities, relationships and hierarchies (docs/Migration.md, "Inferred
// rules"; T-REN-1…4, T-REL-1…3, T-ENT-1…2, T-HIE-4): each migration is compared, object by
// object (StoreDiff), with a store built directly in the new model, and keys, entity numbers,
// store UUID and user metadata are checked; refusals leave the store byte for byte as it was.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct InferredStructureTests {
    typealias Support = MigrationTestSupport

    /// Aisle ←→ Item (to-one `aisle`, inverse `items`), Item ←→ Tag (many-to-many `tags`/`items`);
    /// Item, its `name` and its `tags` may have other names, its aisle may be a to-many called
    /// `aisles`, and the tags may be left out (`tags` nil).
    static func shop(item: String = "Item", name: String = "name", tags: String? = "tags", aisles: String? = nil)
        throws -> ObjectModel
    {
        var builder = ModelBuilder("Shop")
            .entity("Aisle") { aisle in
                aisle.attribute("name", .string)
                aisle.toMany("items", item, inverse: aisles ?? "aisle")
            }
            .entity(item) { entity in
                entity.attribute(name, .string)
                entity.attribute("quantity", .integer32)
                if let aisles {
                    entity.toMany(aisles, "Aisle", inverse: "items")
                } else {
                    entity.toOne("aisle", "Aisle", inverse: "items")
                }
                if let tags { entity.toMany(tags, "Tag", inverse: "items") }
            }
        if let tags {
            builder = builder.entity("Tag") { tag in
                tag.attribute("label", .string)
                tag.toMany("items", item, inverse: tags)
            }
        }
        return try builder.build()
    }

    /// Two aisles, four items (Apples and Pears in Fruit, Bread in Bakery, Salt in none), two
    /// tags (fresh: Apples, Bread; sale: Apples, Salt).
    static func fillShop(_ context: ObjectContext) throws {
        try fill(context, item: "Item", name: "name", tags: "tags")
    }

    /// The shop's objects in a model where Item, its `name` and its `tags` may have other names,
    /// and its aisle may be a to-many called `aisles`.
    static func fill(
        _ context: ObjectContext, item itemEntity: String, name: String, tags: String, aisles: String? = nil
    ) throws {
        let fruit = try context.insert("Aisle")
        try fruit.set("name", "Fruit")
        let bakery = try context.insert("Aisle")
        try bakery.set("name", "Bakery")
        let fresh = try context.insert("Tag")
        try fresh.set("label", "fresh")
        let sale = try context.insert("Tag")
        try sale.set("label", "sale")
        let rows: [(String, ManagedObject?, [ManagedObject])] = [
            ("Apples", fruit, [fresh, sale]), ("Pears", fruit, []), ("Bread", bakery, [fresh]), ("Salt", nil, [sale]),
        ]
        for (index, (itemName, aisle, itemTags)) in rows.enumerated() {
            let item = try context.insert(itemEntity)
            try item.set(name, itemName)
            try item.set("quantity", Int64(index + 1))
            if let aisles {
                if let aisle { try item.add(aisle, to: aisles) }
            } else {
                try item.setRelated("aisle", to: aisle)
            }
            for tag in itemTags { try item.add(tag, to: tags) }
        }
    }

    @Test func renamesEntityAttributeAndRelationshipKeepingKeysAndRenumberingEntities() async throws {
        let scratch = try Scratch()
        // Item → Ware moves the entity after Tag in name order: its entity number changes.
        let ware = try Self.shop(item: "Ware", name: "title", tags: "labels")
        let renamed = try Support.renaming(ware, ["Ware": "Item", "Ware.title": "name", "Ware.labels": "tags"])
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.shop(), Self.fillShop, to: renamed,
            expected: { try Self.fill($0, item: "Ware", name: "title", tags: "labels") })
        #expect(
            try Support.keys(of: compared.path).sorted()
                == compared.keysBefore.map { $0.replacingOccurrences(of: "Item", with: "Ware") }.sorted())
        #expect(try Support.rows("SELECT ent FROM Ware GROUP BY ent", in: compared.path) == [["3"]])
        #expect(compared.report.entities["Ware"]?.kept == 4)
        #expect(compared.report.dataDropped == [])
    }

    @Test func aRenamingIdentifierClaimedTwiceIsAmbiguousAndNothingChanges() async throws {
        let scratch = try Scratch()
        let twice = try Support.renaming(
            try ModelBuilder("Shop")
                .entity("Product") { $0.attribute("name", .string) }
                .entity("Ware") { $0.attribute("name", .string) }
                .build(),
            ["Product": "Item", "Ware": "Item"])
        let old = try ModelBuilder("Shop").entity("Item") { $0.attribute("name", .string) }.build()
        let path = try Support.store(at: scratch.file("Shop.sqlite"), model: old) { context in
            try context.insert("Item").set("name", "Apples")
        }
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Support.versions([("Shop", old), ("Shop 2", twice)]))
        }
        guard case .ambiguousRename(let lines) = error.kind else {
            Issue.record("expected ambiguousRename, got \(error.kind)")
            return
        }
        #expect(lines.contains { $0.contains("Product") && $0.contains("Ware") })
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func aToOneBecomesToManyKeepingEveryLink() async throws {
        let scratch = try Scratch()
        // Item.aisle (to-one, inverse to-many) becomes Item.aisles (to-many): a many-to-many.
        let toMany = try Support.renaming(try Self.shop(aisles: "aisles"), ["Item.aisles": "aisle"])
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.shop(), Self.fillShop, to: toMany,
            expected: { try Self.fill($0, item: "Item", name: "name", tags: "tags", aisles: "aisles") })
        #expect(try Support.keys(of: compared.path) == compared.keysBefore)
        #expect(compared.report.dataDropped == [])
    }

    /// Owner(name) with a to-many `pets` (inverse to-one `owner`), or the same with `pets` to-one.
    static func owners(petsToMany: Bool, ordered: Bool = false) throws -> ObjectModel {
        try ModelBuilder("Pets")
            .entity("Owner") { owner in
                owner.attribute("name", .string)
                if petsToMany {
                    owner.toMany("pets", "Pet", inverse: "owner", ordered: ordered)
                } else {
                    owner.toOne("pets", "Pet", inverse: "owner")
                }
            }
            .entity("Pet") { pet in
                pet.attribute("name", .string)
                pet.toOne("owner", "Owner", inverse: "pets")
            }
            .build()
    }

    /// Ann with Rex and Tom (added in that order, so by key), Bob with Kit.
    static func fillOwners(_ context: ObjectContext) throws {
        var pets: [String: ManagedObject] = [:]
        for name in ["Rex", "Tom", "Kit"] {
            let pet = try context.insert("Pet")
            try pet.set("name", name)
            pets[name] = pet
        }
        for (name, owned) in [("Ann", ["Rex", "Tom"]), ("Bob", ["Kit"])] {
            let owner = try context.insert("Owner")
            try owner.set("name", name)
            for pet in owned { try pets[pet].map { try owner.add($0, to: "pets") } }
        }
    }

    @Test func aToManyThatBecomesToOneIsCheckedOnTheDataOrTruncatedOnRequest() async throws {
        let scratch = try Scratch()
        let old = try Self.owners(petsToMany: true)
        let new = try Self.owners(petsToMany: false)
        let versions = try Support.versions([("Pets", old), ("Pets 2", new)])
        let path = try Support.store(at: scratch.file("Pets.sqlite"), model: old, Self.fillOwners)
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions)
        }
        #expect(
            error.kind
                == .dataCheck(DataCheckFailure(rule: .toOneOverflow, subject: "Owner.pets", count: 1, first: "pk 1")))
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])

        var options = MigrationOptions()
        options.truncateToMany = true
        let report = try await Support.migrate(path, versions: versions, options: options)
        let expected = try Support.store(at: scratch.file("Expected.sqlite"), model: new) { context in
            var pets: [String: ManagedObject] = [:]
            for name in ["Rex", "Tom", "Kit"] {
                let pet = try context.insert("Pet")
                try pet.set("name", name)
                pets[name] = pet
            }
            for (name, pet) in [("Ann", "Rex"), ("Bob", "Kit")] {
                let owner = try context.insert("Owner")
                try owner.set("name", name)
                try owner.setRelated("pets", to: pets[pet])
            }
        }
        #expect(try Support.differences(path, expected) == [])
        #expect(report.dataDropped == ["Owner.pets: 1 links (to-many → to-one)"])
    }

    @Test func anUnorderedToManyBecomesOrderedByKey() async throws {
        let scratch = try Scratch()
        // Ann's pets were linked without order; the ordered relationship lists them by key.
        _ = try await Support.migrateAndCompare(
            scratch, from: try Self.owners(petsToMany: true), Self.fillOwners,
            to: try Self.owners(petsToMany: true, ordered: true), expected: Self.fillOwners)
        let path = scratch.file("Store.sqlite")
        let store = try PersistentStore.open(at: path, model: try Self.owners(petsToMany: true, ordered: true))
        let context = try ObjectContext(store: store)
        let ann = try #require(
            try context.fetch(FetchRequest(entityName: "Owner")).first { try $0.get("name", as: String.self) == "Ann" })
        #expect(try ann.relatedObjects("pets").map { try $0.get("name", as: String.self) } == ["Rex", "Tom"])
    }

    @Test func aRemovedEntityDropsItsObjectsAndLinksCounted() async throws {
        let scratch = try Scratch()
        let withoutTags = try Self.shop(tags: nil)
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.shop(), Self.fillShop, to: withoutTags,
            expected: { context in
                var aisles: [String: ManagedObject] = [:]
                for name in ["Fruit", "Bakery"] {
                    let aisle = try context.insert("Aisle")
                    try aisle.set("name", name)
                    aisles[name] = aisle
                }
                for (index, (name, aisle)) in [
                    ("Apples", "Fruit"), ("Pears", "Fruit"), ("Bread", "Bakery"), ("Salt", ""),
                ]
                .enumerated() {
                    let item = try context.insert("Item")
                    try item.set("name", name)
                    try item.set("quantity", Int64(index + 1))
                    try item.setRelated("aisle", to: aisles[aisle])
                }
            })
        #expect(compared.report.dataDropped.contains("Tag: 2 objects"))
        #expect(compared.report.entities["Tag"]?.dropped == 2)
        #expect(compared.report.entities["Item"]?.kept == 4)
    }

    @Test func mergingTwoHierarchiesIsRefused() async throws {
        let scratch = try Scratch()
        let old = try ModelBuilder("Zoo")
            .entity("Cat") { $0.attribute("name", .string) }
            .entity("Dog") { $0.attribute("name", .string) }
            .build()
        let new = try ModelBuilder("Zoo")
            .entity("Animal", abstract: true) { $0.attribute("name", .string) }
            .entity("Cat", parent: "Animal")
            .entity("Dog", parent: "Animal")
            .build()
        let path = try Support.store(at: scratch.file("Zoo.sqlite"), model: old) { context in
            try context.insert("Cat").set("name", "Tom")
            try context.insert("Dog").set("name", "Rex")
        }
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Support.versions([("Zoo", old), ("Zoo 2", new)]))
        }
        guard case .noPath(let from, let to, let changes) = error.kind else {
            Issue.record("expected noPath, got \(error.kind)")
            return
        }
        #expect(from == "Zoo" && to == "Zoo 2")
        #expect(changes.contains("Animal: merges the hierarchies of Cat and Dog"))
        #expect(try Support.bytes(path) == before)
    }

    /// Vehicle(name) with Car(doors) under it.
    static func vehicles() throws -> ObjectModel {
        try ModelBuilder("Garage")
            .entity("Vehicle") { $0.attribute("name", .string) }
            .entity("Car", parent: "Vehicle") { $0.attribute("doors", .integer16) }
            .build()
    }

    /// A vehicle and two cars, with `doors` set on the cars.
    static func fillVehicles(_ context: ObjectContext) throws {
        try context.insert("Vehicle").set("name", "Cart")
        for (name, doors) in [("Mini", 3), ("Volvo", 5)] {
            let car = try context.insert("Car")
            try car.set("name", name)
            try car.set("doors", Int64(doors))
        }
    }

    @Test func aNewParentInTheMiddleOfAHierarchyKeepsEveryObject() async throws {
        let withMotor = try ModelBuilder("Garage")
            .entity("Vehicle") { $0.attribute("name", .string) }
            .entity("Motor", parent: "Vehicle") { $0.attribute("wheels", .integer16, default: .integer(4)) }
            .entity("Car", parent: "Motor") { $0.attribute("doors", .integer16) }
            .build()
        let scratch = try Scratch()
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.vehicles(), Self.fillVehicles, to: withMotor,
            expected: Self.fillVehicles)
        #expect(
            try Support.rows("SELECT pk, wheels FROM Vehicle ORDER BY pk", in: compared.path) == [
                ["1", "nil"], ["2", "4"], ["3", "4"],
            ])
    }

    @Test func aPropertyMovedUpTheHierarchyKeepsItsValues() async throws {
        let movedUp = try ModelBuilder("Garage")
            .entity("Vehicle") { vehicle in
                vehicle.attribute("name", .string)
                vehicle.attribute("doors", .integer16)
            }
            .entity("Car", parent: "Vehicle")
            .build()
        let scratch = try Scratch()
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.vehicles(), Self.fillVehicles, to: movedUp,
            expected: Self.fillVehicles)
        #expect(try Support.keys(of: compared.path) == compared.keysBefore)
    }

    @Test func anEntityMovedOutOfItsHierarchyTakesItsObjectsAlong() async throws {
        let movedOut = try ModelBuilder("Garage")
            .entity("Vehicle") { $0.attribute("name", .string) }
            .entity("Car") { car in
                car.attribute("name", .string)
                car.attribute("doors", .integer16)
            }
            .build()
        let scratch = try Scratch()
        let compared = try await Support.migrateAndCompare(
            scratch, from: try Self.vehicles(), Self.fillVehicles, to: movedOut,
            expected: Self.fillVehicles)
        #expect(
            try Support.rows("SELECT pk, name, doors FROM Car ORDER BY pk", in: compared.path) == [
                ["2", "Mini", "3"], ["3", "Volvo", "5"],
            ])
        #expect(try Support.rows("SELECT pk, name FROM Vehicle", in: compared.path) == [["1", "Cart"]])
    }

    @Test func anInverseAddedThatGivesAToOneTwoOwnersIsAConflict() async throws {
        let scratch = try Scratch()
        let old = try ModelBuilder("Fans")
            .entity("Person") { person in
                person.attribute("name", .string)
                person.toOne("favorite", "Car")
            }
            .entity("Car") { $0.attribute("name", .string) }
            .build()
        let new = try ModelBuilder("Fans")
            .entity("Person") { person in
                person.attribute("name", .string)
                person.toOne("favorite", "Car", inverse: "fan")
            }
            .entity("Car") { car in
                car.attribute("name", .string)
                car.toOne("fan", "Person", inverse: "favorite")
            }
            .build()
        let path = try Support.store(at: scratch.file("Fans.sqlite"), model: old) { context in
            let mini = try context.insert("Car")
            try mini.set("name", "Mini")
            for name in ["Ann", "Bob"] {
                let person = try context.insert("Person")
                try person.set("name", name)
                try person.setRelated("favorite", to: mini)
            }
        }
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Support.versions([("Fans", old), ("Fans 2", new)]))
        }
        guard case .dataCheck(let failure) = error.kind else {
            Issue.record("expected a data check, got \(error.kind)")
            return
        }
        #expect(failure.rule == .inverseConflict && failure.count == 1)
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }
}
