// What an import did: per-entity counts, the errors, and the time it took. Encodes as the
// `--json` report of docs/CLI.md.

/// Per-entity counts of an import or copy.
public struct EntityCounts: Sendable, Hashable, Encodable {
    /// Objects created.
    public var inserted = 0
    /// Existing objects changed.
    public var updated = 0
    /// Existing objects matched and left as they were.
    public var unchanged = 0
    /// Records refused.
    public var rejected = 0

    /// All zero.
    public init() {}
}

/// The outcome of an import.
///
/// ```swift
/// let report = try await Importer(plan: plan).run()
/// report.entities["Item"]?.inserted
/// ```
public struct ImportReport: Sendable, Hashable, Encodable {
    /// Counts per entity name.
    public var entities: [String: EntityCounts] = [:]
    /// Every record error (with `skip`), or the one that stopped the run (with `abort`).
    public var errors: [RecordError] = []
    /// What convention mapping left out, one line each (`sources[0].relationships.tags: not
    /// mapped (no column named tags …)`, an attribute no codec can build): see docs/PlanFormat.md.
    public var notes: [String] = []
    /// Records read from all sources.
    public var records = 0
    /// Wall-clock seconds.
    public var seconds = 0.0
    /// Whether nothing was committed (a dry run, or a run that was rolled back).
    public var committed = false
    /// The store written.
    public var store = ""

    /// An empty report.
    public init() {}

    mutating func count(_ entity: String, _ update: (inout EntityCounts) -> Void) {
        update(&entities[entity, default: EntityCounts()])
    }

    /// One line per entity, for people: `Item: 1000 inserted, 0 updated, 0 unchanged, 2 rejected`.
    public var summary: String {
        entities.sorted { $0.key < $1.key }.map { name, counts in
            "\(name): \(counts.inserted) inserted, \(counts.updated) updated, \(counts.unchanged) unchanged, \(counts.rejected) rejected"
        }.joined(separator: "\n")
    }
}
