// Per-attribute validation rules checked when a context saves (docs/LibraryAPI.md).
// Invariant: rules never change the store's schema, so they are not part of the model hash.
import Foundation

/// Constraints on an attribute's value, checked at save.
///
/// ```swift
/// var rules = ValidationRules()
/// rules.minimum = 0
/// rules.maximumLength = 80
/// rules.pattern = "[A-Z]{3}-[0-9]+"
/// ```
public struct ValidationRules: Sendable, Hashable {
    /// The smallest allowed value of a numeric attribute.
    public var minimum: Double?
    /// The largest allowed value of a numeric attribute.
    public var maximum: Double?
    /// The fewest characters a string (or bytes a binary value) may have.
    public var minimumLength: Int?
    /// The most characters a string (or bytes a binary value) may have.
    public var maximumLength: Int?
    /// A regular expression a whole string value must match.
    public var pattern: String?
    /// The earliest allowed date.
    public var earliestDate: Date?
    /// The latest allowed date.
    public var latestDate: Date?

    /// Rules that allow every value.
    public init(
        minimum: Double? = nil, maximum: Double? = nil,
        minimumLength: Int? = nil, maximumLength: Int? = nil,
        pattern: String? = nil,
        earliestDate: Date? = nil, latestDate: Date? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.pattern = pattern
        self.earliestDate = earliestDate
        self.latestDate = latestDate
    }

    /// Whether no rule is set.
    public var isEmpty: Bool { self == ValidationRules() }
}
