// PropertyListLimits: the bounds every reader and the keyed-archive resolver enforce, so that a
// crafted input is refused with an error instead of taking unbounded time or memory.

/// Bounds on what a property list may hold; exceeding one is a ``PropertyListError``.
///
/// The defaults suit Core Data metadata and archived expressions, which hold tens to hundreds
/// of objects.
public struct PropertyListLimits: Sendable, Equatable {
    /// The largest input, in bytes (default 16 MiB).
    public var maxInputSize: Int
    /// The most objects a binary property list may declare, or an XML one hold (default 10,000).
    public var maxObjects: Int
    /// The deepest nesting: the top value is at depth 1, a container's members one deeper (default 64).
    public var maxDepth: Int
    /// The most values in the result, counting a shared object once per use (default 100,000):
    /// bounds the tree a file of shared references unfolds into.
    public var maxValues: Int

    /// Limits with the given values.
    public init(
        maxInputSize: Int = 16 << 20, maxObjects: Int = 10_000, maxDepth: Int = 64, maxValues: Int = 100_000
    ) {
        self.maxInputSize = maxInputSize
        self.maxObjects = maxObjects
        self.maxDepth = maxDepth
        self.maxValues = maxValues
    }
}
