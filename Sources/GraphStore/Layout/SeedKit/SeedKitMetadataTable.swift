// SeedKit's layout keeps a store's metadata in `seedkit_metadata(key, value)`, read and written
// on a connection inside whatever transaction is open.

extension SeedKitLayout {
    package func readMetadata(on connection: SQLiteConnection, path: String) throws -> StoreMetadata {
        guard try recognizes(connection) else { throw StoreError(.notAStore, path: path) }
        let statement = try connection.prepare("SELECT key, value FROM seedkit_metadata")
        var values: [String: String] = [:]
        while try statement.step() {
            values[statement.string(0)] = statement.string(1)
        }
        return StoreMetadata(values: values)
    }

    package func writeMetadata(_ values: [String: String?], on connection: SQLiteConnection) throws {
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
