// The format-string parser: every operator, literal and option, precedence, %@ and %K,
// variables, errors with offsets, and description round trips.
import Foundation
import Testing

@testable import GraphStore

@Suite struct PredicateParserTests {
    private func parse(_ format: String, _ arguments: any PredicateArgument...) throws -> FetchPredicate {
        try FetchPredicate(format: format, argumentArray: arguments)
    }

    private func key(_ path: String) -> FetchExpression { .keyPath(path) }
    private func value(_ value: AttributeValue) -> FetchExpression { .constant(.value(value)) }

    @Test(arguments: [
        ("a == 1", ComparisonOperator.equalTo), ("a = 1", .equalTo), ("a != 1", .notEqualTo),
        ("a <> 1", .notEqualTo), ("a < 1", .lessThan), ("a <= 1", .lessThanOrEqualTo),
        ("a =< 1", .lessThanOrEqualTo), ("a > 1", .greaterThan), ("a >= 1", .greaterThanOrEqualTo),
        ("a => 1", .greaterThanOrEqualTo), ("a BEGINSWITH 1", .beginsWith), ("a endswith 1", .endsWith),
        ("a Contains 1", .contains), ("a LIKE 1", .like),
    ])
    func operators(format: String, expected: ComparisonOperator) throws {
        #expect(try parse(format) == .compare(key("a"), expected, value(.integer(1))))
    }

    @Test func betweenAndIn() throws {
        #expect(
            try parse("quantity BETWEEN {20, 35}")
                == .compare(key("quantity"), .between, .aggregate([value(.integer(20)), value(.integer(35))])))
        #expect(try parse("sku IN {}") == .compare(key("sku"), .in, .aggregate([])))
        #expect(
            try parse("sku IN %@", ["A", "B"])
                == .compare(key("sku"), .in, .aggregate([value(.string("A")), value(.string("B"))])))
    }

    @Test func literals() throws {
        let cases: [(String, FetchExpression)] = [
            ("42", value(.integer(42))), ("-7", value(.integer(-7))), ("3.25", value(.double(3.25))),
            ("-0.5", value(.double(-0.5))), ("1e3", value(.double(1000))), ("2.5E-2", value(.double(0.025))),
            ("0x1F", value(.integer(31))), ("99999999999999999999", value(.double(1e20))),
            ("'single'", value(.string("single"))), ("\"double\"", value(.string("double"))),
            (#""a\"b\\c\n\t\u00e9""#, value(.string("a\"b\\c\n\té"))), (#"'it\'s'"#, value(.string("it's"))),
            ("TRUE", value(.boolean(true))), ("yes", value(.boolean(true))), ("False", value(.boolean(false))),
            ("NO", value(.boolean(false))), ("nil", .constant(.null)), ("NULL", .constant(.null)),
            ("$LIMIT", .variable("LIMIT")), ("{1, 'a'}", .aggregate([value(.integer(1)), value(.string("a"))])),
            ("SELF", key("self")), ("unit.name", key("unit.name")), ("#in", key("in")),
        ]
        for (literal, expected) in cases {
            #expect(try parse("x == \(literal)") == .compare(key("x"), .equalTo, expected), "\(literal)")
        }
    }

    @Test func options() throws {
        #expect(
            try parse("name BEGINSWITH[c] 'Ap'")
                == .compare(key("name"), .beginsWith, value(.string("Ap")), options: .caseInsensitive))
        #expect(
            try parse("name ==[d] 'x'")
                == .compare(key("name"), .equalTo, value(.string("x")), options: .diacriticInsensitive))
        #expect(
            try parse("name LIKE[cd] 'x'")
                == .compare(
                    key("name"), .like, value(.string("x")), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try parse("name LIKE[DC] 'x'") == parse("name LIKE[cd] 'x'"))
    }

    @Test func precedenceAndGrouping() throws {
        let a = FetchPredicate.compare(key("a"), .equalTo, value(.integer(1)))
        let b = FetchPredicate.compare(key("b"), .equalTo, value(.integer(2)))
        let c = FetchPredicate.compare(key("c"), .equalTo, value(.integer(3)))
        #expect(try parse("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try parse("(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try parse("a == 1 && b == 2 || c == 3") == .or([.and([a, b]), c]))
        #expect(try parse("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try parse("!(a == 1 or b == 2)") == .not(.or([a, b])))
        #expect(try parse("a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try parse("TRUEPREDICATE") == .truePredicate)
        #expect(try parse("falsepredicate OR a == 1") == .or([.falsePredicate, a]))
    }

    @Test func formatArguments() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        let id = ObjectID(storeUUID: UUID(), entityID: 2, key: 9)
        #expect(
            try parse("%K < %@ AND added > %@ AND unit == %@", "price", 5.5, date, id)
                == .and([
                    .compare(key("price"), .lessThan, value(.double(5.5))),
                    .compare(key("added"), .greaterThan, value(.date(date))),
                    .compare(key("unit"), .equalTo, .constant(.object(id))),
                ]))
        let none: String? = nil
        #expect(try parse("notes == %@", none) == .compare(key("notes"), .equalTo, .constant(.null)))
        #expect(try parse("a == %@", Int16(3)) == parse("a == 3"))
        #expect(try parse("a == %@", Decimal(string: "1.5") ?? 0) == .compare(key("a"), .equalTo, value(.decimal(1.5))))
    }

    @Test(arguments: [
        ("quantity < ", "expected a value after '<'", 11),
        ("price < 5 AND", "expected a predicate after 'AND'", 13),
        ("(a == 1", "expected ')' after '1'", 7),
        ("a 1", "expected an operator after 'a'", 2),
        ("a == 'open", "unterminated string", 5),
        ("a == 1 b", "unexpected 'b'", 7),
        ("a ==[x] 1", "unknown comparison option 'x'", 5),
        ("a == %@", "missing argument for '%@'", 5),
        ("a == 1 ^ 2", "unexpected character '^'", 7),
        ("a ANY 1", "ANY is not supported here", 2),
        ("a == FIRST", "FIRST is not supported", 5),
        ("ANY", "expected a value after 'ANY'", 3),
        ("a.@foo == 1", "unknown collection operator '@foo'", 2),
        ("a.@ == 1", "expected a collection operator after '@'", 2),
        ("SUBQUERY(a, b, c == 1).@count > 0", "expected a $variable after ','", 12),
        ("SUBQUERY(a, $x, $x.c == 1 > 0", "expected ')' after '1'", 26),
        ("a == 1 b BETWEEN 2", "unexpected 'b'", 7),
        ("a AND 1", "AND is not supported here", 2),
        ("a == 12ab", "unexpected 'a' in a number", 7),
        ("Äpfel == 'x' AND", "expected a predicate after 'AND'", 16),
        ("a == CAST('x', 'NSDate')", "cannot cast ''x'' to NSDate", 5),
    ])
    func errors(format: String, message: String, offset: Int) throws {
        let error = #expect(throws: PredicateSyntaxError.self) { try FetchPredicate(format: format) }
        #expect(error?.message == message)
        #expect(error?.offset == offset)
        #expect(error?.description == "\(message) at \(offset)")
    }

    @Test func argumentErrors() throws {
        #expect(throws: PredicateSyntaxError.self) { try parse("%K == 1", 5) }
        let unused = #expect(throws: PredicateSyntaxError.self) { try parse("a == 1", 5) }
        #expect(unused?.message == "too many arguments: 1 given, 0 used")
    }

    @Test func descriptionRoundTrips() throws {
        let id = ObjectID(storeUUID: UUID(), entityID: 3, key: 42)
        let url = try #require(URL(string: "https://example.com/a?b=1"))
        let predicates: [FetchPredicate] = [
            try parse("name BEGINSWITH[c] 'Ap' AND quantity BETWEEN {20, 35}"),
            try parse("a == 1 OR (b == 2 AND NOT c == 3) OR NOT (d < 4 OR e > 5)"),
            try parse("((a == 1 OR b == 2) OR c == 3) AND (d == 4 AND e == 5)"),
            try parse("x == -2.5 AND y == 1e-07 AND z == 2.0 AND w == -9223372036854775808"),
            try parse("s == 'quote \" and \\\\ and \\n and \\u0001 and é' AND t ENDSWITH[cd] ''"),
            try parse("SELF == %@ AND unit != nil AND #in == TRUE AND #desc.#all != FALSE", id),
            try parse("price < $LIMIT AND sku IN {'a', nil, 3} AND TRUEPREDICATE OR FALSEPREDICATE"),
            try parse(
                "d == %@ AND c == %@ AND u == %@ AND l == %@ AND b == %@", Date(timeIntervalSince1970: 1_234.567),
                Decimal(string: "12345678901234567890.25") ?? 0, UUID(), url,
                Data([0, 1, 2, 255])),
            .key("name").like("a*b?", options: .diacriticInsensitive) && !(.key("price") >= 2.49),
        ]
        for predicate in predicates {
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(predicate)")
        }
        #expect(
            try parse("name beginswith[c] \"Ap\" and quantity between {20,35}").description
                == #"name BEGINSWITH[c] "Ap" AND quantity BETWEEN {20, 35}"#)
    }

    @Test func swiftAPI() throws {
        let id = ObjectID(storeUUID: UUID(), entityID: 3, key: 42)
        let built: FetchPredicate =
            .key("price") < 5 && .key("name").beginsWith("Ap", options: .caseInsensitive)
            && .key("quantity").between(20, 35) && .key("unit") == id && .key("notes") == nil
            && .key("sku").in(["a", "b"]) && !(.key("listed") == true) && .key("a") <= .key("b")
        let parsed = try parse(
            "price < 5 AND name BEGINSWITH[c] 'Ap' AND quantity BETWEEN {20, 35} AND unit == %@ AND notes == nil "
                + "AND sku IN {'a', 'b'} AND NOT listed == YES AND a <= b", id)
        #expect(built == parsed)
        let either: FetchPredicate = .key("a") == 1 || .key("b") != nil || .key("c") > 2.5
        #expect(either == (try parse("a == 1 OR b != nil OR c > 2.5")))
        #expect(FetchPredicate.key("n").equals("kg", options: .caseInsensitive) == (try parse("n ==[c] 'kg'")))
    }

    @Test func substitution() throws {
        let template = try parse("price < $LIMIT AND name IN $NAMES AND unit == $UNIT")
        let id = ObjectID(storeUUID: UUID(), entityID: 3, key: 42)
        #expect(
            try template.substituting(["LIMIT": 10, "NAMES": ["a", "b"], "UNIT": id])
                == parse("price < 10 AND name IN {'a', 'b'} AND unit == %@", id))
        #expect(throws: FetchError.unsubstitutedVariable("UNIT")) {
            try template.substituting(["LIMIT": 10, "NAMES": ["a"]])
        }
    }
}
