// Printing predicates in the canonical format language: what `description` returns.
// Invariant: parsing a description gives back an equal predicate, for every predicate the parser
// can produce (degenerate shapes such as a one-element `.and` print as their content). Values
// without a literal print as `CAST(…)`; NaN has no spelling and does not round-trip.
import Foundation

extension FetchPredicate: CustomStringConvertible {
    /// The predicate as a format string: `name BEGINSWITH[c] "Ap" AND quantity BETWEEN {20, 35}`.
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison): comparison.description
        case .and(let elements) where elements.isEmpty: "TRUEPREDICATE"
        case .or(let elements) where elements.isEmpty: "FALSEPREDICATE"
        case .and(let elements) where elements.count == 1: elements[0].description
        case .or(let elements) where elements.count == 1: elements[0].description
        case .and(let elements): elements.map(\.operandDescription).joined(separator: " AND ")
        case .or(let elements): elements.map(\.operandDescription).joined(separator: " OR ")
        case .not(let operand): "NOT " + operand.operandDescription
        }
    }

    /// The description as an operand of AND, OR or NOT: parenthesized when it is an AND or OR of
    /// several operands (a one-element AND or OR is its element).
    private var operandDescription: String {
        switch self {
        case .and(let elements) where elements.count == 1: elements[0].operandDescription
        case .or(let elements) where elements.count == 1: elements[0].operandDescription
        case .and(let elements) where elements.count > 1: "(\(description))"
        case .or(let elements) where elements.count > 1: "(\(description))"
        default: description
        }
    }
}

extension PredicateComparison: CustomStringConvertible {
    /// The comparison as a format string: `name BEGINSWITH[cd] "apf"`.
    public var description: String {
        let options = options.isEmpty ? "" : "[\(options.letters)]"
        let modifier = modifier == .direct ? "" : modifier.formatToken + " "
        return "\(modifier)\(lhs) \(comparisonOperator.formatToken)\(options) \(rhs)"
    }
}

extension FetchExpression: CustomStringConvertible {
    /// The expression as a format string: `unit.name`, `"kg"`, `$LIMIT`, `{1, 2}`,
    /// `employees.@avg.age`, `SUBQUERY(employees, $e, $e.age > 30).@count`.
    public var description: String {
        switch self {
        case .keyPath(let path) where path == Self.selfKeyPath: "SELF"
        case .keyPath(let path): Self.keyPathDescription(path)
        case .constant(let constant): constant.description
        case .variable(let name): "$" + name
        case .aggregate(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .member(let base, let keyPath): "\(base).\(Self.keyPathDescription(keyPath))"
        case .subquery(let collection, let variable, let predicate):
            "SUBQUERY(\(collection), $\(variable), \(predicate))"
        }
    }

    private static func keyPathDescription(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map(keyDescription).joined(separator: ".")
    }

    /// A key, escaped with `#` when it is spelled like a keyword or does not start like a word;
    /// collection operators (`@count`) as they are.
    private static func keyDescription(_ key: Substring) -> String {
        if key.first == "@", CollectionOperator(key: String(key)) != nil { return String(key) }
        let startsLikeWord = key.first.map { $0.isLetter || $0 == "_" } ?? false
        return PredicateKeyword(word: String(key)) == nil && startsLikeWord ? String(key) : "#" + key
    }
}

extension PredicateConstant: CustomStringConvertible {
    /// The constant as a format-string literal, or a `CAST` for values that have none.
    public var description: String {
        switch self {
        case .null: "nil"
        case .object(let id): Self.cast(Self.quoted(id.uriRepresentation), .objectID)
        case .value(let value):
            switch value {
            case .integer(let integer): String(integer)
            case .double(let double): String(double)
            case .string(let string): Self.quoted(string)
            case .boolean(let bool): bool ? "TRUE" : "FALSE"
            case .date(let date): Self.cast(String(date.timeIntervalSinceReferenceDate), .date)
            case .decimal(let decimal): Self.cast(Self.quoted(decimal.description), .decimal)
            case .uuid(let uuid): Self.cast(Self.quoted(uuid.uuidString), .uuid)
            case .uri(let url): Self.cast(Self.quoted(url.absoluteString), .url)
            case .binary(let data): Self.cast(Self.quoted(data.base64EncodedString()), .data)
            }
        }
    }

    private static func cast(_ literal: String, _ type: CastType) -> String {
        "CAST(\(literal), \"\(type.rawValue)\")"
    }

    /// `string` in double quotes, with quotes, backslashes and control characters escaped.
    static func quoted(_ string: String) -> String {
        JSONString.quoted(string)
    }
}
