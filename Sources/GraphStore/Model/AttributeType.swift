// The attribute types of the object model (docs/LibraryAPI.md) and the SQLite storage class each maps to (docs/StoreFormat.md).
// Invariant: the raw values are part of the model file format and the model hash; never rename them.

/// The type of an attribute's value.
///
/// ```swift
/// let price = AttributeDescription(name: "price", type: .double)
/// ```
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A 16-bit signed integer (range enforced).
    case integer16
    /// A 32-bit signed integer (range enforced).
    case integer32
    /// A 64-bit signed integer.
    case integer64
    /// An exact decimal number, stored as text.
    case decimal
    /// A 64-bit floating-point number.
    case double
    /// A 32-bit floating-point number.
    case float
    /// A Unicode string.
    case string
    /// A Boolean.
    case boolean
    /// A point in time, stored as seconds since 1970-01-01T00:00:00Z.
    case date
    /// Bytes, optionally kept in a file beside the store (external storage).
    case binary
    /// A UUID, stored as 16 bytes.
    case uuid
    /// A URI, stored as text.
    case uri
    /// A value encoded to bytes by a registered ``TransformableCodec``.
    case transformable

    /// Whether the type is one of the integer types.
    public var isInteger: Bool {
        self == .integer16 || self == .integer32 || self == .integer64
    }

    /// Whether the type holds a number (integers, decimal, double, float).
    public var isNumeric: Bool {
        isInteger || self == .decimal || self == .double || self == .float
    }

    /// The inclusive range of an integer type, or `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }

    /// The SQLite column type that stores this attribute (docs/StoreFormat.md).
    public var sqlType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float, .date: "REAL"
        case .decimal, .string, .uri: "TEXT"
        case .binary, .uuid, .transformable: "BLOB"
        }
    }
}
