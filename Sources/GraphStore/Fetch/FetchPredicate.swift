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

    /// A comparison predicate: `lhs operator[options] rhs`.
    public static func compare(
        _ lhs: FetchExpression, _ comparisonOperator: ComparisonOperator, _ rhs: FetchExpression,
        options: StringComparisonOptions = []
    ) -> FetchPredicate {
        .comparison(PredicateComparison(lhs, comparisonOperator, rhs, options: options))
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
        switch self {
        case .constant: self
        case .comparison(let comparison):
            .comparison(
                PredicateComparison(
                    try comparison.lhs.substituting(variables), comparison.comparisonOperator,
                    try comparison.rhs.substituting(variables), options: comparison.options))
        case .and(let elements): .and(try elements.map { try $0.substituting(variables) })
        case .or(let elements): .or(try elements.map { try $0.substituting(variables) })
        case .not(let operand): .not(try operand.substituting(variables))
        }
    }
}
