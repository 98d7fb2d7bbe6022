// What merging a newer seed into the user's store did, per entity, in the terms of a seed
// upgrade (docs/FirstLaunch.md, "Seed upgrades"), with the deep copy's own report beside it.
import DeepCopy

/// What a seed merge did to the user's store.
///
/// ```swift
/// if case .merged(_, let report) = try await loader.prepare() {
///     print(report.summary)                          // Item: 200 added, 3 updated, 1 kept…
///     print(report.entities["Item"]?.keptUserChange ?? 0)
/// }
/// ```
public struct SeedMergeReport: Sendable, Hashable {
    /// One entity's counts.
    public struct Counts: Sendable, Hashable, Encodable {
        /// Seed objects added to the store: new in the seed (or, with
        /// ``SeedUpgradePolicy/seedWins``, brought back after the user deleted them).
        public var added = 0
        /// Seed objects already in the store that took some of the seed's new values.
        public var updated = 0
        /// Seed objects with a property that the user and the seed both changed, left as the user
        /// has it (with ``SeedUpgradePolicy/respectUserChanges``; such an object may also count as
        /// `updated`, for its other properties).
        public var keptUserChange = 0
        /// Seed objects the user deleted, not brought back (with
        /// ``SeedUpgradePolicy/respectUserChanges``).
        public var notRestored = 0

        /// All zero.
        public init() {}
    }

    /// Counts per entity name.
    public var entities: [String: Counts]
    /// The deep copy's report: objects matched and left unchanged, warnings, seconds.
    public var copy: CopyReport

    /// The report of a merge whose deep copy reported `copy`.
    public init(copy: CopyReport) {
        self.copy = copy
        entities = copy.entities.mapValues { counts in
            var seed = Counts()
            seed.added = counts.copied
            seed.updated = counts.updated
            seed.keptUserChange = counts.kept
            seed.notRestored = counts.notRestored
            return seed
        }
    }

    /// One line per entity: `Item: 200 added, 3 updated, 1 kept as the user changed it, 2 not restored`.
    public var summary: String {
        entities.sorted { $0.key < $1.key }.map { name, counts in
            "\(name): \(counts.added) added, \(counts.updated) updated, \(counts.keptUserChange) kept as the user changed it, \(counts.notRestored) not restored"
        }.joined(separator: "\n")
    }
}
