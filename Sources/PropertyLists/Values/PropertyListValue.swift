// PropertyListValue: one value of a property list — the tree that the binary and XML readers
// produce and the binary writer writes. Dictionaries keep their keys in order
// (PropertyListDictionary); UIDs exist for keyed archives (KeyedArchive).
import Foundation

/// A property-list value: what Apple's binary (`bplist00`) and XML property lists hold.
///
/// ```swift
/// let metadata: PropertyListValue = ["NSStoreType": "SQLite", "NSStoreModelVersionHashesVersion": 3]
/// let bytes = BinaryPropertyListWriter().write(metadata)
/// try BinaryPropertyListReader().read(bytes)["NSStoreType"]?.stringValue   // "SQLite"
/// ```
public enum PropertyListValue: Sendable, Hashable {
    /// A dictionary with string keys, in the order they were read or given.
    case dictionary(PropertyListDictionary)
    /// An array.
    case array([PropertyListValue])
    /// A string.
    case string(String)
    /// An integer. Binary property lists hold integers of 1, 2, 4, 8 and 16 bytes; a 16-byte integer
    /// is read when its value fits in 64 bits.
    case integer(Int64)
    /// A floating-point number (a 4-byte real is read exactly as a `Double`).
    case real(Double)
    /// A boolean.
    case boolean(Bool)
    /// A date (stored as seconds since 2001-01-01 00:00:00 UTC, which `Date` keeps exactly).
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A keyed archiver's reference to an object of its `$objects` array (binary property lists only).
    case uid(UInt64)

    /// The dictionary, if this is one.
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The array, if this is one.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, if this is one.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The real number, if this is one.
    public var realValue: Double? {
        if case .real(let value) = self { value } else { nil }
    }

    /// The boolean, if this is one.
    public var booleanValue: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    /// The date, if this is one.
    public var dateValue: Date? {
        if case .date(let value) = self { value } else { nil }
    }

    /// The bytes, if this is data.
    public var dataValue: Data? {
        if case .data(let value) = self { value } else { nil }
    }

    /// The object index, if this is a UID.
    public var uidValue: UInt64? {
        if case .uid(let value) = self { value } else { nil }
    }

    /// The value of `key`, if this is a dictionary that holds it.
    public subscript(key: String) -> PropertyListValue? {
        dictionaryValue?[key]
    }

    /// What kind of value this is, in words (`dictionary`, `integer`, …), for messages.
    public var kind: String {
        switch self {
        case .dictionary: "dictionary"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .uid: "UID"
        }
    }
}

extension PropertyListValue: ExpressibleByStringLiteral {
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// An integer value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    /// A real value.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    /// An array value.
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// A dictionary value with the keys in the order written.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(PropertyListDictionary(elements))
    }
}
