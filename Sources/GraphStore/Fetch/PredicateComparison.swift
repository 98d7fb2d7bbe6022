// One comparison of a predicate: two expressions, an operator, string options and a quantifier.

/// A comparison such as `name BEGINSWITH[c] "Ap"`: the payload of ``FetchPredicate/comparison(_:)``.
///
/// ```swift
/// let comparison = PredicateComparison(.keyPath("price"), .lessThan, .constant(.value(.double(5))))
/// ```
public struct PredicateComparison: Sendable, Hashable {
    /// The left-hand expression.
    public var lhs: FetchExpression
    /// The operator.
    public var comparisonOperator: ComparisonOperator
    /// The right-hand expression (an aggregate for `BETWEEN` and `IN`).
    public var rhs: FetchExpression
    /// How strings are compared (`[c]`, `[d]`, `[cd]`); ignored for other values.
    public var options: StringComparisonOptions
    /// `ANY`, `ALL` or `NONE` for a left key path through a to-many relationship; `.direct` otherwise.
    public var modifier: ComparisonModifier

    /// The comparison `[modifier] lhs comparisonOperator[options] rhs`.
    public init(
        _ lhs: FetchExpression, _ comparisonOperator: ComparisonOperator, _ rhs: FetchExpression,
        options: StringComparisonOptions = [], modifier: ComparisonModifier = .direct
    ) {
        self.modifier = modifier
        self.lhs = lhs
        self.comparisonOperator = comparisonOperator
        self.rhs = rhs
        self.options = options
    }
}

extension PredicateComparison {
    /// `ANY path == x` for `x IN path` and `path CONTAINS x`: how membership in a to-many reads
    /// when `path` ends at one (evaluation and SQL check that it does); nil for other shapes.
    var membershipQuantifier: PredicateComparison? {
        guard modifier == .direct else { return nil }
        let (collection, element): (FetchExpression, FetchExpression)
        switch comparisonOperator {
        case .in: (collection, element) = (rhs, lhs)
        case .contains: (collection, element) = (lhs, rhs)
        default: return nil
        }
        switch collection {
        case .keyPath(let path) where path != FetchExpression.selfKeyPath && !path.contains("@"): break
        case .member(.variable, let path) where !path.contains("@"): break
        default: return nil
        }
        return PredicateComparison(collection, .equalTo, element, modifier: .any)
    }
}
