// The collection operators of key paths: `employees.@count`, `employees.@avg.age`.
// Invariant: the raw value is the key as written in a key path (with its `@`).

/// An aggregate over the members of a to-many relationship, written as a key of a key path.
///
/// ```swift
/// let busy = try FetchPredicate(format: "employees.@count >= 2")
/// let senior: FetchPredicate = .key("employees").average("age") > 30   // employees.@avg.age > 30
/// ```
///
/// `@count` counts the members; `@sum` adds the non-nil values (0 for none); `@avg` averages
/// them (nil for none); `@min` and `@max` pick the smallest and largest (nil for none).
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// `@count`: the number of members.
    case count = "@count"
    /// `@sum.key`: the sum of the members' non-nil values.
    case sum = "@sum"
    /// `@avg.key`: the mean of the members' non-nil values, as a Double.
    case average = "@avg"
    /// `@min.key`: the smallest non-nil value.
    case minimum = "@min"
    /// `@max.key`: the largest non-nil value.
    case maximum = "@max"

    /// The operator spelled `key` (`"@avg"`, case-insensitive after the `@`), or nil.
    public init?(key: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == key.lowercased() }) else {
            return nil
        }
        self = match
    }

    /// Whether the operator reads a value of each member (all but `@count`).
    public var needsValueKeyPath: Bool { self != .count }
}
