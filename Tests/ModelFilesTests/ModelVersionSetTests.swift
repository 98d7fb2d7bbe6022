// Versioned models: every version of the fixtures' `.xcdatamodeld` folders (CoreDataPlus, CoreStore)
// with the current one from `.xccurrentversion`, SeedKit versions files, a single model as a set
// of one, and the errors for unknown, duplicate and nested versions.
import Foundation
import Testing

@testable import GraphStore
@testable import ModelFiles
import TestSupport

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

@Suite struct ModelVersionSetTests {
    @Test func everyVersionOfAnXcodeModelLoadsWithItsCurrentOne() throws {
        let sample = try ModelVersionSet.load(
            from: fixtures.appendingPathComponent("CoreDataPlus/SampleModel.xcdatamodeld").path)
        #expect(sample.names == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(sample.currentName == "SampleModel")  // the first version is current there
        #expect(sample.versions.allSatisfy { $0.model.name == "SampleModel" })
        #expect(try sample.model(named: "SampleModel").entity(named: "ExpensiveSportCar") != nil)
        #expect(try sample.model(named: "SampleModel2").entity(named: "LuxuryCar")?.parentIndex != nil)
        #expect(try sample.model(named: "SampleModel2").entity(named: "Person")?.attribute(named: "id") == nil)
        #expect(Set(sample.versions.map(\.model.versionHash)).count == 3)

        let three = try ModelVersionSet.load(
            from: fixtures.appendingPathComponent("CoreDataPlus/SampleModel3.xcdatamodeld").path)
        #expect(three.names == ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        #expect(three.currentName == "SampleModel3")

        // Its .xccurrentversion is an empty dictionary: CoreStore loads the versions by name.
        let demoURL = fixtures.appendingPathComponent("CoreStore/Advanced.EvolutionDemo.xcdatamodeld")
        let demo = try ModelVersionSet.load(from: demoURL.path)
        #expect(demo.names == ["Advanced.EvolutionDemo", "Advanced.EvolutionDemo.V2"])
        #expect(demo.currentName == nil && demo.current == nil)
        #expect(
            try demo.model(named: "Advanced.EvolutionDemo").entity(named: "Creature")?.attribute(
                named: "numberOfFlagella") != nil)
        #expect(throws: ModelError.self) { try XcodeModelReader.readModel(at: demoURL) }
    }

    @Test func aVersionIsReadByNameWhicheverIsCurrent() throws {
        let url = fixtures.appendingPathComponent("CoreStore/Advanced.EvolutionDemo.V1.xcdatamodeld")
        let set = try ModelVersionSet.load(from: url.path)
        let second = try XcodeModelReader.readModel(at: url, version: "Advanced.EvolutionDemo.V2")
        #expect(second.versionHash == (try set.model(named: "Advanced.EvolutionDemo.V2")).versionHash)
        #expect(second.versionHash != set.current?.versionHash)
        let error = try #require(throws: ModelError.self) {
            try XcodeModelReader.readModel(at: url, version: "V3")
        }
        #expect(
            error.problems.first?.message
                == "there is no model version 'V3' (versions: Advanced.EvolutionDemo.V1, Advanced.EvolutionDemo.V2)")
        #expect(throws: ModelError.self) { try set.model(named: "V3") }
    }

    @Test func aVersionsFileListsModelFiles() throws {
        let directory = URL(fileURLWithPath: try ScratchFolder.make("seedkit-versions"))
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("Catalog.v1.yaml", "name: Catalog\nentities:\n  Item:\n    attributes:\n      sku: string\n")
        try write(
            "Catalog.v2.yaml",
            "name: Catalog\nentities:\n  Product:\n    renamedFrom: Item\n    attributes:\n      sku: string\n")
        try write(
            "Catalog.versions.yaml",
            "versions:\n  - {name: v1, file: Catalog.v1.yaml}\n  - {name: v2, file: Catalog.v2.yaml}\ncurrent: v2\n")
        let path = directory.appendingPathComponent("Catalog.versions.yaml").path
        let set = try ModelVersionSet.load(from: path)
        #expect(set.names == ["v1", "v2"] && set.currentName == "v2")
        #expect(set.current?.entity(named: "Product")?.declaration.renamingIdentifier == "Item")
        #expect(try ModelLoader.load(from: path).versionHash == set.current?.versionHash)

        try write("Nested.yaml", "versions:\n  - {name: a, file: Catalog.versions.yaml}\ncurrent: a\n")
        let nested = try #require(throws: ModelError.self) {
            try ModelVersionSet.load(from: directory.appendingPathComponent("Nested.yaml").path)
        }
        #expect(nested.problems.first?.message == "a versions file cannot list another versions file")
        try write("Stale.yaml", "versions:\n  - {name: v1, file: Catalog.v1.yaml}\ncurrent: v9\n")
        let stale = try #require(throws: ModelError.self) {
            try ModelVersionSet.load(from: directory.appendingPathComponent("Stale.yaml").path)
        }
        #expect(stale.problems.first?.message == "the current version 'v9' is not one of the versions (v1)")
    }

    @Test func aSingleModelIsASetOfOne() throws {
        let set = try ModelVersionSet.load(from: fixtures.appendingPathComponent("XcodeModels/Zoo.xcdatamodel").path)
        #expect(set.names == ["Zoo"] && set.currentName == "Zoo")
        let model = try ObjectModel(name: "M", entities: [EntityDescription(name: "A")])
        #expect(throws: ModelError.self) { try ModelVersionSet(versions: [("a", model), ("a", model)], current: "a") }
        let swift = try ModelVersionSet(versions: [("2", model), ("10", model), ("1", model)], current: "10")
        #expect(swift.names == ["1", "2", "10"])
    }
}
