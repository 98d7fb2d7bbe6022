// The columns of `seedkit export` (ExportColumns, docs/CLI.md): an entity's attributes and
// relationships; with sub-entities, theirs and the `entity` column (`entity-name` when a property
// takes that name); for an entity without a unique key, the `object-id` column first — and the
// rows that fill them, null where an object's entity lacks the property.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct ExportColumnsTests {
    static func zooModel() throws -> ObjectModel {
        let fixture = try EntityFieldImportTests.zoo()
        return try ValidatedPlan.model(for: try PlanFile.load(from: fixture.path("zoo.yaml")).plan)
    }

    @Test func theColumnsOfEachEntity() throws {
        let model = try Self.zooModel()
        func names(_ entity: String) throws -> [String] {
            ExportColumns(of: try #require(model.entity(named: entity)), in: model).names
        }
        #expect(try names("Animal") == ["entity", "born", "name", "indoor", "lives", "breed", "keeper", "visits"])
        #expect(try names("Dog") == ["born", "name", "breed", "keeper", "visits"])
        #expect(try names("Visit") == ["object-id", "day", "note", "animal"])
        #expect(try names("Keeper") == ["name", "animals"])
    }

    /// A model whose parent has an attribute called `entity` and a sub-entity, neither with a unique key.
    static func logModel() throws -> ObjectModel {
        try ModelBuilder("Log")
            .entity("Event") { event in
                event.attribute("entity", .string)
                event.attribute("at", .integer64)
            }
            .entity("Failure", parent: "Event") { $0.attribute("reason", .string) }
            .build()
    }

    @Test func aPropertyCalledEntityMovesTheEntityColumnAside() throws {
        let model = try Self.logModel()
        let store = try PersistentStore.inMemory(model: model)
        let context = try ObjectContext(store: store)
        let event = try context.insert("Event")
        try event.set("entity", "Item")
        try event.set("at", Int64(1))
        let failure = try context.insert("Failure")
        try failure.set("at", Int64(2))
        try failure.set("reason", "disk full")
        try context.save()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Exporter(store: store, entity: "Event", format: .csv).export(to: path) == 2)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "object-id,entity-name,at,entity,reason")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("x-seedkit://") && lines[1].hasSuffix(",Event,1,Item,"))
        #expect(lines[2].hasPrefix("x-seedkit://") && lines[2].hasSuffix(",Failure,2,,disk full"))
        #expect(lines[1].split(separator: ",")[0] == Substring(event.objectID.uriRepresentation))
    }
}
