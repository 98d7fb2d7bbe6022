// The `.xcmappingmodel` reader over the real mapping models of CoreDataPlus and CoreStore's
// EvolutionDemo (MIT, licences beside them in Fixtures/): versions from the last two path
// components, entity mappings in editor order with derived kinds and default names, policy
// class names, property mappings, and every archived value expression decoded to the exact text
// docs/MappingModels.md lists; plus crafted files for warnings, GNUstep's extra names and errors.
import Foundation
import Testing

@testable import ModelFiles

@Suite struct MappingModelReaderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func read(_ relativePath: String) throws -> MappingModel {
        try MappingModelReader.readMappingModel(at: fixtures.appendingPathComponent(relativePath))
    }

    /// Every value expression of a mapping model: "mapping.property" → format text.
    static func expressions(_ model: MappingModel) -> [String: String] {
        var result: [String: String] = [:]
        for mapping in model.entityMappings {
            for property in mapping.attributeMappings + mapping.relationshipMappings {
                if let expression = property.valueExpression {
                    result["\(mapping.name).\(property.name)"] = expression.format
                }
            }
        }
        return result
    }

    @Test func coreDataPlusV2toV3() throws {
        let model = try Self.read("CoreDataPlus/MappingModels/V2toV3.xcmappingmodel")
        #expect(model.source == MappingModelVersion(path: "Tests/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"))
        #expect(model.source.modelName == "SampleModel")
        #expect(model.source.versionName == "SampleModel2")
        #expect(model.destination.versionName == "SampleModel3")
        #expect(model.warnings == [])
        #expect(
            model.entityMappings.map(\.name) == [
                "CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "ToMaker",
            ])
        #expect(model.entityMappings.map(\.number) == [1, 2, 3, 4, 5])
        #expect(model.entityMappings.map(\.kind) == [.transform, .transform, .transform, .transform, .add])
        let policy = "REPLACE_AT_RUNTIME.V2to3MakerPolicy"
        #expect(model.entityMappings.map(\.policyClassName) == [policy, policy, nil, policy, nil])
        let maker = try #require(model.entityMapping(named: "ToMaker"))
        #expect(maker.sourceEntity == nil)
        #expect(maker.destinationEntity == "Maker")
        #expect(maker.attributeMappings == [PropertyMapping(name: "name")])
        #expect(maker.relationshipMappings == [PropertyMapping(name: "cars", generatesExpression: true)])
        let car = try #require(model.entityMapping(named: "CarToCar"))
        #expect(car.sourceEntity == "Car")
        #expect(car.generatesExpressions)
        #expect(car.attributeMappings.map(\.name) == ["markedForDeletionAsOf", "model", "numberPlate"])
        #expect(car.attributeMappings.allSatisfy { $0.valueExpression == nil })
        #expect(car.relationshipMappings.map(\.name) == ["createdBy", "owner", "previousOwners"])
        #expect(
            car.relationshipMappings.last?.valueExpression
                == .function(
                    target: .variable("manager"),
                    selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                    arguments: [.constant(.string("PersonToPerson")), .keyPath(variable: "source", ["owner"])]))
        let person = try #require(model.entityMapping(named: "PersonToPerson"))
        #expect(person.attributeMappings.map(\.name) == ["firstName", "lastName", "updatedAt"])
        #expect(person.relationshipMappings.map(\.name) == ["cars", "previousCars"])
        let toPerson =
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#
        #expect(
            Self.expressions(model) == [
                "CarToCar.previousOwners": toPerson,
                "LuxuryCarToLuxuryCar.previousOwners": toPerson,
                "SportCarToSportCar.previousOwners": toPerson,
                "PersonToPerson.previousCars":
                    #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "cars", $source.cars)"#,
            ])
    }

    @Test func coreStoreEvolutionDemoV2FromV1() throws {
        let model = try Self.read("CoreStore/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel")
        #expect(model.source.modelName == "Advanced.EvolutionDemo.V1")
        #expect(model.source.versionName == "Advanced.EvolutionDemo.V1")
        #expect(model.destination.versionName == "Advanced.EvolutionDemo.V2")
        #expect(model.source.path.hasPrefix("⭐️Sources/⭐️Demos/"))
        #expect(model.entityMappings.count == 1)
        let creature = try #require(model.entityMapping(named: "CreatureToCreature"))
        #expect(creature.kind == .transform)
        #expect(creature.policyClassName == "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        #expect(
            creature.attributeMappings.map(\.name) == [
                "dnaCode", "hasHead", "hasTail", "hasVertebrae", "numberOfFlippers",
            ])
        #expect(creature.relationshipMappings == [])
        #expect(
            Self.expressions(model) == [
                "CreatureToCreature.numberOfFlippers": "$source.numberOfFlagella", "CreatureToCreature.hasHead": "TRUE",
            ])
        #expect(creature.attributeMappings.first { $0.name == "hasHead" }?.valueExpression == .constant(.boolean(true)))
    }

    @Test func coreStoreEvolutionDemoV1FromV2() throws {
        let model = try Self.read("CoreStore/Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel/xcmapping.xml")
        #expect(model.source.versionName == "Advanced.EvolutionDemo.V2")
        #expect(model.destination.versionName == "Advanced.EvolutionDemo.V1")
        let creature = try #require(model.entityMapping(named: "CreatureToCreature"))
        #expect(creature.policyClassName == nil)
        #expect(creature.attributeMappings.map(\.name) == ["dnaCode", "numberOfFlagella"])
        #expect(Self.expressions(model) == ["CreatureToCreature.numberOfFlagella": "$source.numberOfFlippers"])
    }

    @Test func versionsComeFromTheLastTwoComponents() {
        let version = MappingModelVersion(path: "Grocery Dude/Model.xcdatamodeld/Model 2.xcdatamodel")
        #expect(version.modelName == "Model")
        #expect(version.versionName == "Model 2")
        let bare = MappingModelVersion(path: "Model 2.xcdatamodel")
        #expect(bare.modelName == nil)
        #expect(bare.versionName == "Model 2")
    }
}
