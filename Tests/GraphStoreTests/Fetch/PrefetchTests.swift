// Prefetching relationship key paths: one query per level (counted with the connection's
// statement trace), to-one and to-many, several levels, and nothing left to load afterwards.
import Foundation
import Testing

@testable import GraphStore

@Suite struct PrefetchTests {
    /// Everything reachable through `organizations → people → projects` and `→ leader`, as text.
    private func walk(_ organizations: [ManagedObject]) throws -> [String] {
        try organizations.map { org in
            let people = try org.relatedObjects("people").map { person in
                let projects = try person.relatedObjects("projects").map { try $0.get("name", as: String.self) ?? "?" }
                return (try person.get("name", as: String.self) ?? "?") + "(" + projects.sorted().joined(separator: ",")
                    + ")"
            }
            let leader = try org.related("leader")?.get("name", as: String.self) ?? "-"
            return (try org.get("name", as: String.self) ?? "?") + " " + leader + ": "
                + people.sorted().joined(separator: " ")
        }
    }

    @Test func toManyLevelsTakeOneQueryEach() throws {
        let fixture = try OrgChartFixture()
        var request = FetchRequest(entityName: "Organization", sortDescriptors: [FetchSortDescriptor("name")])
        request.relationshipKeyPathsForPrefetching = ["people.projects", "leader"]
        let connection = fixture.context.connection
        // The fetch, the people of 3 organizations, the projects of 8 people; the leaders are
        // among the people already loaded.
        let (organizations, statements) = try connection.tracingStatements { try fixture.context.fetch(request) }
        #expect(statements.count == 3, "\(statements)")
        let (described, later) = try connection.tracingStatements { try walk(organizations) }
        #expect(later.isEmpty, "\(later)")
        #expect(
            described == [
                "Acme Ada: Ada() Bea(Apollo) Cal(Borealis) Dee(Apollo,Borealis)", "Empty -: ",
                "Zenith Fay: Fay() Gus() Hal(Borealis) Éli()",
            ])
    }

    @Test func withoutPrefetchingEveryObjectQueries() throws {
        let fixture = try OrgChartFixture()
        let connection = fixture.context.connection
        let organizations = try fixture.context.fetch(
            FetchRequest(entityName: "Organization", sortDescriptors: [FetchSortDescriptor("name")]))
        let (_, statements) = try connection.tracingStatements { try walk(organizations) }
        #expect(statements.count > 10)
    }

    @Test func toOneLevelsLoadOnlyWhatIsMissing() throws {
        let fixture = try OrgChartFixture()
        var request = FetchRequest(entityName: "Project", predicate: .key("name") == "Borealis")
        request.relationshipKeyPathsForPrefetching = ["members.manager.organization"]
        let connection = fixture.context.connection
        // The fetch; Borealis' members (Cal, Dee, Hal); their managers not yet loaded (Ada, Fay;
        // Cal is a member); the managers' organizations (Acme, Zenith).
        let (projects, statements) = try connection.tracingStatements { try fixture.context.fetch(request) }
        #expect(statements.count == 4, "\(statements)")
        let (chain, later) = try connection.tracingStatements {
            try projects[0].relatedObjects("members").map { member in
                try member.related("manager")?.related("organization")?.get("name", as: String.self) ?? "-"
            }.sorted()
        }
        #expect(later.isEmpty, "\(later)")
        #expect(chain == ["Acme", "Acme", "Zenith"])
    }

    @Test func unknownKeysAreReported() throws {
        let fixture = try OrgChartFixture()
        var request = FetchRequest(entityName: "Organization")
        request.relationshipKeyPathsForPrefetching = ["people.nope"]
        #expect(throws: FetchError.unknownKeyPath(entity: "Person", keyPath: "people.nope")) {
            try fixture.context.fetch(request)
        }
    }
}
