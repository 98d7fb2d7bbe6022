// Swift types that convert to and from attribute values, for typed getters and setters.
import Foundation

/// A Swift type that an attribute value can be read as and written from.
///
/// ```swift
/// try item.set("name", "Apples")
/// let name: String? = try item.get("name")
/// ```
public protocol AttributeConvertible {
    /// The attribute value for this Swift value, checked against `type` by the caller.
    var attributeValue: AttributeValue { get }
    /// The Swift value held in `value`, or nil when it holds another kind.
    init?(attributeValue value: AttributeValue)
}

extension String: AttributeConvertible {
    /// `.string`.
    public var attributeValue: AttributeValue { .string(self) }
    /// The string of a `.string` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .string(let string) = value else { return nil }
        self = string
    }
}

extension Int: AttributeConvertible {
    /// `.integer`.
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    /// The integer of an `.integer` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let integer) = value, let exact = Int(exactly: integer) else { return nil }
        self = exact
    }
}

extension Int16: AttributeConvertible {
    /// `.integer`.
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    /// The integer of an `.integer` value that fits.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let integer) = value, let exact = Int16(exactly: integer) else { return nil }
        self = exact
    }
}

extension Int32: AttributeConvertible {
    /// `.integer`.
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    /// The integer of an `.integer` value that fits.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let integer) = value, let exact = Int32(exactly: integer) else { return nil }
        self = exact
    }
}

extension Int64: AttributeConvertible {
    /// `.integer`.
    public var attributeValue: AttributeValue { .integer(self) }
    /// The integer of an `.integer` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let integer) = value else { return nil }
        self = integer
    }
}

extension Double: AttributeConvertible {
    /// `.double`.
    public var attributeValue: AttributeValue { .double(self) }
    /// The number of a `.double` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .double(let double) = value else { return nil }
        self = double
    }
}

extension Float: AttributeConvertible {
    /// `.double`.
    public var attributeValue: AttributeValue { .double(Double(self)) }
    /// The number of a `.double` value, rounded to Float.
    public init?(attributeValue value: AttributeValue) {
        guard case .double(let double) = value else { return nil }
        self = Float(double)
    }
}

extension Bool: AttributeConvertible {
    /// `.boolean`.
    public var attributeValue: AttributeValue { .boolean(self) }
    /// The Boolean of a `.boolean` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .boolean(let bool) = value else { return nil }
        self = bool
    }
}

extension Decimal: AttributeConvertible {
    /// `.decimal`.
    public var attributeValue: AttributeValue { .decimal(self) }
    /// The decimal of a `.decimal` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .decimal(let decimal) = value else { return nil }
        self = decimal
    }
}

extension Date: AttributeConvertible {
    /// `.date`.
    public var attributeValue: AttributeValue { .date(self) }
    /// The date of a `.date` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .date(let date) = value else { return nil }
        self = date
    }
}

extension Data: AttributeConvertible {
    /// `.binary`.
    public var attributeValue: AttributeValue { .binary(self) }
    /// The bytes of a `.binary` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .binary(let data) = value else { return nil }
        self = data
    }
}

extension UUID: AttributeConvertible {
    /// `.uuid`.
    public var attributeValue: AttributeValue { .uuid(self) }
    /// The UUID of a `.uuid` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .uuid(let uuid) = value else { return nil }
        self = uuid
    }
}

extension URL: AttributeConvertible {
    /// `.uri`.
    public var attributeValue: AttributeValue { .uri(self) }
    /// The URL of a `.uri` value.
    public init?(attributeValue value: AttributeValue) {
        guard case .uri(let url) = value else { return nil }
        self = url
    }
}
