// FieldPath: a precompiled path from a record to one of its values (docs/PlanFormat.md).
// Parsed once, evaluated per record without allocating when it matches at most one node.

/// A precompiled path to a value inside a record.
///
/// Syntax: CSV — a header name (`sku`) or a 1-based column (`#3`); JSON — a dot path
/// (`location.aisle`), `[n]` for a 0-based array index, `[*]` for every element;
/// XML — child elements separated by `/` or `.` (`location/aisle`), optionally ending in
/// `@attribute` (`@sku`, `location/@id`); `.` is the record's (or element's) own text.
/// Names containing separators are written in double quotes: `"unit.price"`.
///
/// ```swift
/// let aisle = try FieldPath(parsing: "location.aisle")
/// if let value = record[aisle] { print(value.string) }
/// ```
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as written.
    public let text: String
    let steps: [PathStep]

    /// Parses a field path; throws `PathSyntaxError` when it is malformed.
    public init(parsing text: String) throws(PathSyntaxError) {
        self.text = text
        self.steps = try PathLexer.steps(of: text)
    }

    init(text: String, steps: [PathStep]) {
        self.text = text
        self.steps = steps
    }

    /// The path to a CSV column, numbered from 1: `FieldPath.column(3)` is `#3`.
    public static func column(_ number: Int) -> FieldPath {
        FieldPath(text: "#\(number)", steps: [.column(max(number, 1) - 1)])
    }

    /// The 0-based CSV column this path designates, when it is (or was resolved to) a column.
    public var columnIndex: Int? {
        if steps.count == 1, case .column(let index) = steps[0] { return index }
        return nil
    }

    /// The path as written.
    public var description: String { text }
}
