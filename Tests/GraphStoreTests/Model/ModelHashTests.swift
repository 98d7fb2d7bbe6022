// Tests of version hashes: equal for equal schemas whatever the declaration order or
// annotations, different whenever the store's shape changes.
import Testing

@testable import GraphStore

@Suite struct ModelHashTests {
    @Test func hashIgnoresOrderUserInfoDefaultsAndRules() throws {
        let first = try ModelBuilder("One")
            .entity("Item") { item in
                item.attribute("a", .string)
                item.attribute("b", .integer32, default: .integer(1))
            }
            .build()
        let second = try ModelBuilder("Two")
            .entity("Item") { item in
                item.attribute("b", .integer32, default: .integer(9), validation: ValidationRules(minimum: 0))
                item.attribute("a", .string, userInfo: ["mappedKeyName": "A"])
                item.userInfo("note", "ignored")
            }
            .build()
        #expect(first.versionHash == second.versionHash)
        #expect(first.entity(named: "Item")?.versionHash == second.entity(named: "Item")?.versionHash)
        #expect(first.versionHash.count == 64)
    }

    /// The hashes stores carry must never change for the same schema: the canonical text and
    /// its SHA-256 are pinned (computed independently of SeedKit).
    @Test func theHashOfAKnownSchemaIsPinned() throws {
        let item = EntityDescription(
            name: "Item", attributes: [AttributeDescription(name: "sku", type: .string, isOptional: false)],
            uniqueConstraints: [["sku"]])
        let model = try ObjectModel(name: "Pinned", entities: [item])
        #expect(
            ModelHasher.canonicalText(of: item)
                == "entity Item\nparent -\nabstract false\nattribute sku string optional=false transient=false"
                + " indexed=false external=false codec=-\nunique sku")
        #expect(model.entities[0].versionHash == "0db1578ea8f985c640a92c3b172bee56624453f758b62009f1a96dbb14bf667a")
        #expect(model.versionHash == "519a0cf80fd9fa05b171132bb4aed7deafa3f2c899bea197662f81775deadfb6")
    }

    @Test func hashChangesWithEveryStoreShapingChange() throws {
        let base = CatalogModel.declaration()
        let baseHash = try base.build().versionHash
        let variants: [ModelBuilder] = [
            base.entity("Extra"),
            ModelBuilder("Catalog").entity("Unit") { $0.attribute("name", .integer64) },
        ]
        for variant in variants {
            #expect(try variant.build().versionHash != baseHash)
        }
        let changed = try ModelBuilder("M").entity("E") { $0.attribute("x", .string, optional: false) }.build()
        let unchanged = try ModelBuilder("M").entity("E") { $0.attribute("x", .string) }.build()
        let indexed = try ModelBuilder("M").entity("E") { $0.attribute("x", .string, indexed: true) }.build()
        let unique = try ModelBuilder("M").entity("E") { e in
            e.attribute("x", .string); e.unique("x")
        }.build()
        let hashes = Set([changed, unchanged, indexed, unique].map(\.versionHash))
        #expect(hashes.count == 4)
    }

    @Test func differencesNameEntityAndProperty() throws {
        let old = try ModelBuilder("M").entity("Item") { $0.attribute("price", .double) }.build()
        let new = try ModelBuilder("M")
            .entity("Item") { $0.attribute("price", .string) }
            .entity("Tag")
            .build()
        let differences = ModelDifference.between(old, new)
        #expect(differences.count == 2)
        #expect(
            differences.contains {
                $0.hasPrefix("Item.price: attribute price double") && $0.contains("→ attribute price string")
            })
        #expect(differences.contains("Tag: entity added"))
    }

    @Test func aNewParentOrAbstractnessIsOneDifference() throws {
        func model(parent: String?, abstract: Bool) throws -> ObjectModel {
            try ModelBuilder("M")
                .entity("Thing")
                .entity("Other")
                .entity("Item", parent: parent, abstract: abstract) { $0.attribute("name", .string) }
                .build()
        }
        let before = try model(parent: "Thing", abstract: false)
        #expect(
            ModelDifference.between(before, try model(parent: "Other", abstract: false)) == [
                "Item.parent: parent Thing → parent Other"
            ])
        #expect(
            ModelDifference.between(before, try model(parent: nil, abstract: true)) == [
                "Item.abstract: abstract false → abstract true", "Item.parent: parent Thing → parent -",
            ])
    }
}

/// Each change that reshapes the store changes both the model hash and the changed entity's
/// version hash; annotations, declaration order and names outside the schema change neither.
@Suite struct ModelHashSensitivityTests {
    /// The knobs of ``model(_:)``: one schema fact each, all at their base value by default.
    struct Shape {
        var name = "Hashes"
        var unitToMany = false
        var unitOrdered = false
        var unitDestination = "Unit"
        var parent: String? = nil
        var noteTransient = false
        var priceType = AttributeType.double
        var uniqueSKU = false
    }

    /// A store-shaping change to the base shape, named for the test report.
    enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case relationshipBecomesToMany
        case relationshipBecomesOrdered
        case relationshipChangesDestination
        case entityGetsAParent
        case entityChangesParent
        case attributeBecomesTransient
        case attributeChangesType
        case attributeChangesIntegerWidth
        case uniqueConstraintAdded

        var testDescription: String { rawValue }

        /// The shape before and after the change.
        var shapes: (before: Shape, after: Shape) {
            var before = Shape()
            var after = Shape()
            switch self {
            case .relationshipBecomesToMany:
                after.unitToMany = true
            case .relationshipBecomesOrdered:
                before.unitToMany = true
                after.unitToMany = true
                after.unitOrdered = true
            case .relationshipChangesDestination:
                after.unitDestination = "Box"
            case .entityGetsAParent:
                after.parent = "Thing"
            case .entityChangesParent:
                before.parent = "Thing"
                after.parent = "Other"
            case .attributeBecomesTransient:
                after.noteTransient = true
            case .attributeChangesType:
                after.priceType = .decimal
            case .attributeChangesIntegerWidth:
                before.priceType = .integer32
                after.priceType = .integer64
            case .uniqueConstraintAdded:
                after.uniqueSKU = true
            }
            return (before, after)
        }
    }

    /// Item (the entity every change touches), its possible destinations Unit and Box, and its
    /// possible parents Thing and Other.
    static func model(_ shape: Shape) throws -> ObjectModel {
        try ModelBuilder(shape.name)
            .entity("Thing") { $0.attribute("label", .string) }
            .entity("Other") { $0.attribute("tag", .string) }
            .entity("Unit") { $0.attribute("name", .string) }
            .entity("Box") { $0.attribute("size", .integer16) }
            .entity("Item", parent: shape.parent) { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("price", shape.priceType)
                item.attribute("note", .string, transient: shape.noteTransient)
                if shape.unitToMany {
                    item.toMany("unit", shape.unitDestination, ordered: shape.unitOrdered)
                } else {
                    item.toOne("unit", shape.unitDestination)
                }
                if shape.uniqueSKU { item.unique("sku") }
            }
            .build()
    }

    @Test(arguments: Change.allCases) func aStoreShapingChangeChangesBothHashes(_ change: Change) throws {
        let before = try Self.model(change.shapes.before)
        let after = try Self.model(change.shapes.after)
        #expect(before.versionHash != after.versionHash)
        let itemBefore = try #require(before.entity(named: "Item"))
        let itemAfter = try #require(after.entity(named: "Item"))
        #expect(itemBefore.versionHash != itemAfter.versionHash)
        // Only Item changed: every other entity keeps its hash.
        for name in ["Thing", "Other", "Unit", "Box"] {
            #expect(before.entity(named: name)?.versionHash == after.entity(named: name)?.versionHash, "\(name)")
        }
        // And the store-compatibility check names the entity.
        #expect(ModelDifference.between(before, after).contains { $0.hasPrefix("Item") })
    }

    @Test func everyChangeGivesADistinctHash() throws {
        var hashes: Set<String> = [try Self.model(Shape()).versionHash]
        for change in Change.allCases {
            hashes.insert(try Self.model(change.shapes.after).versionHash)
        }
        // The base shape and every shape a change reaches: all different.
        #expect(hashes.count == Change.allCases.count + 1)
    }

    /// `a` and `b` have the same model hash, and each entity the same version hash.
    static func expectSameHashes(
        _ a: ObjectModel, _ b: ObjectModel, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(a.versionHash == b.versionHash, sourceLocation: sourceLocation)
        for entity in a.entities {
            #expect(
                b.entity(named: entity.name)?.versionHash == entity.versionHash, "\(entity.name)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func theSameShapeHashesTheSameTwice() throws {
        for change in Change.allCases {
            #expect(try Self.model(change.shapes.after).versionHash == Self.model(change.shapes.after).versionHash)
        }
    }

    @Test func aRenamedModelWithTheSameSchemaKeepsItsHash() throws {
        var renamed = Shape()
        renamed.name = "Renamed"
        let base = try Self.model(Shape())
        let other = try Self.model(renamed)
        #expect(other.name == "Renamed")
        Self.expectSameHashes(base, other)
    }

    @Test func userInfoOnEveryLevelChangesNoHash() throws {
        let plain = try ModelBuilder("M")
            .entity("Unit") { unit in
                unit.attribute("name", .string)
                unit.toMany("items", "Item", inverse: "unit")
            }
            .entity("Item") { item in
                item.attribute("sku", .string)
                item.toOne("unit", "Unit", inverse: "items")
            }
            .build()
        let annotated = try ModelBuilder("M")
            .entity("Unit") { unit in
                unit.attribute("name", .string, userInfo: ["mappedKeyName": "unitName"])
                unit.toMany("items", "Item", inverse: "unit", userInfo: ["relatedByAttribute": "sku"])
                unit.userInfo("note", "kept in the model, not the hash")
            }
            .entity("Item") { item in
                item.attribute("sku", .string, userInfo: ["a": "1", "b": "2"])
                item.toOne("unit", "Unit", inverse: "items", userInfo: ["x": "y"])
                item.userInfo("owner", "catalog team")
            }
            .build()
        Self.expectSameHashes(plain, annotated)
        #expect(annotated.entity(named: "Item")?.declaration.userInfo["owner"] == "catalog team")
    }

    @Test func declarationOrderChangesNoHash() throws {
        let first = try ModelBuilder("M")
            .entity("Unit") { unit in
                unit.attribute("name", .string)
                unit.attribute("code", .integer32)
                unit.toMany("items", "Item", inverse: "unit")
                unit.toMany("spares", "Item")
                unit.unique("name")
                unit.unique("code", "name")
            }
            .entity("Item") { item in
                item.attribute("sku", .string)
                item.attribute("price", .double)
                item.toOne("unit", "Unit", inverse: "items")
            }
            .build()
        let second = try ModelBuilder("M")
            .entity("Item") { item in
                item.toOne("unit", "Unit", inverse: "items")
                item.attribute("price", .double)
                item.attribute("sku", .string)
            }
            .entity("Unit") { unit in
                unit.unique("name", "code")
                unit.unique("name")
                unit.toMany("spares", "Item")
                unit.toMany("items", "Item", inverse: "unit")
                unit.attribute("code", .integer32)
                unit.attribute("name", .string)
            }
            .build()
        Self.expectSameHashes(first, second)
    }

    @Test func deleteRulesCountsDefaultsAndValidationChangeNoHash() throws {
        let first = try ModelBuilder("M")
            .entity("Unit") { unit in
                unit.attribute("name", .string)
                unit.toMany("items", "Item", inverse: "unit")
            }
            .entity("Item") { item in
                item.attribute("qty", .integer32)
                item.toOne("unit", "Unit", inverse: "items")
            }
            .build()
        let second = try ModelBuilder("M")
            .entity("Unit") { unit in
                unit.attribute("name", .string, validation: ValidationRules(minimumLength: 1, maximumLength: 20))
                unit.toMany("items", "Item", inverse: "unit", maxCount: 10, deleteRule: .cascade)
            }
            .entity("Item") { item in
                item.attribute("qty", .integer32, default: .integer(1), validation: ValidationRules(minimum: 0))
                item.toOne("unit", "Unit", inverse: "items", deleteRule: .deny)
            }
            .build()
        #expect(first.versionHash == second.versionHash)
    }

    @Test func aJSONModelFileAndTheBuilderGiveTheSameHash() throws {
        let json = """
            {"name": "FromFile", "entities": {
              "Item": {"relationships": {"unit": {"destination": "Unit", "inverse": "items"}},
                       "attributes": {"price": "double", "sku": {"type": "string", "optional": false}},
                       "unique": [["sku"]]},
              "Unit": {"attributes": {"name": "string"},
                       "relationships": {"items": {"destination": "Item", "inverse": "unit", "toMany": true, "ordered": true}}}}}
            """
        let fromFile = try ModelFile.parse(json, source: "Model.json").objectModel(source: "Model.json")
        let built = try ModelBuilder("FromBuilder")
            .entity("Unit") { unit in
                unit.attribute("name", .string)
                unit.toMany("items", "Item", inverse: "unit", ordered: true)
            }
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("price", .double)
                item.toOne("unit", "Unit", inverse: "items")
                item.unique("sku")
            }
            .build()
        #expect(fromFile.versionHash == built.versionHash)
    }
}
