// How a migration runs: the version to reach, batch size, a backup of the old file, the
// data-loss gate, the opt-in rules (lossless widening, truncating to-manys), policies skipped on
// purpose, a dry run, and where progress goes.

/// Options for a migration.
///
/// ```swift
/// var options = MigrationOptions()
/// options.target = "Model 8"
/// options.allowDataLoss = false          // refuse a migration that drops values, objects or links
/// options.onProgress = { print($0.phase, $0.completed, $0.total) }
/// ```
public struct MigrationOptions: Sendable {
    /// The version to migrate to; nil: the model's current version.
    public var target: String?
    /// Source rows per committed batch of the new file (and per batch of policy calls).
    public var batchSize = 50_000
    /// Where to keep the old store file before the new one replaces it (a hard link, or a
    /// synced copy across file systems); nil: no backup.
    public var backup: String?
    /// Whether the migration may drop non-nil values, objects or links (true, as Core Data; the
    /// CLI's default is false). When false, such a migration stops with ``MigrationError/Kind/dataLoss(_:)``
    /// before the store changes.
    public var allowDataLoss = true
    /// Whether an attribute type change that keeps every value (Integer 16 → 32 → 64, Float →
    /// Double) is inferred instead of refused.
    public var inferLosslessWidening = false
    /// Whether a to-many that became to-one keeps its first destination (by position, then key)
    /// and drops the others (counted), instead of stopping the migration.
    public var truncateToMany = false
    /// Migration policy class names to run without (their mappings' SQL alone), reported as warnings.
    public var skippedPolicies: Set<String> = []
    /// Builds every pass and runs every check, then deletes the new file: the store is untouched.
    public var dryRun = false
    /// Called on the migration's thread at least once per batch (see ``MigrationProgress``).
    public var onProgress: (@Sendable (MigrationProgress) -> Void)?
    /// Test probes only: called on the migration's thread at each stop point of a run.
    package var onStopPoint: (@Sendable (MigrationStopPoint) -> Void)?

    /// The default options: current version, batches of 50,000, no backup, data loss allowed.
    public init() {}
}

/// A point of a migration run where a test may stop the process (docs/Migration.md, "Crash safety").
package enum MigrationStopPoint: Sendable, Hashable {
    /// The source was prepared (a leftover run undone, its write-ahead log checkpointed).
    case prepared
    /// Pass `pass` committed its `batch`th batch of rows into its new file.
    case batchCommitted(pass: Int, batch: Int)
    /// The new file is complete and synced, not yet renamed into the store's place.
    case built
    /// The new file was renamed into the store's place; the directory is not synced yet.
    case renamed

    /// The point's name as probes and tests spell it: `prepared`, `batch:1:2`, `built`, `renamed`.
    package var name: String {
        switch self {
        case .prepared: "prepared"
        case .batchCommitted(let pass, let batch): "batch:\(pass):\(batch)"
        case .built: "built"
        case .renamed: "renamed"
        }
    }
}
