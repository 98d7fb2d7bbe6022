// PathSyntaxError: a field path or record path that does not parse.

/// A field path (`location.aisle`) or record path (`items[*]`) with a syntax error.
///
/// ```swift
/// do { _ = try FieldPath(parsing: "tags[") }
/// catch let error as PathSyntaxError { print(error) }  // invalid path "tags[" at 5: expected an index or '*'
/// ```
public struct PathSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as written.
    public var path: String
    /// 0-based offset, in UTF-8 bytes, of the offending character.
    public var offset: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, offset: Int, reason: String) {
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// `invalid path "p" at N: reason`.
    public var description: String { "invalid path \"\(path)\" at \(offset): \(reason)" }
}
