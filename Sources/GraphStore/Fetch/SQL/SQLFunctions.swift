// The SQL functions fetch SQL relies on, registered on every connection a context uses.
// Invariant: each function calls the same Swift code (`StringFolding`) that in-memory evaluation
// uses, so SQL and memory agree on `[c]`, `[d]`, LIKE and MATCHES; each returns NULL for a NULL
// argument.

/// Registers the SQL functions that fetch queries call.
///
/// ```swift
/// let connection = try store.makeConnection()
/// try SQLFunctions.register(on: connection)
/// ```
enum SQLFunctions {
    /// `seedkit_fold(text, options)`: the text folded by ``StringFolding/fold(_:options:)`` with
    /// the ``StringComparisonOptions`` raw value `options`.
    static let fold = "seedkit_fold"
    /// `seedkit_like(text, pattern)`: 1 when the text matches the NSPredicate LIKE pattern (`*`, `?`).
    static let like = "seedkit_like"
    /// `seedkit_matches(text, pattern, options)`: 1 when the whole text matches the regular
    /// expression (``RegexMatcher``) with the ``StringComparisonOptions`` raw value `options`.
    static let matches = "seedkit_matches"

    /// Registers (or replaces) the functions on `connection`.
    static func register(on connection: SQLiteConnection) throws {
        try connection.registerFunction(name: fold, argumentCount: 2, deterministic: true) { arguments in
            guard !arguments.isNull(0) else { return .null }
            let options = StringComparisonOptions(rawValue: Int(truncatingIfNeeded: arguments.int64(1)))
            return .text(StringFolding.fold(arguments.string(0), options: options))
        }
        try connection.registerFunction(name: like, argumentCount: 2, deterministic: true) { arguments in
            guard !arguments.isNull(0), !arguments.isNull(1) else { return .null }
            return .integer(StringFolding.matchesLike(arguments.string(0), pattern: arguments.string(1)) ? 1 : 0)
        }
        // The last compiled pattern is kept: a fetch calls the function once per row with one pattern.
        var cached: (pattern: String, options: Int64, matcher: RegexMatcher)?
        try connection.registerFunction(name: matches, argumentCount: 3, deterministic: true) { arguments in
            guard !arguments.isNull(0), !arguments.isNull(1) else { return .null }
            let pattern = arguments.string(1)
            let options = arguments.int64(2)
            let matcher: RegexMatcher
            if let cached, cached.pattern == pattern, cached.options == options {
                matcher = cached.matcher
            } else {
                matcher = try RegexMatcher(
                    pattern: pattern, options: StringComparisonOptions(rawValue: Int(truncatingIfNeeded: options)))
                cached = (pattern, options, matcher)
            }
            return .integer(matcher.matches(arguments.string(0)) ? 1 : 0)
        }
    }
}
