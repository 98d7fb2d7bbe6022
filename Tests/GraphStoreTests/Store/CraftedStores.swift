// Stores from elsewhere, for the untrusted-input tests: a real catalog store (a shipped single
// file, or a WAL-mode store) that a test then changes the way a crafted or damaged upload would
// be — SQL run through plain SQLite, bytes patched or cut — and the folder's files with their
// bytes, to show that reading changed none.
import CSQLite
import Foundation

@testable import GraphStore

/// A temporary folder of stores; `remove()` deletes it.
struct CraftedStores {
    let folder: String

    init() throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-crafted-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A catalog store called `name` holding a unit, a tag and three items: one file in journal
    /// mode DELETE (`shipped`, as a seed build leaves it) or in WAL mode with no side file (as a
    /// store is left when its last connection closes).
    func store(_ name: String = "Upload.sqlite", shipped: Bool = true) throws -> String {
        let path = folder + "/" + name
        let store = try PersistentStore.open(at: path, model: CatalogModel.build())
        do {
            let context = try ObjectContext(store: store)
            let unit = try context.insert("Unit")
            try unit.set("name", "kg")
            let tag = try context.insert("Tag")
            try tag.set("name", "fresh")
            for (index, name) in ["Apples", "Pears", "Plums"].enumerated() {
                let item = try CatalogModel.insertItem(
                    into: context, sku: "S-\(index)", name: name, price: Double(index) + 0.5)
                try item.setRelated("unit", to: unit)
                try item.add(tag, to: "tags")
            }
            try context.save()
        }
        if shipped { try store.compactForShipping() }
        return path
    }

    /// Runs `sql` on the store at `path` as a crafting tool would: plain SQLite, without
    /// SeedKit's safety settings, with functions named like SeedKit's (doing nothing) so that a
    /// schema can name them.
    func run(_ sql: String, on path: String) throws {
        var database: OpaquePointer?
        defer { sqlite3_close_v2(database) }
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let database else {
            throw CocoaError(.fileReadUnknown)
        }
        for name in ["seedkit_fold", "seedkit_like", "seedkit_matches"] {
            sqlite3_create_function_v2(
                database, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                { context, _, _ in sqlite3_result_null(context) },
                nil, nil, nil)
        }
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: sqlite3_extended_errcode(database), message: String(cString: sqlite3_errmsg(database)))
        }
    }

    /// Overwrites the bytes of the file at `path` from `offset` on.
    func patch(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
        guard let file = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        defer { try? file.close() }
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: Data(bytes))
    }

    /// The page number of the table or index `name` (its root page).
    func rootPage(of name: String, in path: String) throws -> Int {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?")
        statement.bind(text: name, at: 1)
        guard try statement.step() else { throw CocoaError(.fileReadCorruptFile) }
        return statement.int(0)
    }

    /// Every file of the folder with its bytes (a -shm by name only: SQLite's index of a -wal,
    /// which readers may update).
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] =
                name.hasSuffix("-shm") ? Data() : try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }
}
