// The error of parsing a predicate format string: what was wrong and where.

/// A format string that is not a valid predicate.
///
/// ```swift
/// do {
///     _ = try FetchPredicate(format: "quantity < ")
/// } catch let error as PredicateSyntaxError {
///     print(error)          // expected a value after '<' at 11
///     error.offset          // 11: characters from the start of the format string
/// }
/// ```
public struct PredicateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset of the problem, in characters from the start of the format string.
    public let offset: Int
    /// What was wrong, without the position.
    public let message: String

    /// An error `message` at `offset`.
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message followed by the offset: `expected a value after '<' at 12`.
    public var description: String {
        "\(message) at \(offset)"
    }
}
