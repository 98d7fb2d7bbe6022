// Chains (docs/Migration.md, "Chains"; T-CH-2…5): consecutive inferred steps composed into one
// pass that is not a re-inference from first to last, a store at an unknown hash migrated
// directly from its embedded model, a pair without mapping or inference refused with every
// change listed, a store later than the target, a store at an unknown version that cannot be
// migrated directly and a target that is no version refused; refusals leave the store's bytes.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct ChainTests {
    typealias Support = MigrationTestSupport

    /// Item(name) and, when `note` is given, an optional `note` with that default.
    static func items(note: String?, extra: Bool = false) throws -> ObjectModel {
        try ModelBuilder("List")
            .entity("Item") { item in
                item.attribute("name", .string)
                if let note { item.attribute("note", .string, default: .string(note)) }
                if extra { item.attribute("extra", .integer64) }
            }
            .build()
    }

    static func fill(_ context: ObjectContext) throws {
        for name in ["Apples", "Bread"] {
            let item = try context.insert("Item")
            try item.set("name", name)
            try item.set("note", "old \(name)")
        }
    }

    @Test func removingThenReAddingAcrossComposedStepsGivesDefaultsInOnePass() async throws {
        let scratch = try Scratch()
        let v1 = try Self.items(note: "v1 default")
        let v2 = try Self.items(note: nil)
        let v3 = try Self.items(note: "new", extra: true)
        let path = try Support.store(at: scratch.file("List.sqlite"), model: v1, Self.fill)
        let report = try await Support.migrate(
            path, versions: try Support.versions([("List", v1), ("List 2", v2), ("List 3", v3)]))
        #expect(report.passes.count == 1 && report.passes[0].versions == ["List", "List 2", "List 3"])
        #expect(report.steps == 2)
        #expect(report.dataDropped == ["Item.note: 2 values"])
        #expect(
            try Support.rows("SELECT pk, name, note, extra FROM Item ORDER BY pk", in: path)
                == [["1", "Apples", "new", "nil"], ["2", "Bread", "new", "nil"]])
    }

    @Test func aStoreAtAnUnknownHashIsMigratedDirectlyFromItsEmbeddedModel() async throws {
        let scratch = try Scratch()
        let unknown = try Self.items(note: "x", extra: true)
        let path = try Support.store(at: scratch.file("List.sqlite"), model: unknown, Self.fill)
        let versions = try Support.versions([
            ("List", try Self.items(note: nil)), ("List 2", try Self.items(note: "d")),
        ])
        let plan = try StoreMigrator.plan(store: path, source: MigrationSource(versions: versions))
        #expect(plan.sourceVersion == nil && plan.sourceName.hasPrefix("unknown version (hash "))
        #expect(plan.passes.count == 1 && plan.passes[0].steps[0].changes == ["Item.extra: removed"])
        let report = try await Support.migrate(path, versions: versions)
        #expect(report.from == plan.sourceName && report.to == "List 2")
        #expect(report.warnings.contains { $0.contains("migrated directly") })
        #expect(
            try Support.rows("SELECT name, note FROM Item ORDER BY pk", in: path)
                == [["Apples", "old Apples"], ["Bread", "old Bread"]])
    }

    @Test func aPairThatCannotBeInferredListsEveryChangeAndAsksForAMappingModel() async throws {
        let scratch = try Scratch()
        let versions = try ModelVersionSet.load(
            from: Support.fixtures.appendingPathComponent("SeedKit/Shop.xcdatamodeld").path)
        let path = try Support.store(at: scratch.file("Shop.sqlite"), model: try versions.model(named: "Shop"))
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions)
        }
        #expect(
            error.kind
                == .noPath(
                    from: "Shop", to: "Shop 2",
                    changes: ["Product.price: double → decimal", "Product.sku: required attribute without default"]))
        #expect(error.description.hasSuffix("add a mapping model Shop → Shop 2"))
        #expect(try Support.bytes(path) == before)
    }

    @Test func aStoreLaterThanTheTargetIsNewerAndLeftAlone() async throws {
        let scratch = try Scratch()
        let v1 = try Self.items(note: nil)
        let v2 = try Self.items(note: "d")
        let path = try Support.store(at: scratch.file("List.sqlite"), model: v2, Self.fill)
        let before = try Support.bytes(path)
        var options = MigrationOptions()
        options.target = "List"
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(
                path, versions: try Support.versions([("List", v1), ("List 2", v2)]), options: options)
        }
        #expect(error.kind == .storeIsNewer(store: "List 2", app: "List"))
        #expect(try Support.bytes(path) == before)
    }

    /// Item(name, weight) with `weight` of the given type.
    static func weighed(_ type: AttributeType) throws -> ObjectModel {
        try ModelBuilder("List")
            .entity("Item") { item in
                item.attribute("name", .string)
                item.attribute("weight", type)
            }
            .build()
    }

    @Test func anUnknownVersionIsRefusedBeforeTheStoreChanges() async throws {
        let scratch = try Scratch()
        let versions = try Support.versions([
            ("List", try Self.items(note: nil)), ("List 2", try Self.weighed(.double)),
        ])
        // The store's model is none of the versions, and float → double is not inferred.
        let unknown = try Support.store(at: scratch.file("Unknown.sqlite"), model: try Self.weighed(.float)) {
            try $0.insert("Item").set("name", "Apples")
        }
        let unknownBytes = try Support.bytes(unknown)
        let direct = try await #require(throws: MigrationError.self) {
            try await Support.migrate(unknown, versions: versions)
        }
        guard case .unknownSourceVersion(_, let changes) = direct.kind else {
            Issue.record("expected unknownSourceVersion, got \(direct.kind)")
            return
        }
        #expect(changes == ["Item.weight: float → double"])
        #expect(try Support.bytes(unknown) == unknownBytes)
        #expect(Support.leftovers(beside: unknown) == [])

        // A target that is none of the versions.
        let known = try Support.store(at: scratch.file("Known.sqlite"), model: try Self.items(note: nil)) {
            try $0.insert("Item").set("name", "Apples")
        }
        let knownBytes = try Support.bytes(known)
        var options = MigrationOptions()
        options.target = "List 3"
        let missing = try await #require(throws: MigrationError.self) {
            try await Support.migrate(known, versions: versions, options: options)
        }
        #expect(missing.kind == .unknownVersion("List 3", versions: ["List", "List 2"]))
        #expect(try Support.bytes(known) == knownBytes)
        #expect(Support.leftovers(beside: known) == [])
    }

    @Test func aStoreAtTheTargetHasNothingToDo() async throws {
        let scratch = try Scratch()
        let v1 = try Self.items(note: nil)
        let path = try Support.store(at: scratch.file("List.sqlite"), model: v1)
        let before = try Support.bytes(path)
        let report = try await Support.migrate(path, versions: try Support.versions([("List", v1)]))
        #expect(report.passes.isEmpty && !report.changed && report.from == "List" && report.to == "List")
        #expect(try Support.bytes(path) == before)
    }

    @Test func namesThatGiveNoOrderNeedAChainAndChainsAreValidated() async throws {
        let scratch = try Scratch()
        let v1 = try Self.items(note: nil)
        let v2 = try Self.items(note: "d")
        let path = try Support.store(at: scratch.file("List.sqlite"), model: v1)
        let before = try Support.bytes(path)
        let versions = try Support.versions([("Model", v1), ("Model 2", v2), ("Modelv2", v2)], current: "Modelv2")
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions)
        }
        #expect(error.kind == .ambiguousOrder(["Model", "Model 2", "Modelv2"]))
        #expect(try Support.bytes(path) == before)

        let chained = try await StoreMigrator.migrate(
            store: path, source: MigrationSource(versions: versions, chain: try MigrationChain(["Model", "Modelv2"])))
        #expect(chained.passes.map(\.versions) == [["Model", "Modelv2"]])

        let twice = try #require(throws: MigrationError.self) { try MigrationChain(["Model", "Model 2", "Model"]) }
        #expect(twice.kind == .invalidChain("'Model' appears twice"))
        let loop = try #require(throws: MigrationError.self) { try MigrationChain(["A": "B", "B": "A"]) }
        #expect(loop.kind == .invalidChain("the edges form a loop through 'A'"))
    }
}
