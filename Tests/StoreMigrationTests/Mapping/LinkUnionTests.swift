// Links written from both sides of a relationship (docs/Migration.md, "Mapping models"): the
// mapping gives Car.owner from the source's owner and Person.cars from the source's driven cars.
// Where the two agree the links are united; a car whose driver is not its owner would get two
// owners through a to-one: the migration stops (`conflictingLinks`) and the store is as it was.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct LinkUnionTests {
    typealias Support = MigrationTestSupport

    static func version1() throws -> ObjectModel {
        try ModelBuilder("Cars")
            .entity("Person") { person in
                person.attribute("name", .string)
                person.toMany("cars", "Car", inverse: "owner")
                person.toMany("driven", "Car", inverse: "driver")
            }
            .entity("Car") { car in
                car.attribute("plate", .string)
                car.toOne("owner", "Person", inverse: "cars")
                car.toOne("driver", "Person", inverse: "driven")
            }
            .build()
    }

    static func version2() throws -> ObjectModel {
        try ModelBuilder("Cars")
            .entity("Person") { person in
                person.attribute("name", .string)
                person.toMany("cars", "Car", inverse: "owner")
            }
            .entity("Car") { car in
                car.attribute("plate", .string)
                car.toOne("owner", "Person", inverse: "cars")
            }
            .build()
    }

    static func mappingModel() -> MappingModel {
        let version = { (name: String) in MappingModelVersion(path: "Cars.xcdatamodeld/\(name).xcdatamodel") }
        func instances(_ mapping: String, _ path: String) -> MappingExpression {
            .function(
                target: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                arguments: [.constant(.string(mapping)), .keyPath(variable: "source", [path])])
        }
        return MappingModel(
            source: version("Cars"), destination: version("Cars 2"),
            entityMappings: [
                EntityMapping(
                    name: "PersonToPerson", kind: .transform, sourceEntity: "Person", destinationEntity: "Person",
                    number: 1, attributeMappings: [PropertyMapping(name: "name")],
                    relationshipMappings: [
                        PropertyMapping(name: "cars", valueExpression: instances("CarToCar", "driven"))
                    ]),
                EntityMapping(
                    name: "CarToCar", kind: .transform, sourceEntity: "Car", destinationEntity: "Car", number: 2,
                    attributeMappings: [PropertyMapping(name: "plate")],
                    relationshipMappings: [
                        PropertyMapping(name: "owner", valueExpression: instances("PersonToPerson", "owner"))
                    ]),
            ])
    }

    /// Ann owns and drives AA-1; Bob owns AA-2, driven by `driverOfSecond`.
    static func store(_ scratch: Scratch, driverOfSecond: String) throws -> String {
        try Support.store(at: scratch.file("Cars.sqlite"), model: try version1()) { context in
            var people: [String: ManagedObject] = [:]
            for name in ["Ann", "Bob"] {
                let person = try context.insert("Person")
                try person.set("name", name)
                people[name] = person
            }
            for (plate, owner, driver) in [("AA-1", "Ann", "Ann"), ("AA-2", "Bob", driverOfSecond)] {
                let car = try context.insert("Car")
                try car.set("plate", plate)
                try car.setRelated("owner", to: people[owner])
                try car.setRelated("driver", to: people[driver])
            }
        }
    }

    static func versions() throws -> ModelVersionSet {
        try Support.versions([("Cars", try version1()), ("Cars 2", try version2())])
    }

    @Test func linksFromBothSidesThatAgreeAreUnited() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch, driverOfSecond: "Bob")
        try await Support.migrate(path, versions: try Self.versions(), mappings: [Self.mappingModel()])
        #expect(
            try Support.rows("SELECT plate, owner FROM Car ORDER BY pk", in: path) == [["AA-1", "1"], ["AA-2", "2"]])
    }

    @Test func aToOneGivenTwoDestinationsStopsTheMigration() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch, driverOfSecond: "Ann")
        let before = try Support.bytes(path)
        let error = try await #require(throws: MigrationError.self) {
            try await Support.migrate(path, versions: try Self.versions(), mappings: [Self.mappingModel()])
        }
        guard case .dataCheck(let failure) = error.kind else {
            Issue.record("expected a data check, got \(error.kind)")
            return
        }
        #expect(failure.rule == .conflictingLinks && failure.count == 1)
        #expect(try Support.bytes(path) == before)
        #expect(Support.leftovers(beside: path) == [])
    }
}
