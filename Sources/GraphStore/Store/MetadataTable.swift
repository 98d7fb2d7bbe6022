// Reads and writes `seedkit_metadata` on a connection, inside whatever transaction is open.

/// Access to the `seedkit_metadata` table.
enum MetadataTable {
    /// Every key and value; throws `.notAStore` when the table does not exist.
    static func read(on connection: SQLiteConnection, path: String) throws -> StoreMetadata {
        let exists = try connection.prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seedkit_metadata'")
        guard try exists.step() else { throw StoreError(.notAStore, path: path) }
        let statement = try connection.prepare("SELECT key, value FROM seedkit_metadata")
        var values: [String: String] = [:]
        while try statement.step() {
            values[statement.string(0)] = statement.string(1)
        }
        return StoreMetadata(values: values)
    }

    /// Sets each key to its value, or removes it when the value is nil.
    static func write(_ values: [String: String?], on connection: SQLiteConnection) throws {
        let upsert = try connection.cachedStatement(
            "INSERT INTO seedkit_metadata(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        )
        let delete = try connection.cachedStatement("DELETE FROM seedkit_metadata WHERE key = ?")
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let value {
                upsert.bind(text: key, at: 1)
                upsert.bind(text: value, at: 2)
                try upsert.execute()
            } else {
                delete.bind(text: key, at: 1)
                try delete.execute()
            }
        }
    }
}
