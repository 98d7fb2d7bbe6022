// What a store holds, read without a model (for `seedkit inspect`): its layout, its metadata and
// the number of objects of each entity. A Core Data–layout store gives its counts from the names
// `Z_PRIMARYKEY` records; a SeedKit store from its embedded model.
// Invariant: the store is only read.
import Foundation

/// A store's layout, metadata and object counts.
///
/// ```swift
/// let summary = try PersistentStore.summary(at: "App.sqlite")
/// summary.layout                        // "core-data"
/// summary.objectCounts["Car"]           // 125
/// summary.metadata.coreDataEntityHashes?["Car"]
/// ```
public struct StoreSummary: Sendable {
    /// The store's layout: `seedkit` or `core-data`.
    public let layout: String
    /// The store's metadata.
    public let metadata: StoreMetadata
    /// The number of objects of each concrete entity, by entity name.
    public let objectCounts: [String: Int]
}

extension PersistentStore {
    /// The layout, metadata and object counts of the store at `path`, read without a model and
    /// without changing any file; with `verifyIntegrity`, after SQLite's quick check.
    ///
    /// - Throws: ``StoreError`` when there is no store there or it cannot be read.
    public static func summary(at path: String, verifyIntegrity: Bool = false) throws -> StoreSummary {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError(.fileNotFound, path: path) }
        let connection = try readOnlyConnection(to: path)
        defer { connection.close() }
        let (rules, metadata) = try readMetadata(on: connection, path: path, trying: nil)
        if verifyIntegrity { try Self.verifyIntegrity(on: connection, path: path) }
        if let counts = try sqlite(path, { try rules.entityCounts(on: connection) }) {
            return StoreSummary(layout: rules.name, metadata: metadata, objectCounts: counts)
        }
        var options = StoreOptions()
        options.readOnly = true
        options.verifyIntegrity = verifyIntegrity
        let store = try open(at: path, options: options)
        return StoreSummary(layout: rules.name, metadata: metadata, objectCounts: try store.objectCounts())
    }
}
