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

/// What an import read from one source of its plan.
public struct SourceCounts: Sendable, Hashable, Encodable {
    /// The source's file, as the plan names it.
    public var file: String
    /// The entity its records become.
    public var entity: String
    /// Records read (broken ones included).
    public var records = 0
    /// Records refused (with `skip`, those in the rejects file).
    public var rejected = 0

    /// No records yet from `file` into `entity`.
    public init(file: String, entity: String) {
        self.file = file
        self.entity = entity
    }
}

/// How often an import read one input file: sources over the same file share one pass.
public struct FileReads: Sendable, Hashable, Encodable {
    /// The file, as the plan's first source over it names it.
    public var file: String
    /// The sources that map it.
    public var sources = 0
    /// Passes over the file (each parses it from the start): 1 when all its sources shared one.
    public var passes = 0
    /// Bytes read from it: its size for each pass (for gzip input, compressed bytes).
    public var bytes = 0

    /// A file not read yet.
    public init(file: String) {
        self.file = file
    }
}

/// The outcome of an import.
///
/// ```swift
/// let report = try await Importer(plan: plan).run()
/// report.entities["Item"]?.inserted
/// ```
public struct ImportReport: Sendable, Hashable, Encodable {
    /// Records read and refused per source, in plan order.
    public var sources: [SourceCounts] = []
    /// How often each input file was read, in the order the plan first names them.
    public var files: [FileReads] = []
    /// Objects inserted, updated and unchanged (and the records refused) per entity name.
    public var entities: [String: EntityCounts] = [:]
    /// Every record error (with `skip`), or the one that stopped the run (with `abort`).
    public var errors: [RecordError] = []
    /// What convention mapping left out, one line each (`sources[0].relationships.tags: not
    /// mapped (no column named tags …)`, an attribute no codec can build): see docs/PlanFormat.md.
    public var notes: [String] = []
    /// Records read from all sources.
    public var records = 0
    /// Records refused, of all sources.
    public var rejected = 0
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

    /// For people: one line per source (records), one per file that several sources read
    /// (passes), then one per entity (objects): `items.csv → Item: 1002 records read, 2 rejected`,
    /// …, `catalog.json: 1 pass for 2 sources, 2048 bytes read`, …,
    /// `Item: 1000 inserted, 0 updated, 0 unchanged, 2 rejected`.
    public var summary: String {
        let sourceLines = sources.map { source in
            "\(source.file) → \(source.entity): \(Self.counted(source.records, "record")) read, \(source.rejected) rejected"
        }
        let fileLines = files.filter { $0.sources > 1 }.map { file in
            "\(file.file): \(Self.counted(file.passes, "pass", "passes")) for \(Self.counted(file.sources, "source")), "
                + "\(Self.counted(file.bytes, "byte")) read"
        }
        let entityLines = entities.sorted { $0.key < $1.key }.map { name, counts in
            "\(name): \(counts.inserted) inserted, \(counts.updated) updated, \(counts.unchanged) unchanged, \(counts.rejected) rejected"
        }
        return (sourceLines + fileLines + entityLines).joined(separator: "\n")
    }

    private static func counted(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
