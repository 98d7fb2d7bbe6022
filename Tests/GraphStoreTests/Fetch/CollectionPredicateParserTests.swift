// Parsing and printing the collection part of the format language: quantifiers, collection
// operators, SUBQUERY, `$variable` key paths and MATCHES, and the canonical description round
// trip (parse → print → parse gives the same predicate).
import Foundation
import Testing

@testable import GraphStore

@Suite struct CollectionPredicateParserTests {
    private func parse(_ format: String, _ arguments: any PredicateArgument...) throws -> FetchPredicate {
        try FetchPredicate(format: format, argumentArray: arguments)
    }

    private func integer(_ value: Int64) -> FetchExpression { .constant(.value(.integer(value))) }

    @Test func quantifiersAndOperators() throws {
        #expect(
            try parse("ANY employees.age > 30")
                == .compare(.keyPath("employees.age"), .greaterThan, integer(30), modifier: .any))
        #expect(try parse("some employees.age > 30") == parse("ANY employees.age > 30"))
        #expect(
            try parse("ALL employees.age > 30")
                == .compare(.keyPath("employees.age"), .greaterThan, integer(30), modifier: .all))
        #expect(
            try parse("NOT NONE tags.name ==[c] 'x'")
                == .not(
                    .compare(
                        .keyPath("tags.name"), .equalTo, .constant(.value(.string("x"))), options: .caseInsensitive,
                        modifier: .none)))
        #expect(
            try parse("employees.@AVG.age > 1") == .compare(.keyPath("employees.@avg.age"), .greaterThan, integer(1)))
        #expect(try parse("%K > 1", "employees.@count") == parse("employees.@count > 1"))
        #expect(
            try parse("name MATCHES[cd] '^A'")
                == .compare(
                    .keyPath("name"), .matches, .constant(.value(.string("^A"))),
                    options: [.caseInsensitive, .diacriticInsensitive]))
    }

    @Test func subqueriesAndVariables() throws {
        let inner = FetchPredicate.compare(.member(.variable("e"), keyPath: "age"), .greaterThan, .variable("AGE"))
        let expected = FetchPredicate.compare(
            .member(.subquery(collection: .keyPath("employees"), variable: "e", predicate: inner), keyPath: "@count"),
            .equalTo, integer(0))
        #expect(try parse("SUBQUERY(employees, $e, $e.age > $AGE).@count == 0") == expected)
        #expect(expected.variableNames == ["AGE"])
        #expect(
            try expected.substituting(["AGE": 5])
                == parse("SUBQUERY(employees, $e, $e.age > 5).@count == 0"))
        // The subquery's own variable is bound: substitution never replaces it.
        #expect(
            try parse("SUBQUERY(employees, $e, $e == $e).@count == 0").substituting(["e": 1])
                == parse("SUBQUERY(employees, $e, $e == $e).@count == 0"))
    }

    @Test func descriptionIsCanonicalAndRoundTrips() throws {
        let cases: [(String, String)] = [
            ("any employees.age > 30", "ANY employees.age > 30"),
            ("Some tags.name ==[cd] 'x'", #"ANY tags.name ==[cd] "x""#),
            ("all employees.salary >= 1000.5", "ALL employees.salary >= 1000.5"),
            ("none employees.name BEGINSWITH 'D'", #"NONE employees.name BEGINSWITH "D""#),
            ("employees.@COUNT == 2 && employees.@avg.age > 30", "employees.@count == 2 AND employees.@avg.age > 30"),
            ("employees.@sum.salary < employees.@max.salary", "employees.@sum.salary < employees.@max.salary"),
            (
                "subquery(employees, $x, $x.age > 30 and $x.manager.name == 'Ada').@count > 0",
                #"SUBQUERY(employees, $x, $x.age > 30 AND $x.manager.name == "Ada").@count > 0"#
            ),
            (
                "SUBQUERY(employees, $e, SUBQUERY($e.employees, $g, $g.age < 30).@count > 0).@count > 0",
                "SUBQUERY(employees, $e, SUBQUERY($e.employees, $g, $g.age < 30).@count > 0).@count > 0"
            ),
            ("name matches '[A-C].*'", #"name MATCHES "[A-C].*""#),
            ("age IN {20, 35} OR age BETWEEN {$LOW, $HIGH}", "age IN {20, 35} OR age BETWEEN {$LOW, $HIGH}"),
            ("NOT (ANY #all.#any == 1)", "NOT ANY #all.#any == 1"),
        ]
        for (format, canonical) in cases {
            let predicate = try parse(format)
            #expect(predicate.description == canonical)
            #expect(try parse(predicate.description) == predicate, "\(format)")
        }
    }
}
