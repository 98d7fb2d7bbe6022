// What a migration did: the versions it went between, its passes (inferred or a mapping model,
// with the versions each crossed), per concrete entity the objects kept, created and dropped
// summed over the passes, the data it dropped, warnings, the time it took and the backup.

/// The result of a migration.
///
/// ```swift
/// let report = try await StoreMigrator.migrate(store: path, source: source)
/// print(report.summary)     // "Item: 14 kept\nItem_Photo: 14 created\n…"
/// ```
public struct MigrationReport: Sendable, Hashable, Encodable {
    /// What a pass was.
    public enum PassKind: String, Sendable, Hashable, Encodable {
        /// Inferred steps (one, or several composed into one pass).
        case inferred
        /// A mapping model.
        case mapping
        /// Only the model's metadata changed, written in place.
        case metadata
    }

    /// One pass: one new file (or, for `metadata`, one transaction in place).
    public struct Pass: Sendable, Hashable, Encodable {
        /// The version the pass started from.
        public var from: String
        /// The version it reached.
        public var to: String
        /// What it was.
        public var kind: PassKind
        /// The mapping model it ran (its file), for a `mapping` pass.
        public var mapping: String?
        /// The versions it crossed, `from` first (more than two when inferred steps were composed).
        public var versions: [String]
    }

    /// Objects of one concrete entity, summed over the passes.
    public struct EntityCounts: Sendable, Hashable, Encodable {
        /// Objects that continued an object of the same entity (renamed or not).
        public var kept = 0
        /// Objects made from another entity's objects, or by a policy.
        public var created = 0
        /// Objects of this entity that no pass carried on.
        public var dropped = 0
    }

    /// The store migrated.
    public var store: String
    /// Where the result was written: the store itself, or the output path.
    public var output: String
    /// The store's version before (`unknown version (hash …)` when none of the versions had its hash).
    public var from: String
    /// The version reached.
    public var to: String
    /// The passes, in order (none when there was nothing to do).
    public var passes: [Pass] = []
    /// The steps between consecutive versions the passes covered.
    public var steps = 0
    /// Objects per concrete entity.
    public var entities: [String: EntityCounts] = [:]
    /// Each drop of data: `Item.photoData: 55 values`, `Measurement: 3 objects`, `Item.tags: 12 links`.
    public var dataDropped: [String] = []
    /// What the migration noticed and went on with.
    public var warnings: [String] = []
    /// How long it took.
    public var seconds: Double = 0
    /// Where the old file was kept, if asked.
    public var backup: String?
    /// Whether the result file changed (false: nothing to do, or a dry run).
    public var changed = false
    /// Whether this was a dry run (nothing installed).
    public var dryRun = false

    /// One line per entity (`Item: 14 kept`, `Unit: 3 created, 2 dropped`), in name order.
    public var summary: String {
        entities.sorted { $0.key < $1.key }.compactMap { name, counts in
            let parts = [("kept", counts.kept), ("created", counts.created), ("dropped", counts.dropped)]
                .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            return parts.isEmpty ? nil : "\(name): " + parts.joined(separator: ", ")
        }.joined(separator: "\n")
    }

    mutating func add(_ count: Int, _ counter: WritableKeyPath<EntityCounts, Int>, of entity: String) {
        guard count > 0 else { return }
        entities[entity, default: EntityCounts()][keyPath: counter] += count
    }
}

/// What a migration will do, worked out without writing anything.
public struct MigrationPlan: Sendable, Hashable {
    /// One step between two consecutive versions.
    public struct Step: Sendable, Hashable {
        /// The version the step starts from.
        public var from: String
        /// The version it reaches.
        public var to: String
        /// Inferred, or a mapping model.
        public var kind: MigrationReport.PassKind
        /// The mapping model's file, for a mapping step.
        public var mapping: String?
        /// Every change, one line each (`Car.color: removed`, `MeasurementToAmount: Measurement → Amount`).
        public var changes: [String]
    }

    /// One pass: consecutive inferred steps run as one, a mapping model alone.
    public struct Pass: Sendable, Hashable {
        /// The steps the pass runs.
        public var steps: [Step]
        /// The version the pass starts from.
        public var from: String { steps.first?.from ?? "" }
        /// The version it reaches.
        public var to: String { steps.last?.to ?? "" }
        /// Its kind (inferred when it composes several steps).
        public var kind: MigrationReport.PassKind { steps.count == 1 ? steps[0].kind : .inferred }
    }

    /// The store.
    public var store: String
    /// The store's version (nil when none of the versions has its hash: migrated directly from its embedded model).
    public var sourceVersion: String?
    /// The store's model hash.
    public var sourceHash: String
    /// The version to reach.
    public var targetVersion: String
    /// Its model hash.
    public var targetHash: String
    /// The passes; none when the store is already at the target.
    public var passes: [Pass]
    /// The data the first pass drops, counted on the store (later passes count theirs when they run).
    public var dataDropped: [String]
    /// What was noticed while planning (mapping models that name unknown versions, hooks that cannot run).
    public var warnings: [String]

    /// Whether the store is already at the target.
    public var isUpToDate: Bool { passes.isEmpty }

    /// The store's version as reports name it.
    public var sourceName: String {
        sourceVersion ?? "unknown version (hash \(sourceHash.prefix(16)))"
    }
}
