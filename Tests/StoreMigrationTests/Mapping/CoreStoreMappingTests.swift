// Mapping models on real files (fixture F6): CoreStore's EvolutionDemo, V1 → V2 by
// `Advanced.EvolutionDemo.V2.FromV1` (an expression `$source.numberOfFlagella`, a constant TRUE,
// and the policy class `Advanced_EvolutionDemo_V2_FromV1MigrationPolicy`, registered here as a
// test policy setting `hasTail` and `hasVertebrae`), and back by `…V1.FromV2` only when an explicit
// chain names that path; without it a V2 store with target V1 is newer than the app.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct CoreStoreMappingTests {
    typealias Support = MigrationTestSupport

    static let folder = Support.fixtures.appendingPathComponent("CoreStore/EvolutionDemo")

    static func versions() throws -> ModelVersionSet {
        try ModelVersionSet.load(from: folder.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld").path)
    }

    static func mapping(_ name: String) throws -> MappingModel {
        try MappingModelReader.readMappingModel(at: folder.appendingPathComponent("\(name).xcmappingmodel"))
    }

    /// The test's policy: a tail for even DNA codes, vertebrae for more than two flagella.
    struct EvolutionPolicy: MigrationPolicy {
        func createDestinations(for creature: MigrationSourceObject, in context: MigrationPolicyContext) throws {
            guard case .integer(let dna)? = creature["dnaCode"],
                case .integer(let flagella)? = creature["numberOfFlagella"],
                let destination = try context.destinations(of: creature).first
            else { throw MigrationPolicyError("creature \(creature.key) without values") }
            try context.set("hasTail", to: .boolean(dna % 2 == 0), on: destination)
            try context.set("hasVertebrae", to: .boolean(flagella > 2), on: destination)
        }
    }

    static let creatures: [(dna: Int64, flagella: Int64)] = [(10, 1), (11, 3), (12, 4)]

    @Test func version1ToVersion2RunsExpressionsConstantsAndThePolicy() async throws {
        let scratch = try Scratch()
        let versions = try Self.versions()
        let v1 = try versions.model(named: "Advanced.EvolutionDemo.V1")
        let path = try Support.store(at: scratch.file("Evolution.sqlite"), model: v1) { context in
            for creature in Self.creatures {
                let object = try context.insert("Creature")
                try object.set("dnaCode", creature.dna)
                try object.set("numberOfFlagella", creature.flagella)
            }
        }
        var policies = MigrationPolicies()
        policies.register("Advanced_EvolutionDemo_V2_FromV1MigrationPolicy", EvolutionPolicy())
        var options = MigrationOptions()
        options.target = "Advanced.EvolutionDemo.V2"
        let report = try await Support.migrate(
            path, versions: versions, mappings: [try Self.mapping("Advanced.EvolutionDemo.V2.FromV1")],
            options: options, policies: policies)
        #expect(report.passes.map(\.kind) == [.mapping])
        #expect(
            try Support.rows(
                "SELECT pk, dnaCode, numberOfFlippers, hasHead, hasTail, hasVertebrae FROM Creature ORDER BY pk",
                in: path)
                == [
                    ["1", "10", "1", "1", "1", "0"], ["2", "11", "3", "1", "0", "1"], ["3", "12", "4", "1", "1", "1"],
                ])
    }

    @Test func goingBackNeedsAnExplicitChain() async throws {
        let scratch = try Scratch()
        let versions = try Self.versions()
        let v2 = try versions.model(named: "Advanced.EvolutionDemo.V2")
        let path = try Support.store(at: scratch.file("Evolution.sqlite"), model: v2) { context in
            let object = try context.insert("Creature")
            try object.set("dnaCode", Int64(7))
            try object.set("numberOfFlippers", Int64(5))
        }
        let before = try Support.bytes(path)
        let back = try Self.mapping("Advanced.EvolutionDemo.V1.FromV2")
        var options = MigrationOptions()
        options.target = "Advanced.EvolutionDemo.V1"
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions, mappings: [back], options: options)
        }
        #expect(error.kind == .storeIsNewer(store: "Advanced.EvolutionDemo.V2", app: "Advanced.EvolutionDemo.V1"))
        #expect(try Support.bytes(path) == before)

        let source = MigrationSource(
            versions: versions, mappings: [back],
            chain: try MigrationChain(["Advanced.EvolutionDemo.V2": "Advanced.EvolutionDemo.V1"]))
        let report = try await StoreMigrator.migrate(store: path, source: source, options: options)
        #expect(report.passes.map(\.kind) == [.mapping])
        #expect(try Support.rows("SELECT dnaCode, numberOfFlagella FROM Creature", in: path) == [["7", "5"]])
        #expect(
            try Support.metadata(path).modelHash == (try versions.model(named: "Advanced.EvolutionDemo.V1")).versionHash
        )
    }
}
