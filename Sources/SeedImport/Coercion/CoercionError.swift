// The error of one value that does not coerce to its attribute's type (docs/PlanFormat.md: a record error,
// never a silent 0).
// Invariant: position-free (no file, line or field) — the import wraps it with the record's
// position; `value` is at most `CoercionError.maximumValueLength` characters plus an ellipsis.

/// A source value that does not fit its attribute.
///
/// ```swift
/// do {
///     let value = try coercer.coerce(record[quantityPath])
/// } catch {
///     print(error.attribute, error.reason)   // quantity "12x" is not an integer
///     rejects.append("\(position): \(error)")   // position from the caller
/// }
/// ```
public struct CoercionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The most characters of the offending value kept in `value` and `reason`.
    public static let maximumValueLength = 80

    /// The name of the attribute the value was for.
    public var attribute: String
    /// The offending value as text, truncated to ``maximumValueLength`` characters (`…` marks a cut);
    /// `nil` when there is no single value (a list or a nested record).
    public var value: String?
    /// A sentence saying what is wrong, quoting the value: `"12x" is not an integer`.
    public var reason: String

    /// An error for `attribute` saying `reason` about `value`.
    public init(attribute: String, value: String?, reason: String) {
        self.attribute = attribute
        self.value = value
        self.reason = reason
    }

    /// `attribute 'quantity': "12x" is not an integer`.
    public var description: String { "attribute '\(attribute)': \(reason)" }

    /// `text` in double quotes, with `"`, `\\` and control characters escaped as in Swift and JSON
    /// (`"a\\nb"`); other characters, apostrophes included, as they are.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` cut to ``maximumValueLength`` characters.
    static func truncated(_ text: String) -> String {
        text.count > maximumValueLength ? String(text.prefix(maximumValueLength)) + "…" : text
    }
}
