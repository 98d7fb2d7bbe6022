// Every place where the import needs the store's SQL layout — table names, key columns — in one
// file, so that the layout can change behind it.
import GraphStore

/// The SQL the import's row path runs against the store's layout.
enum RowSQL {
    /// The next free key of every root table of `model`, by table name.
    static func nextFreeKeys(on connection: SQLiteConnection, model: ObjectModel) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for table in Set(model.entities.map { model.root(of: $0).tableName }) {
            let statement = try connection.cachedStatement(
                "SELECT coalesce(max(pk), 0) + 1 FROM \(SQLiteIdentifier.quote(table))")
            defer { statement.reset() }
            _ = try statement.step()
            keys[table] = statement.int64(0)
        }
        return keys
    }
}
