// A fetch predicate: a tree of comparisons joined by AND, OR and NOT, as in NSPredicate.
// Invariants: a predicate is a plain value (Sendable, Hashable) that knows nothing of a model;
// `FetchQueryBuilder` checks it against one and translates it to SQL, and `PredicateEvaluator`
// evaluates it in memory with the same semantics (docs/Predicates.md).

/// A condition on objects: what a ``FetchRequest`` selects.
///
/// Write one in Swift, or parse the NSPredicate format language:
///
/// ```swift
/// let cheap: Predicate = .key("price") < 5 && .key("name").beginsWith("Ap", options: .caseInsensitive)
/// let same = try Predicate(format: "price < %@ AND name BEGINSWITH[c] %@", 5, "Ap")
/// let inUnit: Predicate = .key("unit") == unitID            // an ObjectID
/// let noNotes: Predicate = .key("notes") == nil
/// cheap.description   // price < 5 AND name BEGINSWITH[c] "Ap"
/// ```
///
/// Templates use `$VARIABLES`, replaced with ``substituting(_:)`` before fetching:
///
/// ```swift
/// let template = try Predicate(format: "price < $LIMIT")
/// let predicate = try template.substituting(["LIMIT": 10])
/// ```
public indirect enum Predicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// A comparison of two expressions, such as `price < 5`.
    case comparison(PredicateComparison)
    /// True when every element is (true when empty).
    case and([Predicate])
    /// True when at least one element is (false when empty).
    case or([Predicate])
    /// True when the operand is false.
    case not(Predicate)

    /// `TRUEPREDICATE`: matches every object.
    public static let truePredicate = Predicate.constant(true)
    /// `FALSEPREDICATE`: matches no object.
    public static let falsePredicate = Predicate.constant(false)

    /// A comparison predicate: `lhs operator[options] rhs`.
    public static func compare(
        _ lhs: PredicateExpression, _ comparisonOperator: ComparisonOperator, _ rhs: PredicateExpression,
        options: StringComparisonOptions = []
    ) -> Predicate {
        .comparison(PredicateComparison(lhs, comparisonOperator, rhs, options: options))
    }

    /// Both predicates; nested ANDs are flattened, so `a && b && c` is one three-element `.and`.
    public static func && (lhs: Predicate, rhs: Predicate) -> Predicate {
        .and(lhs.conjuncts + rhs.conjuncts)
    }

    /// Either predicate; nested ORs are flattened.
    public static func || (lhs: Predicate, rhs: Predicate) -> Predicate {
        .or(lhs.disjuncts + rhs.disjuncts)
    }

    /// The negation of `operand`.
    public static prefix func ! (operand: Predicate) -> Predicate {
        .not(operand)
    }

    private var conjuncts: [Predicate] {
        if case .and(let elements) = self { return elements }
        return [self]
    }

    private var disjuncts: [Predicate] {
        if case .or(let elements) = self { return elements }
        return [self]
    }

    /// The predicate with every `$VARIABLE` replaced by its value in `variables`.
    ///
    /// ```swift
    /// let predicate = try Predicate(format: "name IN $NAMES").substituting(["NAMES": ["kg", "g"]])
    /// ```
    ///
    /// - Throws: ``FetchError/unsubstitutedVariable(_:)`` naming a variable missing from `variables`.
    public func substituting(_ variables: [String: any PredicateArgument]) throws -> Predicate {
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
