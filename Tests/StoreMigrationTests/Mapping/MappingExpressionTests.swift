// Mapping-model expressions beyond the real files' (docs/Migration.md, "Mapping models"): a
// source filter predicate admits only some objects, a key path through a to-one reads the related
// object's value, a constant fills every object, a generated relationship expression keeps the
// links, and a constant that does not fit its attribute is refused before anything is written.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct MappingExpressionTests {
    typealias Support = MigrationTestSupport
    typealias Run = MigrationRunTests

    /// Shop → Shop 2 of MigrationRunTests: items with a note, named after their aisle, rated `rating`.
    static func mapping(rating: MappingConstant) -> MappingModel {
        let version = { (name: String) in MappingModelVersion(path: "Shop.xcdatamodeld/\(name).xcdatamodel") }
        return MappingModel(
            source: version("Shop"), destination: version("Shop 2"),
            entityMappings: [
                EntityMapping(
                    name: "AisleToShelf", kind: .transform, sourceEntity: "Aisle", destinationEntity: "Shelf",
                    number: 1,
                    attributeMappings: [PropertyMapping(name: "name")],
                    relationshipMappings: [PropertyMapping(name: "items", generatesExpression: true)]),
                EntityMapping(
                    name: "ItemToItem", kind: .transform, sourceEntity: "Item", destinationEntity: "Item", number: 2,
                    attributeMappings: [
                        PropertyMapping(
                            name: "name", valueExpression: .keyPath(variable: "source", ["aisle", "name"])),
                        PropertyMapping(name: "rating", valueExpression: .constant(rating)),
                    ],
                    relationshipMappings: [PropertyMapping(name: "aisle", generatesExpression: true)],
                    sourceFilterPredicate: "note != nil"),
            ])
    }

    @Test func aFilterAKeyPathThroughAToOneAConstantAndGeneratedLinks() async throws {
        let scratch = try Scratch()
        let path = try Run.store(scratch)
        let report = try await Support.migrate(
            path, versions: try Run.versions(), mappings: [Self.mapping(rating: .integer(7))],
            options: {
                var options = MigrationOptions(); options.batchSize = 4; return options
            }())
        // Items 0, 3, …, 39 (keys 1, 4, …, 40) have a note; item i is in aisle i % 4 (key i % 4 + 1).
        let expected = stride(from: 0, to: 40, by: 3).map { index in
            ["\(index + 1)", "Aisle \(index % 4)", "7", "\(index % 4 + 1)"]
        }
        #expect(try Support.rows("SELECT pk, name, rating, aisle FROM Item ORDER BY pk", in: path) == expected)
        #expect(report.entities["Item"]?.kept == 14 && report.entities["Shelf"]?.kept == 4)
        let store = try PersistentStore.open(at: path, model: try Run.version2())
        let context = try ObjectContext(store: store)
        for shelf in try context.fetch(FetchRequest(entityName: "Shelf")) {
            let name = try #require(try shelf.get("name", as: String.self))
            let items = try shelf.relatedObjects("items").map { try $0.get("name", as: String.self) }
            #expect(!items.isEmpty && items.allSatisfy { $0 == name })
        }
    }

    @Test func aConstantThatDoesNotFitItsAttributeIsRefusedBeforeWriting() async throws {
        let scratch = try Scratch()
        let path = try Run.store(scratch)
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(
                path, versions: try Run.versions(), mappings: [Self.mapping(rating: .string("many"))])
        }
        #expect(error.description.contains("ItemToItem") && error.description.contains("rating"))
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }
}
