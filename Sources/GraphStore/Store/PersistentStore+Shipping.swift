// A finished store made ready to ship as one file (seed builds): what runs keep in the store
// (the run journal's undo table) dropped, statistics gathered (in a layout that may keep tables
// of SQLite's and SeedKit's own: not Core Data's), free pages reclaimed, and the journal switched
// from write-ahead logging to a single file.
// Invariant: only called when no run is active and no other connection is open on the store.

extension PersistentStore {
    /// Drops the run journal's table, runs `ANALYZE` and `VACUUM`, and switches the store to a
    /// rollback journal, so that it is one self-contained file.
    ///
    /// ```swift
    /// try store.compactForShipping()
    /// ```
    package func compactForShipping() throws {
        guard !isReadOnly else { throw StoreError(.readOnly, path: location.description) }
        let connection = try makeConnection()
        defer { connection.close() }
        try Self.sqlite(location.description) {
            try RunJournal.removeStorage(layout: layout, on: connection)
            if layout.rules.keepsLibraryTables { try connection.execute("ANALYZE") }
            try connection.execute("VACUUM")
            _ = try connection.setJournalMode(.delete)
        }
    }
}
