// What an existing Core Data–layout file holds beyond what its model says: its tables and their
// columns (which side of a many-to-many between two relationships of one entity names the join
// table; whether every table and column the model needs is there), how `Z_PRIMARYKEY` numbers
// its entities (by number and parent: names there can be stale after a renaming migration), and
// where its external binary data lives.
// Invariant: only read from the file, never written; names are compared upper-cased, as SQLite
// compares them case-insensitively.
import Foundation

/// The facts a Core Data–layout file gives beyond its model.
struct CoreDataFile: Sendable, Hashable {
    /// Each table's columns, upper-cased, by upper-cased table name.
    let columns: [String: Set<String>]
    /// Each entity number `Z_PRIMARYKEY` lists (below Core Data's own 16000s), and its parent's (0 for a root).
    let parents: [Int64: Int64]
    /// `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store (nil for an in-memory database).
    let externalDataFolder: String?

    /// Reads the facts of the database at `path`, open on `connection`.
    static func read(on connection: SQLiteConnection, path: String) throws -> CoreDataFile {
        var tables: [String] = []
        let names = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        while try names.step() { tables.append(names.string(0)) }
        var columns: [String: Set<String>] = [:]
        for table in tables {
            let info = try connection.prepare("PRAGMA table_info(\(SQLiteIdentifier.quote(table)))")
            var names: Set<String> = []
            while try info.step() { names.insert(info.string(1).uppercased()) }
            columns[table.uppercased()] = names
        }
        var parents: [Int64: Int64] = [:]
        let entities = try connection.prepare(
            "SELECT Z_ENT, coalesce(Z_SUPER, 0) FROM Z_PRIMARYKEY WHERE Z_ENT < \(CoreDataLayout.firstFrameworkEntity)")
        while try entities.step() { parents[entities.int64(0)] = entities.int64(1) }
        return CoreDataFile(columns: columns, parents: parents, externalDataFolder: Self.externalDataFolder(of: path))
    }

    /// Whether the file has `table`.
    func has(table: String) -> Bool {
        columns[table.uppercased()] != nil
    }

    /// Where Core Data keeps the external binary data of the store at `path`.
    static func externalDataFolder(of path: String) -> String? {
        guard !path.hasPrefix("memory:") else { return nil }
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT/_EXTERNAL_DATA").path
    }
}
