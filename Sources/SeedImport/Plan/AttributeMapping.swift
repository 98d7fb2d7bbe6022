// How one attribute gets its value: from a field (with coercion options), or a constant.

/// The source of one attribute's value and how to coerce it.
///
/// In a plan file: `price: price` (a field), or
/// `added: {field: added, date: iso8601}`, `source: {value: "catalog"}`.
public struct AttributeMapping: Sendable, Hashable {
    /// The field path in the record (see docs/PlanFormat.md).
    public var field: String?
    /// A constant value (text, coerced like a field's value) instead of a field.
    public var value: String?
    /// The value used when the field is missing or null.
    public var defaultValue: String?
    /// How dates are written: `iso8601`, `epoch`, `epoch-ms`, or a pattern like `dd/MM/yyyy HH:mm`.
    public var dateFormat: String?
    /// Words that mean true (default: true, yes, 1, y, on — case-insensitive).
    public var trueWords: [String]?
    /// Words that mean false (default: false, no, 0, n, off).
    public var falseWords: [String]?
    /// Texts that mean null (e.g. `[""]`, `["NULL", "-"]`).
    public var nullTokens: [String]?
    /// Whether to trim white space around text before coercing.
    public var trim: Bool?
    /// How binary values are written: `base64` (default) or `hex`.
    public var binaryEncoding: String?

    /// A mapping from `field`.
    public init(field: String? = nil) {
        self.field = field
    }

    /// A constant `value`.
    public static func constant(_ value: String) -> AttributeMapping {
        var mapping = AttributeMapping()
        mapping.value = value
        return mapping
    }
}
