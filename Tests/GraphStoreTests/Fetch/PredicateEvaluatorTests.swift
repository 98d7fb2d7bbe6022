// In-memory evaluation and sorting: unit cases, and a seeded differential test that checks the
// evaluator and FetchSortDescriptor.compare agree with the SQL translation on random rows and predicates.
import Foundation
import Testing

@testable import GraphStore

/// SplitMix64: a small, seeded random number generator, so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct PredicateEvaluatorTests {
    private struct Row: PredicateSubject {
        var subjectObjectID = ObjectID(storeUUID: UUID(), entityID: 1, key: 1)
        var values: [String: PredicateOperand] = [:]

        func predicateValue(forKey key: String) throws -> PredicateOperand {
            guard let value = values[key] else { throw FetchError.unknownKeyPath(entity: "Row", keyPath: key) }
            return value
        }
    }

    private func evaluate(_ format: String, _ row: Row, _ arguments: any PredicateArgument...) throws -> Bool {
        try PredicateEvaluator.evaluate(FetchPredicate(format: format, argumentArray: arguments), on: row)
    }

    @Test func comparisonsAndNil() throws {
        let unit = Row(
            subjectObjectID: ObjectID(storeUUID: UUID(), entityID: 2, key: 7), values: ["name": .value(.string("kg"))])
        let row = Row(values: [
            "price": .value(.double(2.5)), "quantity": .value(.integer(3)),
            "cost": .value(.decimal(Decimal(string: "2.50") ?? 0)),
            "name": .value(.string("Straße")), "notes": .null, "unit": .object(unit), "tags": .objects([]),
        ])
        #expect(try evaluate("price == cost AND cost == 2.5 AND quantity < 3.5 AND quantity == 3.0", row))
        #expect(try evaluate("notes == nil AND notes != 'x' AND NOT notes == 'x' AND NOT notes < 'x'", row))
        #expect(try evaluate("notes < 'x' OR notes BEGINSWITH ''", row) == false)
        #expect(try evaluate("name ==[c] 'STRASSE' AND name BEGINSWITH 'Str' AND name LIKE 'S*e'", row))
        #expect(
            try evaluate(
                "unit.name == 'kg' AND unit == %@ AND SELF != %@", row, unit.subjectObjectID, unit.subjectObjectID))
        #expect(try evaluate("quantity IN {1, 3} AND quantity BETWEEN {3, 3} AND NOT quantity IN {}", row))
        #expect(throws: FetchError.self) { try evaluate("tags.name == 'x'", row) }
        #expect(throws: FetchError.self) { try evaluate("name == 5", row) }
        #expect(throws: FetchError.self) { try evaluate("unit < %@", row, unit.subjectObjectID) }
        #expect(throws: FetchError.unsubstitutedVariable("X")) { try evaluate("price < $X", row) }
    }

    @Test func stringFoldingAndLike() {
        #expect(
            StringFolding.fold("Äpfel Straße", options: [.caseInsensitive, .diacriticInsensitive]) == "apfel strasse")
        #expect(StringFolding.fold("e\u{301}COLE", options: .caseInsensitive) == "\u{e9}cole")
        #expect(StringFolding.fold("MiXeD", options: []) == "MiXeD")
        #expect(StringFolding.fold("ASCII Only", options: .caseInsensitive) == "ascii only")
        #expect(StringFolding.matchesLike("abc", pattern: "a*c"))
        #expect(StringFolding.matchesLike("abc", pattern: "a?c"))
        #expect(!StringFolding.matchesLike("abc", pattern: "a?"))
        #expect(StringFolding.matchesLike("", pattern: "*"))
        #expect(StringFolding.matchesLike("a*c", pattern: "a\\*c"))
        #expect(!StringFolding.matchesLike("abc", pattern: "a\\*c"))
        #expect(StringFolding.matchesLike("aXbXc", pattern: "*b*c"))
        #expect(StringFolding.matchesLike("äöü", pattern: "?ö?"))
    }

    // MARK: - Differential test

    private static let strings = [
        "Äpfel", "apfel", "APFEL", "Straße", "STRASSE", "école", "Ecole", "e\u{301}cole", "", "a*b?", "kg", "Kg",
        "Zürich", "zucchini", "ß",
    ]
    private static let patterns = ["*", "a*", "*e", "?pfel", "*SS*", "e*", "a\\*b?", "k?"]
    private static let doubles = [0, 0.5, 1.99, 2.49, 5, 10, -1.5, 7.25]
    private static let decimals = ["1.10", "1.1", "2.5", "-3", "0.1", "100.25", "5"]

    private struct Random {
        var generator: SeededGenerator

        mutating func chance(_ probability: Double) -> Bool {
            Double.random(in: 0..<1, using: &generator) < probability
        }
        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &generator)] }
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

        mutating func string() -> AttributeValue { .string(pick(PredicateEvaluatorTests.strings)) }
        mutating func decimal() -> AttributeValue {
            .decimal(Decimal(string: pick(PredicateEvaluatorTests.decimals)) ?? 0)
        }
        mutating func number() -> AttributeValue {
            switch int(0...2) {
            case 0: .integer(Int64(int(-5...12)))
            case 1: .double(pick(PredicateEvaluatorTests.doubles))
            default: decimal()
            }
        }
        mutating func date() -> AttributeValue { .date(Date(timeIntervalSince1970: Double(int(0...6)) * 1_000.5)) }
    }

    private func populate(_ fixture: inout FetchFixture, _ random: inout Random) throws {
        try fixture.insert("Location", 1, ["aisle": .string("A1")])
        try fixture.insert("Location", 2, ["aisle": .string("b2")])
        for pk in 1...4 {
            try fixture.insert(
                "Unit", Int64(pk),
                [
                    "name": random.chance(0.8) ? random.string() : nil,
                    "location": random.chance(0.7) ? .integer(Int64(random.int(1...2))) : nil,
                ])
        }
        for pk in 1...60 {
            func maybe(_ value: AttributeValue) -> AttributeValue? { random.chance(0.8) ? value : nil }
            let values: [String: AttributeValue?] = [
                "name": maybe(random.string()), "notes": maybe(random.string()),
                "price": maybe(.double(random.pick(Self.doubles))),
                "quantity": maybe(.integer(Int64(random.int(-5...12)))),
                "listed": maybe(.boolean(random.chance(0.5))), "added": maybe(random.date()),
                "cost": maybe(random.decimal()),
                "unit": maybe(.integer(Int64(random.int(1...4)))),
            ]
            try fixture.insert(random.chance(0.3) ? "Perishable" : "Product", Int64(pk), values)
        }
    }

    private func randomComparison(_ random: inout Random, fixture: FetchFixture) throws -> FetchPredicate {
        let options = random.pick([
            [], StringComparisonOptions.caseInsensitive, .diacriticInsensitive,
            [.caseInsensitive, .diacriticInsensitive],
        ])
        func constant(_ value: AttributeValue?) -> FetchExpression {
            value.map { .constant(.value($0)) } ?? .constant(.null)
        }
        switch random.int(0...6) {
        case 0, 1:
            let key = FetchExpression.keyPath(random.pick(["name", "notes", "unit.name", "unit.location.aisle"]))
            let comparisonOperator = random.pick(ComparisonOperator.allCases.filter { $0 != .between })
            let rhs: FetchExpression
            switch comparisonOperator {
            case .in:
                rhs = .aggregate(
                    (0..<random.int(0...3)).map { _ in constant(random.chance(0.9) ? random.string() : nil) })
            case .like: rhs = constant(.string(random.pick(Self.patterns)))
            default:
                rhs = random.chance(0.15) ? .keyPath("notes") : constant(random.chance(0.9) ? random.string() : nil)
            }
            return .compare(key, comparisonOperator, rhs, options: options)
        case 2, 3:
            let key = FetchExpression.keyPath(random.pick(["price", "quantity", "cost"]))
            let comparisonOperator = random.pick(ComparisonOperator.allCases.filter { !$0.isStringOperator })
            let rhs: FetchExpression
            switch comparisonOperator {
            case .in: rhs = .aggregate((0..<random.int(0...3)).map { _ in constant(random.number()) })
            case .between: rhs = .aggregate([constant(random.number()), constant(random.number())])
            default:
                rhs =
                    random.chance(0.2)
                    ? .keyPath(random.pick(["price", "quantity", "cost"]))
                    : constant(random.chance(0.9) ? random.number() : nil)
            }
            return .compare(key, comparisonOperator, rhs)
        case 4:
            let comparisonOperator = random.pick([
                ComparisonOperator.lessThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo,
            ])
            return .compare(.keyPath("added"), comparisonOperator, constant(random.chance(0.9) ? random.date() : nil))
        case 5:
            let value = random.pick([AttributeValue.boolean(true), .boolean(false), .integer(0), .integer(1)])
            return .compare(.keyPath("listed"), random.pick([.equalTo, .notEqualTo]), constant(value))
        default:
            let unit = FetchExpression.constant(.object(try fixture.id("Unit", Int64(random.int(1...4)))))
            switch random.int(0...2) {
            case 0:
                return .compare(
                    .keyPath("unit"), random.pick([.equalTo, .notEqualTo]), random.chance(0.8) ? unit : .constant(.null)
                )
            case 1:
                return .compare(
                    .keyPath("unit"), .in, .aggregate([unit, random.chance(0.5) ? unit : .constant(.null)]))
            default:
                return .compare(.keyPath("unit.location"), .equalTo, .constant(.object(try fixture.id("Location", 1))))
            }
        }
    }

    private func randomPredicate(_ random: inout Random, fixture: FetchFixture, depth: Int = 0) throws -> FetchPredicate
    {
        guard depth < 3, random.chance(0.5) else { return try randomComparison(&random, fixture: fixture) }
        switch random.int(0...2) {
        case 0: return .not(try randomPredicate(&random, fixture: fixture, depth: depth + 1))
        case 1:
            return .and(
                try (0..<random.int(1...3)).map { _ in try randomPredicate(&random, fixture: fixture, depth: depth + 1)
                })
        default:
            return .or(
                try (0..<random.int(1...3)).map { _ in try randomPredicate(&random, fixture: fixture, depth: depth + 1)
                })
        }
    }

    @Test func evaluatorAgreesWithSQL() throws {
        var random = Random(generator: SeededGenerator(seed: 0x5EED_CAFE))
        var fixture = try FetchFixture()
        try populate(&fixture, &random)
        for _ in 0..<400 {
            let predicate = try randomPredicate(&random, fixture: fixture)
            let entity = random.chance(0.8) ? "Product" : "Perishable"
            #expect(try fixture.pks(entity, predicate) == fixture.evaluatedPKs(entity, predicate), "\(predicate)")
            // Degenerate shapes (a one-element AND, …) print as their content, so the printed
            // form, not the tree, is what survives a round trip.
            let reparsed = try FetchPredicate(format: predicate.description)
            #expect(reparsed.description == predicate.description)
            #expect(try fixture.pks(entity, reparsed) == fixture.pks(entity, predicate))
        }
    }

    @Test func sortDescriptorsAgreeWithSQL() throws {
        var random = Random(generator: SeededGenerator(seed: 0xD1FF))
        var fixture = try FetchFixture()
        try populate(&fixture, &random)
        let objects = try fixture.objects(of: "Product").map(fixture.resolved)
        for _ in 0..<60 {
            let descriptors = (0..<random.int(1...3)).map { _ in
                FetchSortDescriptor(
                    random.pick([
                        "name", "notes", "price", "quantity", "cost", "added", "listed", "unit.name",
                        "unit.location.aisle",
                    ]),
                    ascending: random.chance(0.5),
                    options: random.pick([[], .caseInsensitive, [.caseInsensitive, .diacriticInsensitive]]))
            }
            let expected = try fixture.pks(FetchRequest(entityName: "Product", sortDescriptors: descriptors))
            let sorted = try objects.sorted { a, b in
                for descriptor in descriptors {
                    let order = try descriptor.compare(a, b)
                    if order != 0 { return order < 0 }
                }
                return a.id.key < b.id.key
            }
            #expect(sorted.map(\.id.key) == expected, "\(descriptors)")
        }
    }
}
