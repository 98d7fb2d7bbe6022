// What one SeedLoader.prepare() call did.
import SeedImport
import StoreMigration

extension SeedLoader {
    /// What ``SeedLoader/prepare()`` did to the user's store.
    ///
    /// ```swift
    /// switch try await loader.prepare() {
    /// case .copiedSeed, .imported: print("fresh store")
    /// case .merged(let report): print(report.summary)
    /// case .upToDate, .storeIsNewer: break
    /// }
    /// ```
    public enum Outcome: Sendable, Hashable {
        /// There was no store: the seed was copied into place (with its version, if it has one).
        case copiedSeed(version: String?)
        /// The store's seed version was older, missing or different: the seed store was merged in
        /// by deep copy (as ``SeedLoaderOptions/upgradePolicy`` says), and the store now carries
        /// `version`.
        case merged(version: String, report: SeedMergeReport)
        /// The plan's sources were imported (into a new store moved into place, or into the
        /// user's store); the store now carries the plan's version, if it has one.
        case imported(version: String?, report: ImportReport)
        /// The store already carries the seed's version: nothing was done.
        case upToDate(version: String)
        /// The store carries a newer seed version than the bundled seed: nothing was done (a
        /// seed is never downgraded).
        case storeIsNewer(store: String, seed: String)
    }

    /// What ``SeedLoader/prepareReport()`` did: the migration of the user's store, if one ran
    /// first, and then what was done with the seed.
    public struct PrepareReport: Sendable {
        /// What was done with the seed.
        public var outcome: Outcome
        /// The migration of the user's store to the app's model version; nil when none was needed.
        public var migration: MigrationReport?
    }
}
