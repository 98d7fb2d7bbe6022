// The Swift twin of a plan file (docs/PlanFormat.md): what to import, from which files, into which
// entities, and how. Plan files (YAML or JSON) decode into these types; code can build them directly.
// Invariant: these names are a user-facing contract shared with the plan-file format.
import GraphStore

/// A whole import: model, target store, sources in order, and the run's policies.
///
/// ```swift
/// var plan = ImportPlan(model: "Catalog.xcdatamodeld", sources: [
///     SourcePlan(file: "items.csv", entity: "Item", key: ["sku"]),
/// ])
/// plan.batchSize = 10_000
/// ```
public struct ImportPlan: Sendable, Hashable {
    /// The model: an Xcode model or a model file, relative to ``baseDirectory``.
    public var model: String?
    /// The default target store, relative to ``baseDirectory`` (the command line may override it).
    public var store: String?
    /// The layout of a new store (nil: SeedKit's own; ``GraphStore/StoreLayoutKind/coreData``: a
    /// store a Core Data app opens without migration, which needs an Xcode model). An existing
    /// store keeps its layout.
    public var layout: StoreLayoutKind?
    /// An empty Core Data store the app made for the model, relative to ``baseDirectory``: a new
    /// store starts as a copy of it (in Core Data's layout).
    public var template: String?
    /// The seed version written to the store's metadata as `seed.version`.
    public var seedVersion: String?
    /// Records per save.
    public var batchSize: Int
    /// What a bad record does to the run.
    public var onError: ErrorPolicy
    /// With ``ErrorPolicy/skip``: the run stops and rolls back after this many rejects.
    public var maxErrors: Int
    /// With ``ErrorPolicy/skip``: where rejected records go (JSON lines), relative to ``baseDirectory``.
    public var rejects: String?
    /// The sources, imported in this order.
    public var sources: [SourcePlan]
    /// The folder that relative paths start from (the plan file's folder).
    public var baseDirectory: String

    /// A plan with the defaults of docs/PlanFormat.md.
    public init(
        model: String? = nil, store: String? = nil, seedVersion: String? = nil, batchSize: Int = 5000,
        onError: ErrorPolicy = .abort, maxErrors: Int = 100, rejects: String? = nil,
        sources: [SourcePlan] = [], baseDirectory: String = "."
    ) {
        self.model = model
        self.store = store
        self.seedVersion = seedVersion
        self.batchSize = batchSize
        self.onError = onError
        self.maxErrors = maxErrors
        self.rejects = rejects
        self.sources = sources
        self.baseDirectory = baseDirectory
    }

    /// Whether a source or relationship (nested ones included) keys or matches by the run
    /// identity (``PlanConventions/identityKey``), which a resumed run would no longer know.
    public var usesRunIdentities: Bool {
        sources.contains { $0.mapping.usesRunIdentities }
    }

    /// `path` resolved against ``baseDirectory`` (absolute paths stay as they are).
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : baseDirectory.joinedPath(path)
    }
}

/// What a bad record does to a run.
public enum ErrorPolicy: String, Sendable, Hashable, CaseIterable {
    /// Stop at the first bad record; nothing of the run remains in the store.
    case abort
    /// Write the record to the rejects file and go on, up to `maxErrors`.
    case skip
}

/// What an incoming record does when its key matches an existing object.
public enum ConflictPolicy: String, Sendable, Hashable, CaseIterable {
    /// Overwrite the mapped attributes (unmapped ones keep their values).
    case update
    /// Keep the existing object as it is.
    case keep
    /// Make the record an error.
    case fail
}

extension String {
    /// `self/path`, with exactly one slash between them (`path` alone when `self` is `.` or empty).
    func joinedPath(_ path: String) -> String {
        if isEmpty || self == "." { return path }
        return hasSuffix("/") ? self + path : self + "/" + path
    }
}
