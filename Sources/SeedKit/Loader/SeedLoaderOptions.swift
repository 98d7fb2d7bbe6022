// How SeedLoader checks and merges: the app's model, the seed's version when known up front, the
// upgrade policy of a merge, batch size and a synchronous progress callback.
import GraphStore
import StoreMigration

/// Options of a ``SeedLoader``.
///
/// ```swift
/// var options = SeedLoaderOptions()
/// options.model = try ModelLoader.load(from: modelPath)   // seed and store must match the app
/// options.seedVersion = "2026.11"                          // same version: only the store is read
/// options.upgradePolicy = .respectUserChanges            // the user's edits win (the default)
/// ```
public struct SeedLoaderOptions: Sendable {
    /// The app's model. When set, the seed (and a store being merged into) must have this
    /// model's hash, else ``SeedLoadError/Kind/incompatibleModel``.
    public var model: ObjectModel?
    /// The bundled seed's version, when the app knows it. With it, a store that is up to date
    /// costs one metadata read of the store; without it, the seed's own `seed.version` (or the
    /// plan's `seed:`) is read too.
    public var seedVersion: String?
    /// What merging a newer seed store does to the seed objects already in the user's store:
    /// ``SeedUpgradePolicy/respectUserChanges`` (default) keeps what the user changed and
    /// deleted, ``SeedUpgradePolicy/seedWins`` lets the seed's values and objects win. Plans
    /// use their own `onConflict` per source instead.
    public var upgradePolicy = SeedUpgradePolicy.respectUserChanges
    /// Objects per merged batch, or records per imported batch (nil: the deep copy's default,
    /// or the plan's `batchSize`). Each batch is one transaction; cancellation takes effect
    /// between batches.
    public var batchSize: Int?
    /// The app's model versions (and mapping models, policies) to migrate the user's store
    /// with. When set, a store at another version of the model is migrated to the app's version
    /// (``model``, else the versions' current one) before the seed is merged; nil: such a store
    /// is ``SeedLoadError/Kind/incompatibleModel``.
    public var migration: MigrationSource?
    /// Called with every progress update, on the thread doing the work (for a plan import, on the
    /// task relaying the importer's progress); keep it short. The same updates go to
    /// ``SeedLoader/progress``.
    public var onProgress: (@Sendable (SeedLoader.Progress) -> Void)?
    /// Test probes only: called on the migration's thread at each stop point of the migration
    /// of the user's store (``migration``).
    package var onMigrationStopPoint: (@Sendable (MigrationStopPoint) -> Void)?

    /// The defaults: no model check, the seed's own version, the user's changes respected.
    public init() {}
}
