// The Swift predicate API: a key path handle whose operators and methods build comparisons.
// Invariant: `PredicateKey` is deliberately not Equatable, so `==` on it always builds a
// predicate and never competes with Equatable's Bool-returning `==`.

/// A key path in the Swift predicate API; compare it to get a ``FetchPredicate``.
///
/// ```swift
/// let predicate: FetchPredicate = .key("price") < 5
///     && .key("unit.name") == "kg"
///     && .key("name").beginsWith("ap", options: [.caseInsensitive, .diacriticInsensitive])
///     && .key("quantity").between(20, 35)
///     && .key("sku").in(["A1", "B2"])
///     && .key("notes") != nil
///     && !(.key("listed") == false)
/// ```
public struct PredicateKey: Sendable {
    /// The key path expression.
    public let expression: FetchExpression
    /// The quantifier comparisons with this key get (`ANY`, `ALL`, `NONE`), `.direct` for none.
    public let modifier: ComparisonModifier

    /// A handle on the dotted key path `keyPath` (`"self"` is the object itself).
    public init(_ keyPath: String) {
        self.init(expression: .keyPath(keyPath))
    }

    /// A handle on any expression, compared with `modifier`.
    public init(expression: FetchExpression, modifier: ComparisonModifier = .direct) {
        self.expression = expression
        self.modifier = modifier
    }

    private func compare(
        _ comparisonOperator: ComparisonOperator, _ rhs: FetchExpression, options: StringComparisonOptions = []
    ) -> FetchPredicate {
        .compare(expression, comparisonOperator, rhs, options: options, modifier: modifier)
    }

    /// `key OPERATOR[options] value`, for any operator.
    public func compare(
        _ comparisonOperator: ComparisonOperator, _ value: some PredicateArgument,
        options: StringComparisonOptions = []
    ) -> FetchPredicate {
        compare(comparisonOperator, value.predicateExpression, options: options)
    }

    /// `key ==[options] value`: equality with string options, e.g. `name ==[c] "kg"`.
    public func equals(_ value: some PredicateArgument, options: StringComparisonOptions) -> FetchPredicate {
        compare(.equalTo, value.predicateExpression, options: options)
    }

    /// `key BEGINSWITH[options] prefix`.
    public func beginsWith(_ prefix: some PredicateArgument, options: StringComparisonOptions = []) -> FetchPredicate {
        compare(.beginsWith, prefix.predicateExpression, options: options)
    }

    /// `key ENDSWITH[options] suffix`.
    public func endsWith(_ suffix: some PredicateArgument, options: StringComparisonOptions = []) -> FetchPredicate {
        compare(.endsWith, suffix.predicateExpression, options: options)
    }

    /// `key CONTAINS[options] substring`.
    public func contains(_ substring: some PredicateArgument, options: StringComparisonOptions = []) -> FetchPredicate {
        compare(.contains, substring.predicateExpression, options: options)
    }

    /// `key LIKE[options] pattern`, where `*` matches any run of characters and `?` one character.
    public func like(_ pattern: some PredicateArgument, options: StringComparisonOptions = []) -> FetchPredicate {
        compare(.like, pattern.predicateExpression, options: options)
    }

    /// `key MATCHES[options] regex`: the whole string matches the regular expression.
    public func matches(_ regex: some PredicateArgument, options: StringComparisonOptions = []) -> FetchPredicate {
        compare(.matches, regex.predicateExpression, options: options)
    }

    /// `key BETWEEN {low, high}`: low ≤ key ≤ high.
    public func between<Bound: PredicateArgument>(_ low: Bound, _ high: Bound) -> FetchPredicate {
        compare(.between, .aggregate([low.predicateExpression, high.predicateExpression]))
    }

    /// `key IN {values…}`: equal to one of `values`.
    public func `in`<Values: Sequence>(_ values: Values, options: StringComparisonOptions = []) -> FetchPredicate
    where Values.Element: PredicateArgument {
        compare(.in, .aggregate(values.map(\.predicateExpression)), options: options)
    }

    /// `key == value`.
    public static func == (lhs: PredicateKey, rhs: some PredicateArgument) -> FetchPredicate {
        lhs.compare(.equalTo, rhs.predicateExpression)
    }

    /// `key != value` (true when the key is nil and the value is not).
    public static func != (lhs: PredicateKey, rhs: some PredicateArgument) -> FetchPredicate {
        lhs.compare(.notEqualTo, rhs.predicateExpression)
    }

    /// `key < value`.
    public static func < (lhs: PredicateKey, rhs: some PredicateArgument) -> FetchPredicate {
        lhs.compare(.lessThan, rhs.predicateExpression)
    }

    /// `key <= value`.
    public static func <= (lhs: PredicateKey, rhs: some PredicateArgument) -> FetchPredicate {
        lhs.compare(.lessThanOrEqualTo, rhs.predicateExpression)
    }

    /// `key > value`.
    public static func > (lhs: PredicateKey, rhs: some PredicateArgument) -> FetchPredicate {
        lhs.compare(.greaterThan, rhs.predicateExpression)
    }

    /// `key >= value`.
    public static func >= (lhs: PredicateKey, rhs: some PredicateArgument) -> FetchPredicate {
        lhs.compare(.greaterThanOrEqualTo, rhs.predicateExpression)
    }

    /// `key == nil`.
    public static func == (lhs: PredicateKey, _: _OptionalNilComparisonType) -> FetchPredicate {
        lhs.compare(.equalTo, .constant(.null))
    }

    /// `key != nil`.
    public static func != (lhs: PredicateKey, _: _OptionalNilComparisonType) -> FetchPredicate {
        lhs.compare(.notEqualTo, .constant(.null))
    }

    /// `key == otherKey`.
    public static func == (lhs: PredicateKey, rhs: PredicateKey) -> FetchPredicate {
        lhs.compare(.equalTo, rhs.expression)
    }

    /// `key != otherKey`.
    public static func != (lhs: PredicateKey, rhs: PredicateKey) -> FetchPredicate {
        lhs.compare(.notEqualTo, rhs.expression)
    }

    /// `key < otherKey`.
    public static func < (lhs: PredicateKey, rhs: PredicateKey) -> FetchPredicate {
        lhs.compare(.lessThan, rhs.expression)
    }

    /// `key <= otherKey`.
    public static func <= (lhs: PredicateKey, rhs: PredicateKey) -> FetchPredicate {
        lhs.compare(.lessThanOrEqualTo, rhs.expression)
    }

    /// `key > otherKey`.
    public static func > (lhs: PredicateKey, rhs: PredicateKey) -> FetchPredicate {
        lhs.compare(.greaterThan, rhs.expression)
    }

    /// `key >= otherKey`.
    public static func >= (lhs: PredicateKey, rhs: PredicateKey) -> FetchPredicate {
        lhs.compare(.greaterThanOrEqualTo, rhs.expression)
    }
}

extension FetchPredicate {
    /// A key path to compare: `.key("price") < 5`, `.key("unit.name") == "kg"`.
    public static func key(_ keyPath: String) -> PredicateKey {
        PredicateKey(keyPath)
    }
}

extension PredicateKey {
    /// A key path to compare, where the context expects a ``PredicateKey`` (the left operand of
    /// `==`, `<`, …): `.key("price") < 5`.
    public static func key(_ keyPath: String) -> PredicateKey {
        PredicateKey(keyPath)
    }
}
