// Migration policies beyond finding and linking (docs/Migration.md, "Migration policies"): a
// policy that makes the destination objects itself (`createsDestinations` false: LoopKit's
// DeletedCarbObject policy inserts and associates), and a policy function
// `FUNCTION($entityPolicy, "gramsFrom:", $source.grams)` giving an attribute's value.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct PolicyFunctionTests {
    typealias Support = MigrationTestSupport
    typealias Carbs = TwoSourcesMappingTests

    /// Doubles the grams through a policy function.
    struct DoublingPolicy: MigrationPolicy {
        func value(
            ofFunction selector: String, arguments: [AttributeValue?], for source: MigrationSourceObject,
            in context: MigrationPolicyContext
        ) throws -> AttributeValue? {
            guard selector == "gramsFrom:", case .double(let grams)?? = arguments.first else {
                throw MigrationPolicyError("unexpected \(selector)")
            }
            return .double(grams * 2)
        }
    }

    /// Makes a deleted entry's CachedCarbObject itself, its anchor key offset by 1000.
    struct DeletedCarbPolicy: MigrationPolicy {
        var createsDestinations: Bool { false }

        func createDestinations(for carb: MigrationSourceObject, in context: MigrationPolicyContext) throws {
            guard case .integer(let counter)? = carb["modificationCounter"] else { return }
            let made = try context.insert(
                "CachedCarbObject",
                values: ["anchorKey": .integer(counter + 1000), "grams": carb["grams"], "deleted": .boolean(true)])
            try context.associate(carb, with: made)
        }
    }

    static func mappingModel() -> MappingModel {
        let version = { (name: String) in MappingModelVersion(path: "Model.xcdatamodeld/\(name).xcdatamodel") }
        let doubled = MappingExpression.function(
            target: .variable("entityPolicy"), selector: "gramsFrom:",
            arguments: [.keyPath(variable: "source", ["grams"])])
        return MappingModel(
            source: version("Modelv2"), destination: version("Modelv3"),
            entityMappings: [
                EntityMapping(
                    name: "CachedCarbObjectToCachedCarbObject", kind: .transform, sourceEntity: "CachedCarbObject",
                    destinationEntity: "CachedCarbObject", number: 1, policyClassName: "Doubling",
                    attributeMappings: [
                        PropertyMapping(
                            name: "anchorKey", valueExpression: .keyPath(variable: "source", ["modificationCounter"])),
                        PropertyMapping(name: "grams", valueExpression: doubled),
                    ]),
                EntityMapping(
                    name: "DeletedCarbObjectToCachedCarbObject", kind: .transform, sourceEntity: "DeletedCarbObject",
                    destinationEntity: "CachedCarbObject", number: 2,
                    policyClassName: "LoopKit.DeletedCarbObjectv3EntityMigrationPolicy"),
            ])
    }

    @Test func aPolicyFunctionGivesValuesAndAPolicyMakesItsOwnObjects() async throws {
        let scratch = try Scratch()
        let path = try Support.store(at: scratch.file("Carbs.sqlite"), model: try Carbs.version2()) { context in
            for (entity, counter, grams) in [
                ("CachedCarbObject", 10, 1.5), ("CachedCarbObject", 11, 2.0), ("DeletedCarbObject", 20, 7.5),
                ("DeletedCarbObject", 21, 8.0),
            ] {
                let carb = try context.insert(entity)
                try carb.set("modificationCounter", Int64(counter))
                try carb.set("grams", grams)
            }
        }
        var policies = MigrationPolicies()
        policies.register("Doubling", DoublingPolicy())
        policies.register("LoopKit.DeletedCarbObjectv3EntityMigrationPolicy", DeletedCarbPolicy())
        let report = try await Support.migrate(
            path,
            versions: try Support.versions([("Modelv2", try Carbs.version2()), ("Modelv3", try Carbs.version3())]),
            mappings: [Self.mappingModel()], policies: policies)
        #expect(
            try Support.rows("SELECT pk, anchorKey, grams, deleted FROM CachedCarbObject ORDER BY pk", in: path) == [
                ["1", "10", "3.0", "0"], ["2", "11", "4.0", "0"], ["3", "1020", "7.5", "1"], ["4", "1021", "8.0", "1"],
            ])
        #expect(report.entities["CachedCarbObject"] == MigrationReport.EntityCounts(kept: 2, created: 2, dropped: 0))
    }
}
