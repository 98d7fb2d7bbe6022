// The operators of a comparison predicate and their format-string spelling.
// Invariant: `formatToken` is what the parser accepts and the description prints for each case.

/// The operator of a ``PredicateComparison``.
///
/// ```swift
/// let predicate = try FetchPredicate(format: "quantity BETWEEN {20, 35}")
/// // .comparison(PredicateComparison(.keyPath("quantity"), .between, .aggregate([20, 35])))
/// ```
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` (also written `=`).
    case equalTo
    /// `!=` (also written `<>`).
    case notEqualTo
    /// `<`.
    case lessThan
    /// `<=` (also written `=<`).
    case lessThanOrEqualTo
    /// `>`.
    case greaterThan
    /// `>=` (also written `=>`).
    case greaterThanOrEqualTo
    /// `BETWEEN {low, high}`: low ≤ value ≤ high.
    case between
    /// `IN {a, b, …}` or `IN %@` with an array: equal to one of the elements.
    case `in`
    /// `BEGINSWITH`: the string starts with the right-hand string.
    case beginsWith
    /// `ENDSWITH`: the string ends with the right-hand string.
    case endsWith
    /// `CONTAINS`: the string contains the right-hand string.
    case contains
    /// `LIKE`: the whole string matches a pattern where `*` is any run of characters and `?` one
    /// character (`\*` and `\?` match themselves).
    case like
    /// `MATCHES`: the whole string matches a regular expression (Swift `Regex` syntax, which
    /// covers ICU's as NSPredicate uses it for the common cases).
    case matches

    /// The operator as written in a format string.
    public var formatToken: String {
        switch self {
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .between: "BETWEEN"
        case .in: "IN"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .contains: "CONTAINS"
        case .like: "LIKE"
        case .matches: "MATCHES"
        }
    }

    /// Whether the operator only applies to strings (BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES).
    public var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: true
        default: false
        }
    }
}
