// The `[c]`, `[d]` and `[cd]` options of string comparisons, and the folding they stand for.
// Invariant: the raw values are the flags passed to the `seedkit_fold` and `seedkit_like` SQL
// functions, so SQL and in-memory evaluation fold strings identically.

/// How string comparisons treat case and diacritics: NSPredicate's `[c]`, `[d]` and `[cd]`.
///
/// ```swift
/// let predicate = FetchPredicate.key("name").beginsWith("apf", options: [.caseInsensitive, .diacriticInsensitive])
/// predicate.description   // name BEGINSWITH[cd] "apf"
/// ```
public struct StringComparisonOptions: OptionSet, Sendable, Hashable {
    /// The option bits (1 = case-insensitive, 2 = diacritic-insensitive).
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `[c]`: compare after Unicode case folding (`"Straße"` matches `"STRASSE"`).
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// `[d]`: compare after removing diacritics (`"Äpfel"` matches `"Apfel"`).
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)

    /// The option letters as written in a format string: `""`, `"c"`, `"d"` or `"cd"`.
    public var letters: String {
        (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
    }
}
