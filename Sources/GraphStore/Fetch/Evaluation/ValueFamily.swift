// Which values compare with which: the type rules shared by SQL translation and in-memory
// evaluation. Invariant: two values compare only when they are of the same family after
// `coerced(_:)`; everything else is a type mismatch, in SQL and in memory alike.
import Foundation

/// A group of attribute types whose values compare with each other.
enum ValueFamily: Hashable, Sendable {
    /// Integers, Booleans (0 and 1), decimals, doubles and floats: compared as numbers.
    case numeric
    /// Strings and URIs: compared by the UTF-8 bytes of their text (SQLite's BINARY collation),
    /// or folded with options.
    case text
    /// Dates: compared as seconds since 1970.
    case date
    /// Bytes (binary and transformable): compared like `memcmp`, shorter first on a tie.
    case binary
    /// UUIDs: compared by their 16 bytes.
    case uuid

    /// The family of an attribute type's values.
    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: self = .numeric
        case .string, .uri: self = .text
        case .date: self = .date
        case .binary, .transformable: self = .binary
        case .uuid: self = .uuid
        }
    }

    /// The family of a value.
    init(_ value: AttributeValue) {
        switch value {
        case .integer, .decimal, .double, .boolean: self = .numeric
        case .string, .uri: self = .text
        case .date: self = .date
        case .binary: self = .binary
        case .uuid: self = .uuid
        }
    }

    /// Whether string options (`[c]`, `[d]`) and string operators apply to the family.
    var isText: Bool { self == .text }

    /// The value as a member of this family: itself when it already is one, a UUID parsed from
    /// a string, or nil when it cannot be.
    func coerced(_ value: AttributeValue) -> AttributeValue? {
        if ValueFamily(value) == self { return value }
        if self == .uuid, case .string(let text) = value { return UUID(uuidString: text).map(AttributeValue.uuid) }
        return nil
    }
}

extension AttributeValue {
    /// The text of a string or URI (its absolute string, as stored); nil for other values.
    var predicateText: String? {
        switch self {
        case .string(let string): string
        case .uri(let url): url.absoluteString
        default: nil
        }
    }
}
