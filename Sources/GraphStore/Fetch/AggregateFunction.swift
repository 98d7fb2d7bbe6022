// The aggregate functions of dictionary fetches (`FetchProperty.aggregate`).

/// A function computed over the objects of each group of a dictionary fetch.
///
/// ```swift
/// FetchProperty.aggregate("headcount", .count, of: "self")
/// FetchProperty.aggregate("meanAge", .average, of: "age")
/// ```
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// How many objects (`of: "self"`) or non-nil values.
    case count
    /// The sum of the non-nil values (nil when there are none).
    case sum
    /// The mean of the non-nil values, as a Double.
    case average
    /// The smallest value.
    case minimum
    /// The largest value.
    case maximum
}
