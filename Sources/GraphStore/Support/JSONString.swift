// JSON string literals: one escaping routine for every place SeedKit writes quoted text that a
// JSON parser (or the predicate parser, which reads the same escapes) must read back.

/// Writes JSON string literals.
///
/// ```swift
/// JSONString.quoted("a \"b\"\n")   // "\"a \\\"b\\\"\\n\""
/// ```
public enum JSONString {
    /// `text` in double quotes, with `"`, `\`, and control characters escaped (`\n`, `\t`, `\r`,
    /// else `\u00XX`); every other character as it is.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
