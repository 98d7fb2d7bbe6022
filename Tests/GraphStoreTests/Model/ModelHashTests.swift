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
}
