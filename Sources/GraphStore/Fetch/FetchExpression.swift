// The operands of comparisons: key paths, constants, `$VARIABLES` and `{…}` aggregates.
// Invariant: a key path is a non-empty dotted list of keys; `self` names the object itself.

/// One side of a ``PredicateComparison``.
///
/// ```swift
/// let keyPath = FetchExpression.keyPath("unit.name")          // through a to-one
/// let value = FetchExpression.constant(.value(.string("kg")))
/// let range = FetchExpression.aggregate([.constant(.value(.integer(20))), .constant(.value(.integer(35)))])
/// let limit = FetchExpression.variable("LIMIT")                // $LIMIT
/// ```
public indirect enum FetchExpression: Sendable, Hashable {
    /// A dotted key path from the evaluated object (`price`, `unit.name`, `self`).
    case keyPath(String)
    /// A constant value, object or nil.
    case constant(PredicateConstant)
    /// A `$VARIABLE`, replaced by ``FetchPredicate/substituting(_:)`` before evaluation.
    case variable(String)
    /// A `{a, b, …}` collection of expressions (the right-hand side of `IN` and `BETWEEN`).
    case aggregate([FetchExpression])

    /// The key path that names the evaluated object itself.
    public static let selfKeyPath = "self"

    /// The expression with `$VARIABLES` replaced by their values in `variables`.
    ///
    /// - Throws: ``FetchError/unsubstitutedVariable(_:)`` when a variable has no value.
    public func substituting(_ variables: [String: any PredicateArgument]) throws -> FetchExpression {
        switch self {
        case .keyPath, .constant:
            return self
        case .variable(let name):
            guard let value = variables[name] else { throw FetchError.unsubstitutedVariable(name) }
            return value.predicateExpression
        case .aggregate(let elements):
            return .aggregate(try elements.map { try $0.substituting(variables) })
        }
    }
}
