// The reserved words of the predicate format language. Keywords are case-insensitive; a key that
// is spelled like one is written with a leading `#` (`#desc`), which the description does too.

/// A reserved word of the predicate format language.
enum PredicateKeyword: String, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case between = "BETWEEN"
    case `in` = "IN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case `true` = "TRUE"
    case yes = "YES"
    case `false` = "FALSE"
    case no = "NO"
    case `nil` = "NIL"
    case null = "NULL"
    case `self` = "SELF"
    case cast = "CAST"
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
    case some = "SOME"
    case subquery = "SUBQUERY"
    case matches = "MATCHES"
    // Reserved by NSPredicate for array subscripts (`items[FIRST]`); not supported.
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"

    private static let byUppercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled `word` in any case, or nil.
    init?(word: String) {
        guard let keyword = Self.byUppercasedName[word.uppercased()] else { return nil }
        self = keyword
    }

    /// Whether the keyword belongs to the NSPredicate language but is not supported.
    var isUnsupported: Bool {
        switch self {
        case .first, .last, .size: true
        default: false
        }
    }

    /// The quantifier a keyword spells (`SOME` is `ANY`), if it spells one.
    var modifier: ComparisonModifier? {
        switch self {
        case .any, .some: .any
        case .all: .all
        case .none: ComparisonModifier.none
        default: nil
        }
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
        case .matches: .matches
        default: nil
        }
    }
}
