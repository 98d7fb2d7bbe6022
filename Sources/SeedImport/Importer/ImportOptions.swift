// Run-time options of an import; each overrides the plan's own setting when given (the
// command line's flags map onto these).
import Foundation

/// How to run a plan.
///
/// ```swift
/// var options = ImportOptions()
/// options.store = "App.sqlite"
/// options.dryRun = true
/// ```
public struct ImportOptions: Sendable {
    /// The target store (overrides the plan's `store`).
    public var store: String?
    /// The error policy (overrides the plan's `onError`).
    public var onError: ErrorPolicy?
    /// The most rejects before a `skip` run rolls back (overrides `maxErrors`).
    public var maxErrors: Int?
    /// The rejects file (overrides `rejects`).
    public var rejects: String?
    /// Records per save (overrides `batchSize`).
    public var batchSize: Int?
    /// Do everything but commit: the report is complete, the store unchanged.
    public var dryRun = false
    /// Continue a run that was killed, from its last checkpoint.
    public var resume = false
    /// Build secondary indexes after the load when the store is new (faster).
    public var deferIndexesOnNewStore = true
    /// The UUID of a store the run creates (random when nil); seed builds derive it from their inputs.
    public var newStoreUUID: UUID?
    /// Keep a new store in rollback-journal mode instead of WAL (seed builds: one file, no side files).
    public var newStoreWithoutWAL = false
    /// Write the rows of a store the run creates straight with SQL, batch by batch, when the plan
    /// allows it (docs/Architecture.md, "Objects, and rows for new stores"); false sends every
    /// record through objects. Both give the same store.
    public var usesRowPath = true
    /// Leave out of the object path the records of a batch that would change nothing, found by
    /// comparing them with their stored rows in set-based queries (re-runs); false sends every
    /// record of a store that holds data through objects. Both give the same store and report.
    public var comparesStoredRows = true
    /// Whether JSON, NDJSON and XML sources are parsed on a thread of their own, ahead of the
    /// thread that prepares their records (``RecordReaders/ReaderOptions/readAhead``); nil, the
    /// default: only on a machine with three cores or more (or as `SEEDKIT_READ_AHEAD=1|0` says).
    /// Both give the same store and report.
    public var readsAhead: Bool?
    /// Called on the import's thread with every progress update, before ``Importer/progress``
    /// yields it: keep it short. Unlike the stream, it sees every update at the moment it happens.
    public var onProgress: (@Sendable (ImportProgress) -> Void)?

    /// Sizes of the run's bounded structures (tests make them small to reach what lies beyond).
    var limits = ImportLimits()

    /// Options that change nothing in the plan.
    public init() {}
}

/// The sizes of an import's bounded in-memory structures.
struct ImportLimits: Sendable {
    /// Keys the run's key index holds per lookup; references to other keys wait for the
    /// set-based pass after the load.
    var keysPerLookup = 1 << 14
    /// The most bits of the filter that tells new keys from possibly repeated ones once a
    /// lookup's index is full (16 MiB; the filter is made smaller for smaller inputs).
    var filterBits = 1 << 27
    /// Keys of each lookup whose stored rows a re-run's comparison keeps from batch to batch
    /// (small destination tables: units, tags); a lookup naming more is looked up per batch.
    var destinationsPerLookup = 1 << 12
}
