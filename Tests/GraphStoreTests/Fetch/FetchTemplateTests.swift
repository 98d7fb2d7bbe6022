// Stored fetch-request templates executed with substitution variables.
import Foundation
import Testing

@testable import GraphStore

@Suite struct FetchTemplateTests {
    private func names(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? "?" }.sorted()
    }

    @Test func templatesRunWithTheirVariables() throws {
        let fixture = try OrgChartFixture()
        #expect(
            try names(fixture.context.fetch(template: "PeopleOlderThan", variables: ["AGE": 40])) == ["Ada", "Cal"])
        #expect(try names(fixture.context.fetch(template: "PeopleOlderThan", variables: ["AGE": 50])) == ["Ada"])
        #expect(
            try names(fixture.context.fetch(template: "MembersOf", variables: ["PROJECT": "Apollo"])) == ["Bea", "Dee"])
        let request = try fixture.store.model.fetchRequest(template: "PeopleOlderThan", variables: ["AGE": 44])
        #expect(request.entityName == "Person")
        #expect(request.predicate?.description == "age > 44")
    }

    @Test func missingTemplatesAndVariablesAreErrors() throws {
        let fixture = try OrgChartFixture()
        #expect(throws: FetchError.unknownTemplate("Nope")) { try fixture.context.fetch(template: "Nope") }
        #expect(throws: FetchError.unsubstitutedVariable("AGE")) {
            try fixture.context.fetch(template: "PeopleOlderThan", variables: ["age": 40])
        }
    }
}
