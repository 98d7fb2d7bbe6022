// In-memory predicate evaluation, with the semantics of the SQL that `FetchQueryBuilder` writes
// (docs/Predicates.md, "Semantics"): two-valued logic where a comparison with nil is false except
// `== nil` and `!= value`; numbers compare across integer, double and decimal; strings compare
// by UTF-8 bytes unless folded with `[c]`/`[d]`; key paths walk to-one relationships; ANY, ALL,
// NONE, collection operators and subqueries walk one to-many (PredicateEvaluator+Collections).
// Invariant: for a predicate that `FetchQueryBuilder` accepts, `evaluate` returns true exactly
// for the rows its SQL selects (the differential tests check this).

/// Evaluates predicates on objects in memory, e.g. a context's unsaved inserts and changes.
///
/// ```swift
/// let matches = try PredicateEvaluator.evaluate(.key("unit.name") == "kg", on: object)
/// ```
public enum PredicateEvaluator {
    /// Whether `subject` satisfies `predicate`.
    ///
    /// - Throws: ``FetchError`` for a direct key path through a to-many relationship, values of
    ///   kinds that do not compare, an invalid regular expression or a `$VARIABLE`; whatever
    ///   `subject` throws for an unknown key.
    public static func evaluate(_ predicate: FetchPredicate, on subject: any PredicateSubject) throws -> Bool {
        try evaluate(predicate, on: subject, bindings: [:])
    }

    /// Whether `subject` satisfies `predicate`, with subquery variables bound to members in `bindings`.
    static func evaluate(
        _ predicate: FetchPredicate, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .comparison(let comparison) where comparison.modifier != .direct:
            return try quantified(comparison, on: subject, bindings: bindings)
        case .comparison(let comparison)
        where try comparison.membershipQuantifier.map({ try reachesToMany($0.lhs, on: subject, bindings: bindings) })
            ?? false:
            return try quantified(comparison.membershipQuantifier ?? comparison, on: subject, bindings: bindings)
        case .comparison(let comparison):
            let lhs = try operand(comparison.lhs, on: subject, bindings: bindings)
            let rhs = try operand(comparison.rhs, on: subject, bindings: bindings)
            return try evaluate(comparison, lhs: lhs, rhs: rhs)
        case .and(let elements):
            return try elements.allSatisfy { try evaluate($0, on: subject, bindings: bindings) }
        case .or(let elements):
            return try elements.contains { try evaluate($0, on: subject, bindings: bindings) }
        case .not(let operand):
            return try !evaluate(operand, on: subject, bindings: bindings)
        }
    }

    // MARK: - Operands

    /// A comparison operand after key paths have been followed.
    enum Operand {
        case null
        case value(AttributeValue)
        case object(ObjectID)
        case list([Operand])

        /// The operand a constant stands for.
        init(_ constant: PredicateConstant) {
            switch constant {
            case .null: self = .null
            case .value(let value): self = .value(value)
            case .object(let id): self = .object(id)
            }
        }

        /// The operand a single key-path value stands for; a to-many's members are an error.
        init(_ value: PredicateOperand, keyPath: String, subject: any PredicateSubject) throws {
            switch value {
            case .null: self = .null
            case .value(let value): self = .value(value)
            case .object(let object): self = .object(object.subjectObjectID)
            case .objects:
                throw PredicateEvaluator.toManyError(
                    keyPath, relationship: keyPath.split(separator: ".").last, subject: subject)
            }
        }
    }

    static func operand(
        _ expression: FetchExpression, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> Operand {
        switch expression {
        case .constant(let constant):
            return Operand(constant)
        case .variable(let name):
            guard let bound = bindings[name] else { throw FetchError.unsubstitutedVariable(name) }
            return .object(bound.subjectObjectID)
        case .aggregate(let elements):
            return .list(try elements.map { try operand($0, on: subject, bindings: bindings) })
        case .keyPath(let path):
            return try Operand(value(atKeyPath: path, of: subject), keyPath: path, subject: subject)
        case .member(let base, let path):
            let start = try memberBase(base, on: subject, bindings: bindings)
            return try Operand(walk(path, from: start, subject: subject), keyPath: path, subject: subject)
        case .subquery:
            throw FetchError.invalidComparison("a SUBQUERY is compared through its @count in \(expression)")
        }
    }

    /// The value of `self` or a key path, through to-ones; a to-many's members when the last key
    /// is a to-many relationship; the result of a collection operator (`employees.@count`).
    static func value(atKeyPath path: String, of subject: any PredicateSubject) throws -> PredicateOperand {
        if path == FetchExpression.selfKeyPath { return .object(subject) }
        return try walk(path, from: .object(subject), subject: subject)
    }

    static func toManyError(_ path: String, relationship: Substring?, subject: any PredicateSubject) -> FetchError {
        .toManyKeyPath(entity: entityName(of: subject), keyPath: path, relationship: String(relationship ?? ""))
    }

    /// How errors name the entity of an object: the evaluator has no model, only the entity's store ID.
    static func entityName(of subject: any PredicateSubject) -> String {
        "entity #\(subject.subjectObjectID.entityID)"
    }

    // MARK: - Comparisons

    /// Whether operands that have been evaluated satisfy `comparison`'s operator and options.
    static func evaluate(_ comparison: PredicateComparison, lhs: Operand, rhs: Operand) throws -> Bool {
        let options = comparison.options
        switch comparison.comparisonOperator {
        case .equalTo:
            return try equal(lhs, rhs, options: options, in: comparison)
        case .notEqualTo:
            return try !equal(lhs, rhs, options: options, in: comparison)
        case .lessThan:
            return try order(lhs, rhs, options: options, in: comparison).map { $0 < 0 } ?? false
        case .lessThanOrEqualTo:
            return try order(lhs, rhs, options: options, in: comparison).map { $0 <= 0 } ?? false
        case .greaterThan:
            return try order(lhs, rhs, options: options, in: comparison).map { $0 > 0 } ?? false
        case .greaterThanOrEqualTo:
            return try order(lhs, rhs, options: options, in: comparison).map { $0 >= 0 } ?? false
        case .between:
            guard case .list(let bounds) = rhs, bounds.count == 2 else {
                throw FetchError.invalidComparison("BETWEEN needs {low, high} in \(comparison)")
            }
            guard let low = try order(lhs, bounds[0], options: options, in: comparison),
                let high = try order(lhs, bounds[1], options: options, in: comparison)
            else { return false }
            return low >= 0 && high <= 0
        case .in:
            guard case .list(let elements) = rhs else {
                throw FetchError.invalidComparison("IN needs a collection in \(comparison)")
            }
            return try elements.contains { try equal(lhs, $0, options: options, in: comparison) }
        case .matches:
            let raw = PredicateComparison(comparison.lhs, .matches, comparison.rhs)
            guard let (text, pattern) = try texts(lhs, rhs, comparison: raw) else { return false }
            return try RegexMatcher.matches(text, pattern: pattern, options: options)
        case .beginsWith, .endsWith, .contains, .like:
            guard let (text, pattern) = try texts(lhs, rhs, comparison: comparison) else { return false }
            return matches(text, comparison.comparisonOperator, pattern)
        }
    }

    /// The string operators on folded text; plain text compares by UTF-8 bytes, like SQLite.
    private static func matches(_ text: String, _ comparisonOperator: ComparisonOperator, _ pattern: String) -> Bool {
        switch comparisonOperator {
        case .beginsWith: text.utf8.starts(with: pattern.utf8)
        case .endsWith: text.utf8.reversed().starts(with: pattern.utf8.reversed())
        case .contains: pattern.isEmpty || contains(Array(text.utf8), Array(pattern.utf8))
        default: StringFolding.matchesLike(text, pattern: pattern)
        }
    }

    private static func contains(_ text: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard pattern.count <= text.count else { return false }
        return (0...(text.count - pattern.count)).contains { text[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    /// Equality: nil equals only nil, objects by ID, values by their order.
    private static func equal(
        _ lhs: Operand, _ rhs: Operand, options: StringComparisonOptions, in comparison: PredicateComparison
    ) throws
        -> Bool
    {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.object(let a), .object(let b)): return a == b
        case (.value, .value): return try order(lhs, rhs, options: options, in: comparison) == 0
        case (.list, _), (_, .list):
            throw FetchError.invalidComparison("a collection cannot be compared with == in \(comparison)")
        case (.object, .value(let value)), (.value(let value), .object):
            throw FetchError.typeMismatch(
                keyPath: comparison.lhs.description, expected: "an object", found: value.kindName)
        }
    }

    /// The order of two values (folded when they are text and options are given); nil when
    /// either is nil.
    private static func order(
        _ lhs: Operand, _ rhs: Operand, options: StringComparisonOptions, in comparison: PredicateComparison
    )
        throws -> Int?
    {
        switch (lhs, rhs) {
        case (.null, _), (_, .null): return nil
        case (.value(let a), .value(let b)):
            let (left, right) = try unified(a, b, in: comparison)
            if !options.isEmpty, let leftText = left.predicateText, let rightText = right.predicateText {
                return ValueOrder.compare(.string(fold(leftText, options)), .string(fold(rightText, options)))
            }
            return ValueOrder.compare(left, right)
        default:
            throw FetchError.invalidComparison(
                "objects and collections can only be tested for equality in \(comparison)")
        }
    }

    /// Both values in one family, a string coerced to a UUID or URI to meet the other.
    private static func unified(_ a: AttributeValue, _ b: AttributeValue, in comparison: PredicateComparison) throws
        -> (AttributeValue, AttributeValue)
    {
        let familyA = ValueFamily(a)
        let familyB = ValueFamily(b)
        if familyA == familyB { return (a, b) }
        if let coerced = familyA.coerced(b) { return (a, coerced) }
        if let coerced = familyB.coerced(a) { return (coerced, b) }
        throw FetchError.typeMismatch(keyPath: comparison.lhs.description, expected: a.kindName, found: b.kindName)
    }

    /// Both sides as folded text for the string operators; nil when either is nil.
    private static func texts(_ lhs: Operand, _ rhs: Operand, comparison: PredicateComparison) throws
        -> (String, String)?
    {
        switch (lhs, rhs) {
        case (.null, _), (_, .null): return nil
        case (.value(let a), .value(let b)):
            if let textA = a.predicateText, let textB = b.predicateText {
                return (fold(textA, comparison.options), fold(textB, comparison.options))
            }
            let found = a.predicateText == nil ? a : b
            throw FetchError.typeMismatch(
                keyPath: comparison.lhs.description, expected: "a string", found: found.kindName)
        default:
            throw FetchError.invalidComparison(
                "\(comparison.comparisonOperator.formatToken) needs strings in \(comparison)")
        }
    }

    private static func fold(_ string: String, _ options: StringComparisonOptions) -> String {
        StringFolding.fold(string, options: options)
    }
}
