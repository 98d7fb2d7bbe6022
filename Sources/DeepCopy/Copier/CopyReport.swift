// What a deep copy did, per entity.

/// Per-entity counts of a copy.
public struct CopyCounts: Sendable, Hashable, Encodable {
    /// Objects created in the target.
    public var copied = 0
    /// Source objects that matched a target object by key.
    public var matched = 0
    /// Matched objects whose attributes changed.
    public var updated = 0
    /// Matched objects left as they were.
    public var unchanged = 0
    /// Source objects asked for but not copied: their entity is missing in the target, or a
    /// predicate left them out and no relationship brought them along.
    public var skipped = 0
    /// With a lineage that keeps target changes: matched objects with a property that both the
    /// target and the source changed since the source last gave it (to different values), left
    /// as the target has it. Such an object also counts as `updated` (for its other properties)
    /// or `unchanged`.
    public var kept = 0
    /// With a lineage that keeps target changes: source objects whose object the target
    /// deleted, not copied again.
    public var notRestored = 0

    /// All zero.
    public init() {}
}

/// The outcome of a copy.
public struct CopyReport: Sendable, Hashable, Encodable {
    /// Counts per entity name.
    public var entities: [String: CopyCounts] = [:]
    /// Warnings (properties the target model lacks).
    public var warnings: [String] = []
    /// Wall-clock seconds.
    public var seconds = 0.0

    /// An empty report.
    public init() {}

    /// One line per entity.
    public var summary: String {
        entities.sorted { $0.key < $1.key }.map { name, counts in
            var line =
                "\(name): \(counts.copied) copied, \(counts.matched) matched (\(counts.updated) updated, \(counts.unchanged) unchanged), \(counts.skipped) skipped"
            if counts.kept > 0 { line += ", \(counts.kept) kept as changed" }
            if counts.notRestored > 0 { line += ", \(counts.notRestored) not restored" }
            return line
        }.joined(separator: "\n")
    }
}
