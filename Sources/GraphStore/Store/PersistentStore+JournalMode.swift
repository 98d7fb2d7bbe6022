// Switching a store file to write-ahead logging after work that wrote it through a rollback
// journal (a copy into a new store: new pages need no journal, where a log holds each twice).
// Invariant: called when no other connection has the store open (SQLite needs the file to itself
// for the switch); where the file system cannot share a log's index, the store keeps its journal,
// as when a store is opened.

extension PersistentStore {
    /// Switches the store's file to write-ahead logging (a store in memory keeps its journal).
    ///
    /// ```swift
    /// try store.useWriteAheadLog()
    /// ```
    ///
    /// - Throws: ``StoreError`` when the store is read-only or the switch fails.
    package func useWriteAheadLog() throws {
        guard case .file(let path) = location else { return }
        guard !isReadOnly else { throw StoreError(.readOnly, path: path) }
        let connection = try makeConnection()
        defer { connection.close() }
        _ = try Self.sqlite(path) { try connection.setJournalMode(.wal) }
    }
}
