// The operands of comparisons: key paths, constants, `$VARIABLES`, `{…}` aggregates, key paths
// applied to another expression (`$e.age`, `SUBQUERY(…).@count`) and subqueries.
// Invariants: a key path is a non-empty dotted list of keys; `self` names the object itself; a
// key starting with `@` is a ``CollectionOperator``; a subquery's variable is bound inside its
// predicate only, so substitution never replaces it there.

/// One side of a ``PredicateComparison``.
///
/// ```swift
/// let keyPath = FetchExpression.keyPath("unit.name")          // through a to-one
/// let average = FetchExpression.keyPath("employees.@avg.age") // a collection operator
/// let value = FetchExpression.constant(.value(.string("kg")))
/// let range = FetchExpression.aggregate([.constant(.value(.integer(20))), .constant(.value(.integer(35)))])
/// let limit = FetchExpression.variable("LIMIT")                // $LIMIT
/// let seniors = FetchExpression.member(                        // SUBQUERY(employees, $e, $e.age > 40).@count
///     .subquery(collection: .keyPath("employees"), variable: "e", predicate: .variable("e", "age") > 40),
///     keyPath: "@count")
/// ```
public indirect enum FetchExpression: Sendable, Hashable {
    /// A dotted key path from the evaluated object (`price`, `unit.name`, `self`,
    /// `employees.@count`).
    case keyPath(String)
    /// A constant value, object or nil.
    case constant(PredicateConstant)
    /// A `$VARIABLE`: replaced by ``FetchPredicate/substituting(_:)`` before evaluation, or bound
    /// to each member by an enclosing ``subquery(collection:variable:predicate:)``.
    case variable(String)
    /// A `{a, b, …}` collection of expressions (the right-hand side of `IN` and `BETWEEN`).
    case aggregate([FetchExpression])
    /// A key path applied to another expression: `$e.age` (a subquery's variable) or
    /// `SUBQUERY(…).@count`.
    case member(FetchExpression, keyPath: String)
    /// `SUBQUERY(collection, $variable, predicate)`: the members of the to-many `collection`
    /// for which `predicate` holds with `$variable` bound to the member.
    case subquery(collection: FetchExpression, variable: String, predicate: FetchPredicate)

    /// The key path that names the evaluated object itself.
    public static let selfKeyPath = "self"

    /// The expression with `$VARIABLES` replaced by their values in `variables`.
    ///
    /// - Throws: ``FetchError/unsubstitutedVariable(_:)`` when a variable has no value.
    public func substituting(_ variables: [String: any PredicateArgument]) throws -> FetchExpression {
        try substituting(variables, bound: [])
    }

    /// The expression with free variables replaced; variables in `bound` (those of enclosing
    /// subqueries) stay.
    func substituting(_ variables: [String: any PredicateArgument], bound: Set<String>) throws -> FetchExpression {
        switch self {
        case .keyPath, .constant:
            return self
        case .variable(let name):
            if bound.contains(name) { return self }
            guard let value = variables[name] else { throw FetchError.unsubstitutedVariable(name) }
            return value.predicateExpression
        case .aggregate(let elements):
            return .aggregate(try elements.map { try $0.substituting(variables, bound: bound) })
        case .member(let base, let keyPath):
            return .member(try base.substituting(variables, bound: bound), keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.substituting(variables, bound: bound), variable: variable,
                predicate: try predicate.substituting(variables, bound: bound.union([variable])))
        }
    }

    /// The names of the free `$VARIABLES` in the expression (those no subquery binds).
    func freeVariables(bound: Set<String>) -> Set<String> {
        switch self {
        case .keyPath, .constant: []
        case .variable(let name): bound.contains(name) ? [] : [name]
        case .aggregate(let elements): elements.reduce(into: []) { $0.formUnion($1.freeVariables(bound: bound)) }
        case .member(let base, _): base.freeVariables(bound: bound)
        case .subquery(let collection, let variable, let predicate):
            collection.freeVariables(bound: bound).union(predicate.freeVariables(bound: bound.union([variable])))
        }
    }
}
