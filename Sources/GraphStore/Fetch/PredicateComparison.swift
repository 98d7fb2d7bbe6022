// One comparison of a predicate: two expressions, an operator and string options.

/// A comparison such as `name BEGINSWITH[c] "Ap"`: the payload of ``Predicate/comparison(_:)``.
///
/// ```swift
/// let comparison = PredicateComparison(.keyPath("price"), .lessThan, .constant(.value(.double(5))))
/// ```
public struct PredicateComparison: Sendable, Hashable {
    /// The left-hand expression.
    public var lhs: PredicateExpression
    /// The operator.
    public var comparisonOperator: ComparisonOperator
    /// The right-hand expression (an aggregate for `BETWEEN` and `IN`).
    public var rhs: PredicateExpression
    /// How strings are compared (`[c]`, `[d]`, `[cd]`); ignored for other values.
    public var options: StringComparisonOptions

    /// The comparison `lhs comparisonOperator[options] rhs`.
    public init(
        _ lhs: PredicateExpression, _ comparisonOperator: ComparisonOperator, _ rhs: PredicateExpression,
        options: StringComparisonOptions = []
    ) {
        self.lhs = lhs
        self.comparisonOperator = comparisonOperator
        self.rhs = rhs
        self.options = options
    }
}
