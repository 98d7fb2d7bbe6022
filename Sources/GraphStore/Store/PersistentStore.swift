// A SQLite-backed store for one model: creation from the model, compatibility checks on open,
// metadata, and connections for contexts. Its layout (StoreLayout: SeedKit's own, found from the
// file when one is opened) answers every question about its tables and columns.
// Invariants: opening with an incompatible model never writes to the file (metadata is read on a
// read-only connection first); a store's schema is checked before any of its tables is read
// (StoreSchemaCheck: a store from elsewhere is untrusted input), and its tables against its
// model's layout (StoreTableCheck) before it is handed out; a read-only store is read through
// StoreReadAccess, so reading it changes no file; a new store is created in one transaction
// (schema + metadata); an in-memory store lives as long as this object (it holds an anchor
// connection).
import Foundation
import Synchronization

/// A store: one SQLite file (or in-memory database) laid out for an ``ObjectModel``.
///
/// ```swift
/// let store = try PersistentStore.open(at: "Catalog.sqlite", model: model)   // creates or checks
/// let existing = try PersistentStore.open(at: "Catalog.sqlite")             // uses the stored model
/// let metadata = try PersistentStore.metadata(at: "Catalog.sqlite")         // no stack needed
/// ```
public final class PersistentStore: Sendable {
    /// Where the store lives.
    public let location: StoreLocation
    /// The store's model.
    public let model: ObjectModel
    /// How the store lays the model out in SQLite.
    package let layout: StoreLayout
    /// Whether the store refuses writes.
    public let isReadOnly: Bool
    /// The options it was opened with.
    public let options: StoreOptions
    /// The store's UUID (from its metadata); object IDs carry it.
    public let identifier: UUID
    /// Delivers the change set of every save made through contexts on this store.
    public let saves = ChangeSetBroadcaster()
    /// Keeps an in-memory database alive; unused for files.
    private let anchor: Mutex<SQLiteConnection?>

    private init(
        location: StoreLocation, identifier: UUID, layout: StoreLayout, options: StoreOptions,
        anchor: sending SQLiteConnection?
    ) {
        self.location = location
        self.identifier = identifier
        self.model = layout.model
        self.layout = layout
        self.isReadOnly = options.readOnly
        self.options = options
        self.anchor = Mutex(anchor)
    }

    /// Opens the store at `path`, creating it from `model` when there is none.
    ///
    /// With a `model`, the store's schema must match it (else ``StoreError/Kind/incompatibleModel(_:)``
    /// naming each difference, with the file untouched); without one, the store's embedded model is used.
    public static func open(at path: String, model: ObjectModel? = nil, options: StoreOptions = StoreOptions()) throws
        -> PersistentStore
    {
        if FileManager.default.fileExists(atPath: path) {
            return try openExisting(at: path, model: model, options: options)
        }
        guard options.createIfMissing, !options.readOnly else { throw StoreError(.fileNotFound, path: path) }
        guard let model else { throw StoreError(.missingModel, path: path) }
        return try create(at: path, model: model, options: options)
    }

    /// Opens the store at `url`; see ``open(at:model:options:)-(String,_,_)``.
    public static func open(at url: URL, model: ObjectModel? = nil, options: StoreOptions = StoreOptions()) throws
        -> PersistentStore
    {
        try open(at: url.path, model: model, options: options)
    }

    /// A new, empty in-memory store for `model` (for tests and scratch work).
    public static func inMemory(model: ObjectModel, options: StoreOptions = StoreOptions()) throws -> PersistentStore {
        let name = "seedkit-" + UUID().uuidString
        let location = StoreLocation.memory(name)
        let anchor = try sqlite(location.description) { try SQLiteConnection.inMemory(name: name) }
        let identifier = options.storeUUID ?? UUID()
        let layout = newStoreLayout(for: model, options: options)
        try initialize(anchor, layout: layout, storeUUID: identifier, options: options, path: location.description)
        var memoryOptions = options
        memoryOptions.writeAheadLog = false
        return PersistentStore(
            location: location, identifier: identifier, layout: layout, options: memoryOptions, anchor: anchor)
    }

    /// The metadata of the store at `path`, read without opening a stack or checking a model; the
    /// store's schema is checked first, as ``open(at:model:options:)-(String,_,_)`` checks it.
    public static func metadata(at path: String) throws -> StoreMetadata {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError(.fileNotFound, path: path) }
        let connection = try readOnlyConnection(to: path)
        defer { connection.close() }
        return try readMetadata(on: connection, path: path, trying: nil).metadata
    }

    /// A stream of the change sets of every save made on this store from now on.
    public func changeSets() -> AsyncStream<ChangeSet> {
        saves.changeSets()
    }

    /// The store's current metadata.
    public func metadata() throws -> StoreMetadata {
        let connection = try makeConnection()
        return try Self.sqlite(location.description) {
            try layout.readMetadata(on: connection, path: location.description)
        }
    }

    /// Sets (or, with nil, removes) metadata keys in one transaction.
    public func setMetadata(_ values: [String: String?]) throws {
        guard !isReadOnly else { throw StoreError(.readOnly, path: location.description) }
        let connection = try makeConnection()
        try Self.sqlite(location.description) {
            try connection.transaction(.immediate) { try layout.writeMetadata(values, on: connection) }
        }
    }

    /// Builds the secondary indexes a store created with ``StoreOptions/deferIndexes`` left out,
    /// sorting on two threads (bulk loads end here, when the loader's reader thread is done).
    public func createIndexes() throws {
        guard !isReadOnly else { throw StoreError(.readOnly, path: location.description) }
        let connection = try makeConnection()
        connection.setWorkerThreads(2)
        try Self.sqlite(location.description) {
            try connection.transaction(.immediate) {
                for statement in layout.indexStatements {
                    try connection.execute(statement)
                }
                try layout.writeMetadata([StoreMetadata.Key.indexesPending: nil], on: connection)
            }
        }
    }

    /// A new connection to the store, configured for use by one context, with the SQL functions
    /// its layout's schema calls.
    package func makeConnection() throws -> SQLiteConnection {
        let path = location.description
        let connection = try Self.sqlite(path) { () throws -> SQLiteConnection in
            switch location {
            case .file(let file) where isReadOnly:
                return try SQLiteConnection(path: StoreReadAccess.uri(forFile: file), mode: .readOnly)
            case .file(let file):
                return try SQLiteConnection(path: file, mode: .readWrite)
            case .memory(let name):
                return try SQLiteConnection.inMemory(name: name)
            }
        }
        connection.busyTimeout = options.busyTimeout
        try Self.sqlite(path) { try layout.rules.registerSchemaFunctions(on: connection) }
        return connection
    }

    // MARK: - Opening and creating

    private static func openExisting(at path: String, model: ObjectModel?, options: StoreOptions) throws
        -> PersistentStore
    {
        let reader = try readOnlyConnection(to: path)
        defer { reader.close() }
        let (rules, metadata) = try readMetadata(on: reader, path: path, trying: options.layoutRules)
        if options.verifyIntegrity { try verifyIntegrity(on: reader, path: path) }
        let storedModel = Result { try metadata.model(source: path) }
        if let model, model.versionHash != metadata.modelHash {
            let differences = (try? storedModel.get()).map { ModelDifference.between($0, model) } ?? []
            throw StoreError(.incompatibleModel(differences.isEmpty ? ["model hash differs"] : differences), path: path)
        }
        let layout: StoreLayout
        do {
            layout = StoreLayout(model: try model ?? storedModel.get(), rules: rules)
        } catch let error as ModelError {
            throw StoreError(.unreadableModel(error.description), path: path)
        }
        try StoreTableCheck.check(layout, on: reader, path: path)
        reader.close()
        let identifier = metadata.storeUUID.flatMap(UUID.init(uuidString:)) ?? UUID()
        return try finishOpening(at: path, identifier: identifier, layout: layout, options: options)
    }

    private static func finishOpening(at path: String, identifier: UUID, layout: StoreLayout, options: StoreOptions)
        throws
        -> PersistentStore
    {
        if !options.readOnly && options.writeAheadLog {
            let connection = try sqlite(path) { try SQLiteConnection(path: path, mode: .readWrite) }
            connection.busyTimeout = options.busyTimeout
            _ = try sqlite(path) { try connection.setJournalMode("WAL") }
            connection.close()
        }
        return PersistentStore(
            location: .file(path), identifier: identifier, layout: layout, options: options, anchor: nil)
    }

    private static func create(at path: String, model: ObjectModel, options: StoreOptions) throws -> PersistentStore {
        let identifier = options.storeUUID ?? UUID()
        let layout = newStoreLayout(for: model, options: options)
        do {
            let connection = try sqlite(path) { try SQLiteConnection(path: path, mode: .readWriteCreate) }
            defer { connection.close() }
            try initialize(connection, layout: layout, storeUUID: identifier, options: options, path: path)
            if options.writeAheadLog {
                _ = try sqlite(path) { try connection.setJournalMode("WAL") }
            }
        } catch {
            try? StoreFiles.remove(path)
            throw error
        }
        return PersistentStore(
            location: .file(path), identifier: identifier, layout: layout, options: options, anchor: nil)
    }

    /// The layout a new store of `model` gets with `options`: SeedKit's own unless the options name another.
    package static func newStoreLayout(for model: ObjectModel, options: StoreOptions) -> StoreLayout {
        StoreLayout(model: model, rules: options.layoutRules ?? SeedKitLayout())
    }

    /// Creates the schema and writes the initial metadata in one transaction.
    private static func initialize(
        _ connection: SQLiteConnection, layout: StoreLayout, storeUUID: UUID, options: StoreOptions, path: String
    ) throws {
        var metadata = try StoreMetadata.initial(for: layout.model, storeUUID: storeUUID)
        if options.deferIndexes { metadata[StoreMetadata.Key.indexesPending] = "1" }
        try sqlite(path) {
            try connection.transaction(.exclusive) {
                try layout.createSchema(metadata: metadata, indexes: !options.deferIndexes, on: connection)
            }
        }
    }

    /// A read-only connection to the store file at `path` that changes no file (StoreReadAccess).
    private static func readOnlyConnection(to path: String) throws -> SQLiteConnection {
        try sqlite(path) { try SQLiteConnection(path: StoreReadAccess.uri(forFile: path), mode: .readOnly) }
    }

    /// The layout rules of the store on `connection` (`preferred` first, then the known ones)
    /// and its metadata, checked for a format this SeedKit reads; the file's header, the page
    /// size of a -wal beside it and the schema are checked first, whose store the -wal makes it last.
    private static func readMetadata(
        on connection: SQLiteConnection, path: String, trying preferred: (any StoreLayoutRules)?
    ) throws -> (rules: any StoreLayoutRules, metadata: StoreMetadata) {
        let candidates = (preferred.map { [$0] } ?? []) + StoreLayout.knownRules
        try StoreFileHeader.check(path: path)
        try WriteAheadLogCheck.checkPageSize(path: path)
        try StoreSchemaCheck.check(connection, layouts: candidates, path: path)
        let (rules, metadata) = try sqlite(path) { () throws -> (any StoreLayoutRules, StoreMetadata) in
            guard let rules = try StoreLayout.rules(of: connection, trying: preferred) else {
                throw StoreError(.notAStore, path: path)
            }
            return (rules, try rules.readMetadata(on: connection, path: path))
        }
        if let version = metadata.formatVersion, version != StoreMetadata.currentFormatVersion {
            throw StoreError(.unsupportedFormat(version), path: path)
        }
        try WriteAheadLogCheck.checkOwner(path: path, metadata: metadata, layouts: candidates)
        return (rules, metadata)
    }

    /// Runs SQLite's `PRAGMA quick_check` on `connection`: every page of the file is read and
    /// its b-tree structure checked (not the agreement of indexes with their tables).
    ///
    /// - Throws: ``StoreError`` (`.damaged`) with the first problems SQLite found.
    private static func verifyIntegrity(on connection: SQLiteConnection, path: String) throws {
        let problems = try sqlite(path) { () throws -> [String] in
            let check = try connection.prepare("PRAGMA quick_check(\(verifiedProblemLimit))")
            var problems: [String] = []
            while try check.step() { problems.append(check.string(0)) }
            return problems
        }
        guard problems == ["ok"] else {
            throw StoreError(.damaged("quick_check: " + problems.joined(separator: "; ")), path: path)
        }
    }

    /// How many problems a failed integrity check names.
    private static let verifiedProblemLimit = 5

    /// Runs `body`, turning SQLite errors into ``StoreError``s about `path` (a damaged file is
    /// ``StoreError/Kind/damaged(_:)``).
    package static func sqlite<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StoreError(error, path: path)
        }
    }
}
