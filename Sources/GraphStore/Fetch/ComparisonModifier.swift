// The quantifiers of comparisons over to-many key paths: ANY (SOME), ALL and NONE.
// Invariant: `.direct` is the plain comparison and prints no keyword; the others print their
// keyword in front of the comparison, which the parser reads back.

/// How a comparison whose left key path goes through a to-many relationship treats the
/// collection of values it reaches.
///
/// ```swift
/// let anyOld = try FetchPredicate(format: "ANY employees.age > 50")
/// let allYoung: FetchPredicate = .all("employees.age") < 30
/// ```
public enum ComparisonModifier: String, Sendable, Hashable, CaseIterable {
    /// A plain comparison of single values.
    case direct
    /// `ANY` (also written `SOME`): true when at least one element satisfies the comparison.
    case any
    /// `ALL`: true when every element satisfies the comparison (and for an empty collection).
    case all
    /// `NONE`: true when no element satisfies the comparison (and for an empty collection).
    case none

    /// The keyword as written in front of a comparison; empty for `.direct`.
    public var formatToken: String {
        switch self {
        case .direct: ""
        case .any: "ANY"
        case .all: "ALL"
        case .none: "NONE"
        }
    }
}
