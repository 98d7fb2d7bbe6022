// Where a diff works: a private temporary SQLite database on disk (SQLite deletes it when the
// connection closes) with both stores attached read-only (`sa` for A, `sb` for B). It holds, per
// store, each object's identity by table (`ids_…`) and each compared object's attribute values
// as text (`obj_…`); the comparison then reads them back sorted, joined to the stores' own
// link columns and join tables.
// Invariant: memory stays bounded: a small page cache; rows beyond it, and the sorts, spill to
// temporary files.
import GraphStore

/// One of the two stores a diff compares.
enum DiffSide: String {
    case a
    case b

    /// The schema the store is attached as on the scratch connection.
    var schema: String { "s" + rawValue }

    /// The scratch table of identities of the objects in the table of `root` (an entity of this side's model).
    func identities(of root: ModelEntity) -> String { "ids_\(rawValue)_\(root.index)" }

    /// The scratch table of the objects of `entity` (an entity of this side's model).
    func objects(of entity: ModelEntity) -> String { "obj_\(rawValue)_\(entity.index)" }

    /// `sa."T"` or `sb."T"`: a table of the store.
    func stored(_ table: String) -> String { schema + "." + SQLiteIdentifier.quote(table) }
}

/// A diff's scratch database.
final class DiffScratch {
    let connection: SQLiteConnection

    /// A scratch database with `first` attached as `sa` and `second` as `sb`, both read-only.
    init(_ first: PersistentStore, _ second: PersistentStore) throws {
        connection = try SQLiteConnection(path: "", mode: .readWriteCreate)
        // Defensive mode (every connection) refuses journal_mode OFF; a memory journal costs
        // nearly nothing for rows written into new pages.
        try connection.execute("PRAGMA journal_mode = MEMORY")
        try connection.execute("PRAGMA synchronous = OFF")
        try connection.execute("PRAGMA temp_store = FILE")
        try connection.execute("PRAGMA cache_size = -4096")
        for (store, side) in [(first, DiffSide.a), (second, .b)] {
            try PersistentStore.sqlite(store.location.description) {
                let attach = try connection.prepare("ATTACH DATABASE ? AS \(side.schema)")
                attach.bind(text: store.readOnlyURI, at: 1)
                try attach.execute()
            }
        }
    }

    deinit {
        connection.close()
    }

    /// Creates the table `name` with an integer `key` (the row's key in its store), a text
    /// `identity` and the text columns `columns`.
    func createTable(_ name: String, columns: [String]) throws {
        let definitions = ["key INTEGER PRIMARY KEY", "identity TEXT NOT NULL"] + columns.map { "\($0) TEXT" }
        try connection.execute(
            "CREATE TABLE \(SQLiteIdentifier.quote(name))(\(definitions.joined(separator: ", ")))")
    }

    /// A statement inserting `(key, identity, columns…)` into `name`.
    func insert(into name: String, columns: [String]) throws -> SQLiteStatement {
        let names = ["key", "identity"] + columns
        return try connection.prepare(
            "INSERT INTO \(SQLiteIdentifier.quote(name))(\(names.joined(separator: ", "))) VALUES ("
                + names.map { _ in "?" }.joined(separator: ", ") + ")")
    }
}
