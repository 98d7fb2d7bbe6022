// What a layout's schema for one model is, read from a scratch in-memory database where the
// layout created it (indexes included): each table's columns and each index with its table, its
// SQL and whether it is unique, in the order the layout creates them. A pass uses it to create
// a copied table's indexes before the copy (SQLite then moves the index pages with the rows)
// and the others after their rows, unique ones last; two snapshots compare two schemas.
// Invariant: the scratch database is the layout's own statements run on an empty database, so
// the snapshot is exactly what a new store of the model holds.
import GraphStore

/// A layout's schema for one model.
struct SchemaSnapshot: Equatable {
    /// One index of the schema.
    struct Index: Equatable {
        let name: String
        let table: String
        let sql: String
        let isUnique: Bool
    }

    /// The `CREATE TABLE` statements, by table name.
    let tables: [String: String]
    /// The indexes, in creation order.
    let indexes: [Index]

    /// The schema `layout` gives its model.
    init(of layout: StoreLayout) throws {
        let scratch = try SQLiteConnection.inMemory()
        defer { scratch.close() }
        try scratch.transaction(.immediate) {
            try layout.createSchema(metadata: StoreMetadata(), indexes: true, on: scratch)
        }
        var tables: [String: String] = [:]
        var indexes: [(name: String, table: String, sql: String)] = []
        let rows = try scratch.prepare(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        while try rows.step() {
            if rows.string(0) == "table" {
                tables[rows.string(1)] = rows.string(3)
            } else if rows.string(0) == "index" {
                indexes.append((rows.string(1), rows.string(2), rows.string(3)))
            }
        }
        var unique: Set<String> = []
        for table in Set(indexes.map(\.table)).sorted() {
            let list = try scratch.prepare("PRAGMA index_list(\(SQLiteIdentifier.quote(table)))")
            while try list.step() {
                if list.int(2) == 1 { unique.insert(list.string(1)) }
            }
        }
        self.tables = tables
        self.indexes = indexes.map {
            Index(name: $0.name, table: $0.table, sql: $0.sql, isUnique: unique.contains($0.name))
        }
    }

    /// The indexes of `table`, in creation order.
    func indexes(of table: String) -> [Index] {
        indexes.filter { $0.table == table }
    }
}
