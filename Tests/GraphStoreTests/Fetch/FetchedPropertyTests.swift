// Fetched properties: declared in the Swift builder, model files or Xcode's <fetchedProperty>,
// evaluated with $FETCH_SOURCE on first read, cached until the object is refreshed.
import Foundation
import Testing

@testable import GraphStore

@Suite struct FetchedPropertyTests {
    private func names(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? "?" }.sorted()
    }

    @Test func evaluatedOnceAndCachedUntilRefresh() throws {
        let fixture = try OrgChartFixture()
        let acme = try fixture.object("Organization", named: "Acme")
        #expect(try names(acme.fetchedObjects("seniors")) == ["Ada", "Cal"])
        #expect(try names(fixture.object("Organization", named: "Zenith").fetchedObjects("seniors")) == ["Gus"])
        let (_, statements) = try fixture.context.connection.tracingStatements { try acme.fetchedObjects("seniors") }
        #expect(statements.isEmpty)

        try fixture.context.execute(
            BatchUpdateRequest(entityName: "Person", predicate: .key("name") == "Bea", values: ["age": .integer(41)]))
        #expect(try names(acme.fetchedObjects("seniors")) == ["Ada", "Cal"])  // cached
        try fixture.context.refresh(acme, mergeChanges: false)
        #expect(try names(acme.fetchedObjects("seniors")) == ["Ada", "Bea", "Cal"])
        #expect(throws: ObjectError.self) { try acme.fetchedObjects("juniors") }
    }

    @Test func declarationsAreCheckedAndReadFromXcodeModels() throws {
        #expect(throws: ModelError.self) {
            try ModelBuilder("Bad").entity("A") { a in
                a.attribute("name", .string)
                a.fetchedProperty("name", "Nowhere", predicate: "TRUEPREDICATE")
            }.build()
        }
        #expect(throws: ModelError.self) {
            try ModelBuilder("Twice").entity("A") { a in
                a.fetchedProperty("all", "A", predicate: "TRUEPREDICATE")
                a.fetchedProperty("all", "A", predicate: "FALSEPREDICATE")
            }.build()
        }
        // Model files (and the model JSON every store embeds) keep them; the hash ignores them.
        let model = try OrgChartFixture.makeModel()
        let reread = try ModelFile(model).objectModel()
        #expect(reread.entity(named: "Organization")?.declaration.fetchedProperties.map(\.name) == ["seniors"])
        let stripped = try ObjectModel(
            name: model.name,
            entities: model.entityDescriptions.map { entity in
                var entity = entity
                entity.fetchedProperties = []
                return entity
            })
        #expect(stripped.versionHash == model.versionHash)
    }
}
