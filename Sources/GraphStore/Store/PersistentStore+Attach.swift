// How another connection reaches this store's database: a `file:` URI for `ATTACH DATABASE`
// (set-based copies and diffs read a source store on another connection).
// Invariant: the URI opens the database read-only, whatever the store's own options, and reading
// through it changes no file (StoreReadAccess).

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
            return StoreReadAccess.uri(forFile: path)
        case .memory(let name):
            return "file:/" + SQLiteConnection.percentEncoded(name) + "?vfs=memdb&mode=ro"
        }
    }
}
