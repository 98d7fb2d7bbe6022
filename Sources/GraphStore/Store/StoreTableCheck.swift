// The check that a store's tables are those its model lays out, made when the store is opened:
// a store from elsewhere may carry a model in its metadata that its tables do not match (a
// crafted file, or a damaged page of the schema that still parses). Every table the layout reads
// — each root entity's table with its key, entity, version and data columns, each join table with
// its key and position columns — must be there with those columns; otherwise the store is
// refused as damaged, naming what is missing, instead of failing later in the middle of a read
// with SQLite's "no such column".
// Invariant: nothing is executed and nothing is written; the check reads `PRAGMA table_xinfo` only.

/// Refuses a store whose tables lack what its layout reads.
///
/// ```swift
/// try StoreTableCheck.check(layout, on: reader, path: "Upload.sqlite")
/// ```
enum StoreTableCheck {
    /// At most this many missing tables or columns are named.
    private static let namedLimit = 10

    /// Throws ``StoreError/Kind/damaged(_:)`` naming the tables and columns `layout` reads that
    /// the database on `connection` does not have.
    static func check(_ layout: StoreLayout, on connection: SQLiteConnection, path: String) throws {
        var missing: [String] = []
        for (table, columns) in expectedColumns(of: layout) {
            let present = try PersistentStore.sqlite(path) { try columnNames(of: table, on: connection) }
            if present.isEmpty {
                missing.append("no table \(SQLiteIdentifier.quote(table))")
            } else {
                missing += columns.filter { !present.contains($0.lowercased()) }.map {
                    "\(SQLiteIdentifier.quote(table)) has no column \(SQLiteIdentifier.quote($0))"
                }
            }
        }
        guard !missing.isEmpty else { return }
        let named = missing.prefix(namedLimit).joined(separator: "; ")
        throw StoreError(
            .damaged(
                "its tables do not match its model: " + named
                    + (missing.count > namedLimit ? "; … (\(missing.count) in all)" : "")),
            path: path)
    }

    /// The tables `layout` reads, each with the columns it reads there.
    private static func expectedColumns(of layout: StoreLayout) -> [(table: String, columns: [String])] {
        let entityTables = layout.roots.map { root in
            (
                layout.table(of: root),
                [layout.keyColumn, layout.entityColumn, layout.versionColumn]
                    + layout.dataColumns(ofRoot: root).map(\.name)
            )
        }
        let joinTables = layout.joinTables.map { join in
            (join.name, [join.firstColumn, join.secondColumn] + join.orders.map(\.column))
        }
        return entityTables + joinTables
    }

    /// The lowercased names of the columns of `table` (none when there is no such table);
    /// SQLite matches column names without regard to case.
    private static func columnNames(of table: String, on connection: SQLiteConnection) throws -> Set<String> {
        let statement = try connection.prepare("SELECT name FROM pragma_table_xinfo(?)")
        statement.bind(text: table, at: 1)
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.string(0).lowercased()) }
        return names
    }
}
