// How another connection reaches this store's database: a `file:` URI for `ATTACH DATABASE`
// (set-based copies read a source store on the target's own connection).
// Invariant: the URI opens the database read-only (`mode=ro`), whatever the store's own options.
import Foundation

extension PersistentStore {
    /// A `file:` URI that opens this store's database read-only, for `ATTACH DATABASE` on a
    /// connection of another store (every SeedKit connection accepts URI filenames).
    ///
    /// ```swift
    /// let attach = try connection.prepare("ATTACH DATABASE ? AS src")
    /// attach.bind(text: seed.readOnlyURI, at: 1)
    /// try attach.execute()
    /// ```
    package var readOnlyURI: String {
        switch location {
        case .file(let path):
            return Self.readOnlyURI(ofFile: path)
        case .memory(let name):
            return "file:/" + SQLiteConnection.percentEncoded(name) + "?vfs=memdb&mode=ro"
        }
    }

    /// A `file:` URI that opens the database file at `path` read-only, for `ATTACH DATABASE`
    /// (a migration attaches the file it migrates from without opening it as a store).
    package static func readOnlyURI(ofFile path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + SQLiteConnection.percentEncoded(absolute) + "?mode=ro"
    }
}
