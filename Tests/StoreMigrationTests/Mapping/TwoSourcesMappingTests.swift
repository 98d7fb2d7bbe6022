// Two entity mappings writing one destination entity (fixture F7's case, LoopKit's Modelv3,
// whose files are not among the fixtures: built here with SeedKit models and a mapping model in
// Swift): cached and deleted carb entries both become CachedCarbObject. The first mapping (by
// number) keeps its keys, the second's objects get fresh ones after them in source key order;
// `anchorKey` comes from `modificationCounter`; a constant marks the deleted ones; the first
// mapping's module-qualified policy class is found by its short name.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct TwoSourcesMappingTests {
    typealias Support = MigrationTestSupport

    static func version2() throws -> ObjectModel {
        try ModelBuilder("Model")
            .entity("CachedCarbObject") { carb in
                carb.attribute("modificationCounter", .integer64)
                carb.attribute("grams", .double)
            }
            .entity("DeletedCarbObject") { carb in
                carb.attribute("modificationCounter", .integer64)
                carb.attribute("grams", .double)
            }
            .build()
    }

    static func version3() throws -> ObjectModel {
        try ModelBuilder("Model")
            .entity("CachedCarbObject") { carb in
                carb.attribute("anchorKey", .integer64)
                carb.attribute("grams", .double)
                carb.attribute("deleted", .boolean, optional: false, default: .boolean(false))
            }
            .build()
    }

    static func mappingModel() -> MappingModel {
        let version = { (name: String) in
            MappingModelVersion(path: "LoopKit/Persistence/Model.xcdatamodeld/\(name).xcdatamodel")
        }
        let anchorKey = PropertyMapping(
            name: "anchorKey", valueExpression: .keyPath(variable: "source", ["modificationCounter"]))
        return MappingModel(
            source: version("Modelv2"), destination: version("Modelv3"),
            entityMappings: [
                EntityMapping(
                    name: "CachedCarbObjectToCachedCarbObject", kind: .transform, sourceEntity: "CachedCarbObject",
                    destinationEntity: "CachedCarbObject", number: 1,
                    policyClassName: "LoopKit.CachedCarbObjectv3EntityMigrationPolicy",
                    attributeMappings: [anchorKey, PropertyMapping(name: "grams")]),
                EntityMapping(
                    name: "DeletedCarbObjectToCachedCarbObject", kind: .transform, sourceEntity: "DeletedCarbObject",
                    destinationEntity: "CachedCarbObject", number: 2,
                    attributeMappings: [
                        anchorKey, PropertyMapping(name: "grams"),
                        PropertyMapping(name: "deleted", valueExpression: .constant(.boolean(true))),
                    ]),
            ])
    }

    /// Rounds each cached entry's grams up to a whole number.
    struct RoundingPolicy: MigrationPolicy {
        func createDestinations(for carb: MigrationSourceObject, in context: MigrationPolicyContext) throws {
            guard case .double(let grams)? = carb["grams"] else { return }
            for destination in try context.destinations(of: carb) {
                try context.set("grams", to: .double(grams.rounded(.up)), on: destination)
            }
        }
    }

    @Test func bothSourcesFillOneEntityTheSecondWithFreshKeys() async throws {
        let scratch = try Scratch()
        let path = try Support.store(at: scratch.file("Carbs.sqlite"), model: try Self.version2()) { context in
            for (counter, grams) in [(10, 1.5), (11, 2.25), (12, 3.0)] {
                let carb = try context.insert("CachedCarbObject")
                try carb.set("modificationCounter", Int64(counter))
                try carb.set("grams", grams)
            }
            for (counter, grams) in [(20, 7.5), (21, 8.0)] {
                let carb = try context.insert("DeletedCarbObject")
                try carb.set("modificationCounter", Int64(counter))
                try carb.set("grams", grams)
            }
        }
        var policies = MigrationPolicies()
        policies.register("CachedCarbObjectv3EntityMigrationPolicy", RoundingPolicy())
        let report = try await Support.migrate(
            path, versions: try Support.versions([("Modelv2", try Self.version2()), ("Modelv3", try Self.version3())]),
            mappings: [Self.mappingModel()], policies: policies)
        #expect(report.entities["CachedCarbObject"] == MigrationReport.EntityCounts(kept: 3, created: 2, dropped: 0))
        #expect(
            try Support.rows("SELECT pk, anchorKey, grams, deleted FROM CachedCarbObject ORDER BY pk", in: path) == [
                ["1", "10", "2.0", "0"], ["2", "11", "3.0", "0"], ["3", "12", "3.0", "0"], ["4", "20", "7.5", "1"],
                ["5", "21", "8.0", "1"],
            ])
        let store = try PersistentStore.open(at: path, model: try Self.version3())
        #expect(try ObjectContext(store: store).count(for: FetchRequest(entityName: "CachedCarbObject")) == 5)
    }
}
