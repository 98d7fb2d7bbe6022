// Predicates over to-many relationships on the org chart (OrgChartFixture): ANY / ALL / NONE,
// SUBQUERY, collection operators, MATCHES and variables, each with a hand-computed answer that
// both the SQL fetch and the in-memory evaluator must give.
import Foundation
import Testing

@testable import GraphStore

@Suite struct CollectionPredicateTests {
    /// Checks that the fetch and the evaluator both select exactly `expected`.
    private func expect(
        _ fixture: OrgChartFixture, in entity: String = "Person", _ format: String, _ expected: [String],
        arguments: [any PredicateArgument] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let predicate = try FetchPredicate(format: format, argumentArray: arguments)
        let fetched = try fixture.names(FetchRequest(entityName: entity, predicate: predicate))
        #expect(fetched == expected, "SQL: \(format)", sourceLocation: sourceLocation)
        #expect(
            try fixture.evaluatedNames(entity, predicate) == expected, "memory: \(format)",
            sourceLocation: sourceLocation)
    }

    @Test func anyAndSubqueryDiffer() throws {
        let fixture = try OrgChartFixture()
        // Cal's employees: Dee (28, Acme) and Éli (35, Zenith): one is 35 and one is in Acme, but
        // no single employee is both.
        try expect(fixture, "ANY employees.age == 35 AND ANY employees.organization.name == 'Acme'", ["Cal"])
        try expect(
            fixture, "SUBQUERY(employees, $e, $e.age == 35 AND $e.organization.name == 'Acme').@count > 0", [])
        try expect(fixture, "ANY employees.age < 30 AND ANY employees.organization.name == 'Zenith'", ["Cal", "Fay"])
        try expect(
            fixture, "SUBQUERY(employees, $e, $e.age < 30 AND $e.organization.name == 'Zenith').@count > 0", ["Fay"])
        try expect(fixture, "SUBQUERY(employees, $e, $e.age >= 31).@count == 2", ["Ada"])
    }

    @Test func allNoneAndEmptyCollections() throws {
        let fixture = try OrgChartFixture()
        try expect(fixture, "ALL employees.age > 30", ["Ada", "Bea", "Dee", "Gus", "Hal", "Éli"])
        // Gus has no salary: nil fails the comparison, so Fay's employees are not all > 40000.
        try expect(fixture, "ALL employees.salary > 40000", ["Ada", "Bea", "Cal", "Dee", "Gus", "Hal", "Éli"])
        try expect(fixture, "NONE employees.name BEGINSWITH 'D'", ["Ada", "Bea", "Dee", "Fay", "Gus", "Hal", "Éli"])
        try expect(fixture, "SOME employees.age BETWEEN {30, 40}", ["Ada", "Cal", "Fay"])
        try expect(fixture, "ANY employees.salary == nil", ["Fay"])
        try expect(fixture, "NOT ANY employees.age > 0", ["Bea", "Dee", "Gus", "Hal", "Éli"])
        try expect(fixture, "ANY employees == nil", [])
    }

    @Test func collectionOperators() throws {
        let fixture = try OrgChartFixture()
        try expect(fixture, "employees.@count >= 2", ["Ada", "Cal", "Fay"])
        try expect(fixture, "employees.@avg.age > 35", ["Ada"])  // 38, 31.5, 31.5
        try expect(fixture, "employees.@avg.age == 31.5", ["Cal", "Fay"])
        try expect(fixture, "employees.@sum.salary > 100000", ["Ada", "Cal"])  // 218000.5, 152000, 50000
        try expect(fixture, "employees.@sum.age == 0", ["Bea", "Dee", "Gus", "Hal", "Éli"])
        try expect(fixture, "employees.@max.age == 40", ["Fay"])
        try expect(fixture, "employees.@min.age < 30", ["Cal", "Fay"])
        try expect(fixture, "employees.@min.name == 'Bea'", ["Ada"])
        try expect(fixture, "employees.@avg.age == nil", ["Bea", "Dee", "Gus", "Hal", "Éli"])
        try expect(fixture, in: "Organization", "people.@count == 0", ["Empty"])
        try expect(fixture, in: "Organization", "people.@avg.age > 35", ["Acme"])  // 39, 33.25
        try expect(fixture, in: "Organization", "leader.employees.@count == 2", ["Acme", "Zenith"])
        try expect(fixture, in: "Organization", "people.@max.salary == 250000", ["Acme"])
    }

    @Test func manyToManyAndNestedSubqueries() throws {
        let fixture = try OrgChartFixture()
        try expect(fixture, "ANY projects.name == 'Borealis'", ["Cal", "Dee", "Hal"])
        try expect(fixture, "projects.@count == 2", ["Dee"])
        try expect(fixture, in: "Project", "ANY members.manager.name == 'Cal'", ["Apollo", "Borealis"])
        try expect(fixture, in: "Project", "SUBQUERY(members, $m, $m.age < 30).@count == 2", ["Borealis"])
        try expect(fixture, in: "Project", "members.@avg.age < 30", ["Apollo"])  // 29.5, 32
        try expect(fixture, in: "Project", "members.@sum.age < 60", ["Apollo", "Cosmos"])  // 59, 96, 0
        try expect(fixture, in: "Project", "members.@count == 0", ["Cosmos"])
        try expect(
            fixture, "SUBQUERY(employees, $e, SUBQUERY($e.employees, $g, $g.age < 30).@count > 0).@count > 0", ["Ada"])
        try expect(fixture, "SUBQUERY(employees, $e, ANY $e.projects.budget > 200).@count == 1", ["Ada", "Cal", "Fay"])
    }

    @Test func membershipInAToMany() throws {
        let fixture = try OrgChartFixture()
        let bea = try fixture.object(named: "Bea").objectID
        let dee = try fixture.object(named: "Dee").objectID
        try expect(fixture, "%@ IN employees", ["Ada"], arguments: [bea])
        try expect(fixture, "employees CONTAINS %@", ["Cal"], arguments: [dee])
        try expect(fixture, "NOT %@ IN employees", ["Bea", "Cal", "Dee", "Fay", "Gus", "Hal", "Éli"], arguments: [bea])
        try expect(fixture, in: "Project", "%@ IN members", ["Apollo", "Borealis"], arguments: [dee])
        try expect(
            fixture, "SUBQUERY(employees, $e, %@ IN $e.projects).@count > 0", ["Ada", "Cal", "Fay"],
            arguments: [try fixture.object("Project", named: "Borealis").objectID])
        try expect(fixture, "name CONTAINS 'l' AND name IN {'Cal', 'Bea', 'Éli'}", ["Cal", "Éli"])
    }

    @Test func matchesIsAWholeStringRegularExpression() throws {
        let fixture = try OrgChartFixture()
        try expect(fixture, "name MATCHES '[A-C].*'", ["Ada", "Bea", "Cal"])
        try expect(fixture, "name MATCHES 'a'", [])
        try expect(fixture, "name MATCHES[c] 'e.*'", [])
        try expect(fixture, "name MATCHES[cd] 'e.*'", ["Éli"])
        try expect(fixture, "ANY employees.name MATCHES '.e.'", ["Ada", "Cal"])
        #expect(throws: FetchError.self) { try fixture.names("name MATCHES '(['") }
    }

    @Test func variablesAreSubstitutedOrReported() throws {
        let fixture = try OrgChartFixture()
        let template = try FetchPredicate(format: "age > $MIN AND SUBQUERY(employees, $e, $e.age < $MAX).@count > 0")
        #expect(template.variableNames == ["MIN", "MAX"])
        let predicate = try template.substituting(["MIN": 40, "MAX": 30])
        #expect(try fixture.names(FetchRequest(entityName: "Person", predicate: predicate)) == ["Cal"])
        #expect(throws: FetchError.unsubstitutedVariable("MAX")) { try template.substituting(["MIN": 40]) }
        #expect(throws: FetchError.unsubstitutedVariable("MIN")) {
            try fixture.names(FetchRequest(entityName: "Person", predicate: template))
        }
        #expect(throws: FetchError.unsubstitutedVariable("MIN")) {
            try PredicateEvaluator.evaluate(template, on: try fixture.object(named: "Ada"))
        }
    }

    @Test func swiftAPIBuildsTheParsedPredicates() throws {
        let pairs: [(FetchPredicate, String)] = [
            (.any("employees.age") > 50, "ANY employees.age > 50"),
            (.all("employees.age") < 60, "ALL employees.age < 60"),
            (.none("employees.name") == "Bob", "NONE employees.name == \"Bob\""),
            (.key("employees").count >= 2, "employees.@count >= 2"),
            (.key("employees").average("age") > 30, "employees.@avg.age > 30"),
            (.key("employees").sum("salary") < 1, "employees.@sum.salary < 1"),
            (.key("employees").minimum("age") < 1, "employees.@min.age < 1"),
            (.key("employees").maximum("age") < 1, "employees.@max.age < 1"),
            (.key("name").matches("A.*", options: .caseInsensitive), "name MATCHES[c] \"A.*\""),
            (
                .subquery("employees", "e", .variable("e", "age") > 30 && .variable("e", "name").beginsWith("B")).count
                    > 0,
                "SUBQUERY(employees, $e, $e.age > 30 AND $e.name BEGINSWITH \"B\").@count > 0"
            ),
        ]
        for (built, format) in pairs {
            #expect(built == (try FetchPredicate(format: format)), "\(format)")
            #expect(built.description == format)
        }
    }

    @Test func unsavedObjectsAreEvaluatedInMemory() throws {
        let fixture = try OrgChartFixture()
        let newcomer = try fixture.context.insert("Person")
        try newcomer.set("name", "Ivy")
        try newcomer.set("age", Int16(60))
        try newcomer.setRelated("manager", to: try fixture.object(named: "Bea"))
        // Bea's only employee is now the unsaved Ivy, aged 60.
        #expect(try fixture.names("employees.@avg.age > 50") == ["Bea"])
        #expect(try fixture.names("ANY employees.name == 'Ivy'") == ["Bea"])
    }

    @Test func misuseIsReported() throws {
        let fixture = try OrgChartFixture()
        for format in [
            "ANY employees.employees.name == 'Dee'", "ANY name == 'Ada'", "employees.@avg == 1",
            "employees.@count.age == 1", "name.@count == 1", "employees.@sum.name == 1", "employees.age == 1",
        ] {
            #expect(throws: FetchError.self, "\(format)") { try fixture.names(format) }
            let predicate = try FetchPredicate(format: format)
            #expect(throws: FetchError.self, "memory: \(format)") {
                try PredicateEvaluator.evaluate(predicate, on: try fixture.object(named: "Ada"))
            }
        }
    }
}
