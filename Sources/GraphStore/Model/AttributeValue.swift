// The value of an attribute, typed by the attribute's type. `nil` (Optional.none) is the null value.
// Invariant: an attribute of type T only ever holds the case that `AttributeValue.matches(_:)` accepts for T.
// Layout: the two wide payloads (Decimal, UUID) are boxed, so a value takes 17 bytes rather than
// 21 — objects and the import's key index hold millions of them.
import Foundation

/// A non-null attribute value.
///
/// Integer types share ``integer(_:)``, `double` and `float` share ``double(_:)``, and a
/// transformable attribute holds the ``binary(_:)`` bytes its codec produced.
///
/// ```swift
/// let price: AttributeValue = .double(2.49)
/// price.matches(.double)   // true
/// ```
public enum AttributeValue: Sendable, Hashable {
    /// An integer (Integer 16, 32 or 64).
    case integer(Int64)
    /// An exact decimal.
    indirect case decimal(Decimal)
    /// A floating-point number (Double or Float).
    case double(Double)
    /// A string.
    case string(String)
    /// A Boolean.
    case boolean(Bool)
    /// A date.
    case date(Date)
    /// Bytes (Binary, or a transformable attribute's encoded value).
    case binary(Data)
    /// A UUID.
    indirect case uuid(UUID)
    /// A URI.
    case uri(URL)

    /// Whether this value is of the kind an attribute of `type` holds.
    public func matches(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.integer, .integer16), (.integer, .integer32), (.integer, .integer64): true
        case (.decimal, .decimal), (.double, .double), (.double, .float): true
        case (.string, .string), (.boolean, .boolean), (.date, .date): true
        case (.binary, .binary), (.binary, .transformable): true
        case (.uuid, .uuid), (.uri, .uri): true
        default: false
        }
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .integer: "integer"
        case .decimal: "decimal"
        case .double: "double"
        case .string: "string"
        case .boolean: "boolean"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "UUID"
        case .uri: "URI"
        }
    }
}

extension AttributeValue: CustomStringConvertible {
    /// The value as text: numbers and strings plainly, dates in ISO 8601 (UTC), bytes as a count.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .decimal(let value): value.description
        case .double(let value): String(value)
        case .string(let value): value
        case .boolean(let value): value ? "true" : "false"
        case .date(let value): ISO8601Text.string(from: value)
        case .binary(let value): "<\(value.count) bytes>"
        case .uuid(let value): value.uuidString
        case .uri(let value): value.absoluteString
        }
    }
}
