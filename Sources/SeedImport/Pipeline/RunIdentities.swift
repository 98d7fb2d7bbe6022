// The run identities of a run (`key: [object-id]`, `match: object-id`): which row each identity
// a record of the run gave names. No attribute holds them, so the store cannot be asked by
// value and the bounded key index may not hold them all; they are kept in a staging table of
// the store (`seedkit_import_ids`, one row per lookup and identity), written in the transaction
// of the batch that inserted their objects, and looked up a chunk of identities at a time. A
// plan with run identities goes through objects (RowPathRules), which find them here.
// Invariants: memory holds one batch's identities at a time, never the run's; the table exists
// only while a run is active and the run's end drops it (identities mean nothing after it).
import GraphStore

/// The staging table of a run's identities.
enum RunIdentities {
    static let table = "seedkit_import_ids"
    private static let chunkSize = 256

    /// Creates the table for a new run (replacing a killed run's) or, with `resuming`, keeps it.
    static func create(on connection: SQLiteConnection, resuming: Bool) throws {
        if !resuming { try drop(on: connection) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(table)(lookup INTEGER NOT NULL, id TEXT NOT NULL, entity INTEGER NOT NULL,
              row INTEGER NOT NULL, PRIMARY KEY(lookup, id)) WITHOUT ROWID
            """)
    }

    /// Drops the table.
    static func drop(on connection: SQLiteConnection) throws {
        try connection.execute("DROP TABLE IF EXISTS \(table)")
    }

    /// Notes that each item's row has its identity in the lookup numbered `lookup` (inside the
    /// caller's transaction).
    static func note(_ items: [(lookup: Int, id: String, row: RowReference)], on connection: SQLiteConnection) throws {
        guard !items.isEmpty else { return }
        let insert = try connection.cachedStatement(
            "INSERT OR REPLACE INTO \(table)(lookup, id, entity, row) VALUES (?, ?, ?, ?)")
        for item in items {
            insert.bind(Int64(item.lookup), at: 1)
            insert.bind(text: item.id, at: 2)
            insert.bind(item.row.entityID, at: 3)
            insert.bind(item.row.key, at: 4)
            try insert.execute()
        }
    }

    /// The rows the identities `ids` of the lookup numbered `lookup` name, those the run noted.
    static func rows(_ lookup: Int, ids: [String], on connection: SQLiteConnection) throws -> [String: RowReference] {
        var found: [String: RowReference] = [:]
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            var chunk = Array(ids[start..<min(ids.count, start + chunkSize)])
            // The same SQL text for every chunk, so the prepared statement is reused.
            while chunk.count < chunkSize { chunk.append(chunk[chunk.count - 1]) }
            let query = try connection.cachedStatement(
                "SELECT id, entity, row FROM \(table) WHERE lookup = ? AND id IN ("
                    + Array(repeating: "?", count: chunkSize).joined(separator: ", ") + ")")
            defer { query.reset() }
            query.bind(Int64(lookup), at: 1)
            for (offset, id) in chunk.enumerated() { query.bind(text: id, at: Int32(2 + offset)) }
            while try query.step() {
                found[query.string(0)] = RowReference(entityID: query.int64(1), key: query.int64(2))
            }
        }
        return found
    }
}
