// How a store is opened or created.
import Foundation

/// Where a store lives.
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file at a path.
    case file(String)
    /// A shared in-memory database, alive while its ``PersistentStore`` is.
    case memory(String)

    /// The path, or `memory:<name>`.
    public var description: String {
        switch self {
        case .file(let path): path
        case .memory(let name): "memory:\(name)"
        }
    }
}

/// Options for opening or creating a store.
///
/// ```swift
/// var options = StoreOptions()
/// options.readOnly = true
/// let seed = try PersistentStore.open(at: "Seed.sqlite", options: options)
/// ```
public struct StoreOptions: Sendable {
    /// Open the store for reading only; nothing (not even the journal mode) is written.
    public var readOnly = false
    /// Create the store when no file exists (needs a model).
    public var createIfMissing = true
    /// The UUID of a new store (random when nil); seed builds derive it from their inputs.
    public var storeUUID: UUID?
    /// Create a new store without its secondary indexes; build them later with
    /// ``PersistentStore/createIndexes()`` (faster bulk loads).
    public var deferIndexes = false
    /// Use write-ahead logging while the store is in use (the default), so readers see a
    /// consistent store while a writer works.
    public var writeAheadLog = true
    /// Check the whole file when an existing store is opened (SQLite's `PRAGMA quick_check`):
    /// every page is read and its structure checked, so a damaged store is refused
    /// (``StoreError/Kind/damaged(_:)``) before anything else reads it, instead of failing where
    /// a damaged page is met. It takes time in proportion to the file's size (docs/Security.md).
    public var verifyIntegrity = false
    /// How long a connection waits for a lock held by another connection, in seconds.
    public var busyTimeout: Double = 10
    /// The layout of a new store, and the first one tried when an existing file is opened
    /// (nil: SeedKit's own).
    package var layoutRules: (any StoreLayoutRules)?

    /// The default options: read-write, created if missing, WAL.
    public init() {}
}
