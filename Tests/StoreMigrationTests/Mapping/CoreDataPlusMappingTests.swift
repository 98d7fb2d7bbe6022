// Mapping models on real files (docs/Migration.md, "Mapping models"; T-CH-1 and fixture F4):
// CoreDataPlus's SampleModel chain, SampleModel → SampleModel2 inferred (ExpensiveSportCar renamed
// LuxuryCar through its renaming identifier, Car.color and Person.id removed) and SampleModel2 →
// SampleModel3 by its V2toV3 mapping model, whose car mappings name the policy
// `REPLACE_AT_RUNTIME.V2to3MakerPolicy` (ported here: each car's maker text becomes a Maker that
// owns the car) and whose relationship expressions fill Car.previousOwners and
// Person.previousCars. CoreDataPlus's own V1 store is not among the fixtures, so the V1 store is
// built here with the same shape. Also: an unregistered policy refused by name, a skipped one.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct CoreDataPlusMappingTests {
    typealias Support = MigrationTestSupport

    static let folder = Support.fixtures.appendingPathComponent("CoreDataPlus/SampleModel")

    static func versions() throws -> ModelVersionSet {
        try ModelVersionSet.load(from: folder.appendingPathComponent("SampleModel.xcdatamodeld").path)
    }

    static func mapping() throws -> MappingModel {
        try MappingModelReader.readMappingModel(
            at: folder.appendingPathComponent("MappingModels/V2toV3.xcmappingmodel"))
    }

    /// CoreDataPlus's V2to3MakerPolicy: the Maker named by the car's `maker` text (found or
    /// created) gets the car made from it.
    struct MakerPolicy: MigrationPolicy {
        func createDestinations(for car: MigrationSourceObject, in context: MigrationPolicyContext) throws {
            guard case .string(let name)? = car["maker"], let destination = try context.destinations(of: car).first
            else { return }
            let maker =
                try context.first("Maker", where: "name", is: .string(name))
                ?? context.insert("Maker", values: ["name": .string(name)])
            try context.link(maker, "cars", to: destination)
        }
    }

    /// Cars as (entity, plate, maker, owner index or nil): 4 Car, 2 SportCar, 2 ExpensiveSportCar.
    static let cars: [(String, String, String, Int?)] = [
        ("Car", "AA-1", "Fiat", 0), ("Car", "AA-2", "Fiat", nil), ("Car", "AA-3", "BMW", 1),
        ("Car", "AA-4", "Alfa", 2), ("SportCar", "SP-1", "BMW", 0), ("SportCar", "SP-2", "Alfa", nil),
        ("ExpensiveSportCar", "EX-1", "Ferrari", 1), ("ExpensiveSportCar", "EX-2", "Ferrari", 2),
    ]

    /// A SampleModel (V1) store: three people, the cars above.
    static func fillVersion1(_ context: ObjectContext) throws {
        var people: [ManagedObject] = []
        for (index, name) in ["Ann", "Bob", "Cid"].enumerated() {
            let person = try context.insert("Person")
            try person.set("firstName", name)
            try person.set("lastName", "Doe")
            try person.set("id", UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)"))
            try person.set("updatedAt", Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
            people.append(person)
        }
        for (entity, plate, maker, owner) in cars {
            let car = try context.insert(entity)
            try car.set("numberPlate", plate)
            try car.set("maker", maker)
            try car.set("model", "\(maker) \(plate)")
            if entity == "ExpensiveSportCar" { try car.set("isLimitedEdition", true) }
            try car.setRelated("owner", to: owner.map { people[$0] })
        }
    }

    @Test func sampleModelToSampleModel3RunsAnInferredPassThenTheMappingWithItsPolicy() async throws {
        let scratch = try Scratch()
        let versions = try Self.versions()
        let path = try Support.store(
            at: scratch.file("Cars.sqlite"), model: try versions.model(named: "SampleModel"), Self.fillVersion1)
        let keysBefore = try Support.rows("SELECT pk FROM Car ORDER BY pk", in: path)
        var policies = MigrationPolicies()
        policies.register("V2to3MakerPolicy", MakerPolicy())
        var options = MigrationOptions()
        options.target = "SampleModel3"
        let report = try await Support.migrate(
            path, versions: versions, mappings: [try Self.mapping()], options: options, policies: policies)

        #expect(report.passes.map(\.kind) == [.inferred, .mapping])
        #expect(report.passes.map(\.to) == ["SampleModel2", "SampleModel3"])
        #expect(report.from == "SampleModel" && report.to == "SampleModel3")
        // The mapping model maps no `maker`: the texts live on only as the policy's Makers.
        #expect(
            report.dataDropped == [
                "Person.id: 3 values (SampleModel → SampleModel2)", "Car.maker: 4 values (SampleModel2 → SampleModel3)",
                "LuxuryCar.maker: 2 values (SampleModel2 → SampleModel3)",
                "SportCar.maker: 2 values (SampleModel2 → SampleModel3)",
            ])
        // Counts are summed over the passes: the two luxury cars are kept by both.
        #expect(report.entities["Maker"] == MigrationReport.EntityCounts(kept: 0, created: 4, dropped: 0))
        #expect(report.entities["LuxuryCar"] == MigrationReport.EntityCounts(kept: 4, created: 0, dropped: 0))

        let model = try versions.model(named: "SampleModel3")
        #expect(try Support.metadata(path).modelHash == model.versionHash)
        #expect(try Support.rows("SELECT pk FROM Car ORDER BY pk", in: path) == keysBefore)
        let store = try PersistentStore.open(at: path, model: model)
        let context = try ObjectContext(store: store)
        let makers = try context.fetch(FetchRequest(entityName: "Maker"))
        #expect(
            try makers.map { try $0.get("name", as: String.self) ?? "" }.sorted() == ["Alfa", "BMW", "Ferrari", "Fiat"])
        var luxury = 0
        for car in try context.fetch(FetchRequest(entityName: "Car")) {
            let plate = try #require(try car.get("numberPlate", as: String.self))
            let row = try #require(Self.cars.first { $0.1 == plate })
            #expect(car.entity.name == (row.0 == "ExpensiveSportCar" ? "LuxuryCar" : row.0))
            if car.entity.name == "LuxuryCar" {
                luxury += 1
                #expect(try car.get("isLimitedEdition", as: Bool.self) == true)
            }
            #expect(try car.related("createdBy")?.get("name", as: String.self) == row.2)
            let owner = try car.related("owner")?.get("firstName", as: String.self)
            #expect(owner == row.3.map { ["Ann", "Bob", "Cid"][$0] })
            let previous = try car.relatedObjects("previousOwners").map { try $0.get("firstName", as: String.self) }
            #expect(previous == (owner.map { [$0] } ?? []))
        }
        #expect(luxury == 2)
        for person in try context.fetch(FetchRequest(entityName: "Person")) {
            let cars = try person.relatedObjects("cars").map { try $0.get("numberPlate", as: String.self) ?? "" }
            let previous = try person.relatedObjects("previousCars").map {
                try $0.get("numberPlate", as: String.self) ?? ""
            }
            #expect(cars.sorted() == previous.sorted() && !cars.isEmpty)
        }
        #expect(Support.leftovers(beside: path) == [])
    }

    @Test func anUnregisteredPolicyIsRefusedByNameBeforeAnyByteChanges() async throws {
        let scratch = try Scratch()
        let versions = try Self.versions()
        let path = try Support.store(
            at: scratch.file("Cars.sqlite"), model: try versions.model(named: "SampleModel2"), Self.fillVersion2)
        let before = try Support.bytes(path)
        var options = MigrationOptions()
        options.target = "SampleModel3"
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: versions, mappings: [try Self.mapping()], options: options)
        }
        #expect(error.kind == .unregisteredPolicy(["REPLACE_AT_RUNTIME.V2to3MakerPolicy"]))
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])

        // Skipped on purpose: the mapping's own expressions run, no Maker is made, a warning says so.
        options.skippedPolicies = ["V2to3MakerPolicy"]
        let report = try await Support.migrate(
            path, versions: versions, mappings: [try Self.mapping()], options: options)
        #expect(report.warnings.contains { $0.contains("V2to3MakerPolicy") })
        #expect(try Support.rows("SELECT count(*) FROM Maker", in: path) == [["0"]])
        #expect(try Support.rows("SELECT count(*) FROM Car", in: path) == [["\(Self.cars.count)"]])
    }

    /// The V1 objects in SampleModel2 (LuxuryCar for ExpensiveSportCar, no `id`).
    static func fillVersion2(_ context: ObjectContext) throws {
        for (entity, plate, maker, _) in cars {
            let car = try context.insert(entity == "ExpensiveSportCar" ? "LuxuryCar" : entity)
            try car.set("numberPlate", plate)
            try car.set("maker", maker)
        }
    }
}
