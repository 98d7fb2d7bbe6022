// A fetch predicate: a tree of comparisons joined by AND, OR and NOT, as in NSPredicate.
// Invariants: a predicate is a plain value (Sendable, Hashable) that knows nothing of a model;
// `FetchQueryBuilder` checks it against one and translates it to SQL, and `PredicateEvaluator`
// evaluates it in memory with the same semantics (docs/Predicates.md).

/// A condition on objects: what a ``FetchRequest`` selects.
///
/// Write one in Swift, or parse the NSPredicate format language:
///
/// ```swift
/// let cheap: FetchPredicate = .key("price") < 5 && .key("name").beginsWith("Ap", options: .caseInsensitive)
/// let same = try FetchPredicate(format: "price < %@ AND name BEGINSWITH[c] %@", 5, "Ap")
/// let inUnit: FetchPredicate = .key("unit") == unitID            // an ObjectID
/// let noNotes: FetchPredicate = .key("notes") == nil
/// cheap.description   // price < 5 AND name BEGINSWITH[c] "Ap"
/// ```
///
/// Over to-many relationships: quantifiers, collection operators and subqueries:
///
/// ```swift
/// let anyOld = try FetchPredicate(format: "ANY employees.age > 50")
/// let busy = try FetchPredicate(format: "employees.@count >= 2 AND employees.@avg.age < 40")
/// let pair = try FetchPredicate(format: "SUBQUERY(employees, $e, $e.age > 30 AND $e.name BEGINSWITH 'B').@count > 0")
/// ```
///
/// Templates use `$VARIABLES`, replaced with ``substituting(_:)`` before fetching:
///
/// ```swift
/// let template = try FetchPredicate(format: "price < $LIMIT")
/// let predicate = try template.substituting(["LIMIT": 10])
/// ```
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// A comparison of two expressions, such as `price < 5`.
    case comparison(PredicateComparison)
    /// True when every element is (true when empty).
    case and([FetchPredicate])
    /// True when at least one element is (false when empty).
    case or([FetchPredicate])
    /// True when the operand is false.
    case not(FetchPredicate)

    /// `TRUEPREDICATE`: matches every object.
    public static let truePredicate = FetchPredicate.constant(true)
    /// `FALSEPREDICATE`: matches no object.
    public static let falsePredicate = FetchPredicate.constant(false)

    /// A comparison predicate: `[modifier] lhs operator[options] rhs`.
    public static func compare(
        _ lhs: FetchExpression, _ comparisonOperator: ComparisonOperator, _ rhs: FetchExpression,
        options: StringComparisonOptions = [], modifier: ComparisonModifier = .direct
    ) -> FetchPredicate {
        .comparison(PredicateComparison(lhs, comparisonOperator, rhs, options: options, modifier: modifier))
    }

    /// Both predicates; nested ANDs are flattened, so `a && b && c` is one three-element `.and`.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .and(lhs.conjuncts + rhs.conjuncts)
    }

    /// Either predicate; nested ORs are flattened.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .or(lhs.disjuncts + rhs.disjuncts)
    }

    /// The negation of `operand`.
    public static prefix func ! (operand: FetchPredicate) -> FetchPredicate {
        .not(operand)
    }

    private var conjuncts: [FetchPredicate] {
        if case .and(let elements) = self { return elements }
        return [self]
    }

    private var disjuncts: [FetchPredicate] {
        if case .or(let elements) = self { return elements }
        return [self]
    }

    /// The predicate with every `$VARIABLE` replaced by its value in `variables`.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate(format: "name IN $NAMES").substituting(["NAMES": ["kg", "g"]])
    /// ```
    ///
    /// - Throws: ``FetchError/unsubstitutedVariable(_:)`` naming a variable missing from `variables`.
    public func substituting(_ variables: [String: any PredicateArgument]) throws -> FetchPredicate {
        try substituting(variables, bound: [])
    }

    /// The predicate with free variables replaced; variables in `bound` (those of enclosing
    /// subqueries) stay.
    func substituting(_ variables: [String: any PredicateArgument], bound: Set<String>) throws -> FetchPredicate {
        switch self {
        case .constant: self
        case .comparison(let comparison):
            .comparison(
                PredicateComparison(
                    try comparison.lhs.substituting(variables, bound: bound), comparison.comparisonOperator,
                    try comparison.rhs.substituting(variables, bound: bound), options: comparison.options,
                    modifier: comparison.modifier))
        case .and(let elements): .and(try elements.map { try $0.substituting(variables, bound: bound) })
        case .or(let elements): .or(try elements.map { try $0.substituting(variables, bound: bound) })
        case .not(let operand): .not(try operand.substituting(variables, bound: bound))
        }
    }

    /// The names of the `$VARIABLES` that ``substituting(_:)`` needs values for (a subquery's
    /// own variable is not one of them).
    ///
    /// ```swift
    /// try FetchPredicate(format: "price < $LIMIT AND SUBQUERY(tags, $t, $t.name == $TAG).@count > 0").variableNames
    /// // ["LIMIT", "TAG"]
    /// ```
    public var variableNames: Set<String> { freeVariables(bound: []) }

    func freeVariables(bound: Set<String>) -> Set<String> {
        switch self {
        case .constant: []
        case .comparison(let comparison):
            comparison.lhs.freeVariables(bound: bound).union(comparison.rhs.freeVariables(bound: bound))
        case .and(let elements), .or(let elements):
            elements.reduce(into: []) { $0.formUnion($1.freeVariables(bound: bound)) }
        case .not(let operand): operand.freeVariables(bound: bound)
        }
    }
}
