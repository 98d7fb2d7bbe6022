// The reserved words of the predicate format language. Keywords are case-insensitive; a key that
// is spelled like one is written with a leading `#` (`#desc`), which the description does too.

/// A reserved word of the predicate format language.
enum PredicateKeyword: String, CaseIterable {
    case and = "AND", or = "OR", not = "NOT"
    case between = "BETWEEN", `in` = "IN", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
    case contains = "CONTAINS", like = "LIKE"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO", `nil` = "NIL", null = "NULL"
    case `self` = "SELF", cast = "CAST"
    // Reserved by NSPredicate for collection queries; not operators here yet.
    case any = "ANY", all = "ALL", none = "NONE", some = "SOME", subquery = "SUBQUERY", matches = "MATCHES"
    case first = "FIRST", last = "LAST", size = "SIZE"

    private static let byUppercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled `word` in any case, or nil.
    init?(word: String) {
        guard let keyword = Self.byUppercasedName[word.uppercased()] else { return nil }
        self = keyword
    }

    /// The comparison operator a keyword spells, if it spells one.
    var comparisonOperator: ComparisonOperator? {
        switch self {
        case .between: .between
        case .in: .in
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .contains: .contains
        case .like: .like
        default: nil
        }
    }
}
