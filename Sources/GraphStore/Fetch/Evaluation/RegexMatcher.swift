// MATCHES: whole-string regular-expression matching with `[c]` and `[d]`, shared by in-memory
// evaluation and the `seedkit_matches` SQL function so both decide alike.
// Invariants: the pattern must match the whole string (NSPredicate's MATCHES); `[c]` makes the
// expression case-insensitive (the pattern itself is never case-folded, so `\D` stays `\D`);
// `[d]` removes diacritics from the text and the pattern before matching.

/// Compiles and applies MATCHES patterns.
///
/// ```swift
/// try RegexMatcher.matches("Ada", pattern: "A.a", options: [])            // true
/// try RegexMatcher.matches("éli", pattern: "E.*", options: [.caseInsensitive, .diacriticInsensitive])  // true
/// ```
struct RegexMatcher {
    private let regex: Regex<AnyRegexOutput>
    private let options: StringComparisonOptions

    /// A matcher for `pattern`.
    ///
    /// - Throws: ``FetchError/invalidComparison(_:)`` when `pattern` is not a regular expression.
    init(pattern: String, options: StringComparisonOptions) throws {
        let folded = StringFolding.fold(pattern, options: options.subtracting(.caseInsensitive))
        do {
            let regex = try Regex(folded)
            self.regex = options.contains(.caseInsensitive) ? regex.ignoresCase() : regex
        } catch {
            throw FetchError.invalidComparison(
                "invalid regular expression \(PredicateConstant.quoted(pattern)): \(error)")
        }
        self.options = options
    }

    /// Whether all of `text` matches.
    func matches(_ text: String) -> Bool {
        (try? regex.wholeMatch(in: StringFolding.fold(text, options: options.subtracting(.caseInsensitive)))) != nil
    }

    /// Whether all of `text` matches `pattern`.
    static func matches(_ text: String, pattern: String, options: StringComparisonOptions) throws -> Bool {
        try RegexMatcher(pattern: pattern, options: options).matches(text)
    }
}
