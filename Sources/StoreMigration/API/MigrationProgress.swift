// Where a migration stands: its phase, the source rows read so far against the total over every
// pass (real counts, taken from the files: each pass's total is counted when it starts, and a
// later pass's is estimated from the rows before it until then), the pass and its versions.
// Invariants: `completed` never decreases; the last update (phase `finished`) has
// `completed == total`.

/// A migration's progress.
///
/// ```swift
/// options.onProgress = { progress in
///     print("\(progress.phase) \(progress.from) → \(progress.to): \(progress.completed) of \(progress.total) rows")
/// }
/// ```
public struct MigrationProgress: Sendable, Hashable {
    /// What the migration is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Reading the plan, preparing the store (undoing a killed run, checkpointing).
        case preparing
        /// Writing rows and links into a pass's new file.
        case migrating
        /// Building a pass's indexes (`indexesBuilt` of `indexCount`).
        case indexing
        /// Checking the new file against the new model's rules.
        case checking
        /// Moving the finished file into the store's place.
        case installing
        /// Done.
        case finished
    }

    /// The phase.
    public var phase: Phase
    /// Source rows read so far (objects and join-table rows), over every pass.
    public var completed: Int
    /// Source rows to read over every pass.
    public var total: Int
    /// The pass under way (1-based; 0 before the first).
    public var step: Int
    /// The number of passes.
    public var stepCount: Int
    /// The version the pass starts from.
    public var from: String
    /// The version the pass leads to.
    public var to: String
    /// Indexes built so far in the pass's file (phase `indexing`).
    public var indexesBuilt: Int
    /// Indexes the pass's file gets after its rows.
    public var indexCount: Int
    /// Seconds since the migration started.
    public var seconds: Double

    /// The share of rows read, 0…1.
    public var fraction: Double {
        total > 0 ? min(1, Double(completed) / Double(total)) : (phase == .finished ? 1 : 0)
    }
}
