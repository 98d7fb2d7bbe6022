// Set-based writes: bulk loaders and copiers that write rows with SQL on the context's own
// connection, so their batches share its transactions, metadata writes and run journal (the
// undo triggers of an active run log every change they make).
// Invariants: the context holds no unsaved changes when such a batch starts, and forgets its
// objects when it ends (their rows may have changed under them); the batch, its metadata and
// (when finishing a run) the end of the run commit together or not at all.

extension ObjectContext {
    /// Runs `body` with this context's SQLite connection inside one write transaction (a
    /// savepoint inside a dry run's transaction), writes `metadata` in the same transaction, and
    /// — with `run` — ends the run with it.
    ///
    /// ```swift
    /// try context.writeRows(metadata: ["import.checkpoint": checkpoint]) { connection in
    ///     let insert = try connection.cachedStatement("INSERT INTO Unit(pk, ent, opt, name) VALUES (?, ?, 1, ?)")
    ///     …
    /// }
    /// ```
    ///
    /// - Throws: ``ObjectError`` when the context has unsaved changes, ``StoreError`` for a
    ///   read-only store or a SQLite failure (nothing of the batch is written), or what `body` throws;
    ///   ``ObjectError`` (`.childContext`) in a child context.
    @discardableResult
    package func writeRows<T>(
        metadata: [String: String?] = [:], finishing run: RunJournal? = nil, _ body: (SQLiteConnection) throws -> T
    ) throws -> T {
        try requireStoreContext("write rows")
        guard !hasChanges else { throw ObjectError(.unsavedChanges, entity: model.name) }
        guard !store.isReadOnly else { throw StoreError(.readOnly, path: store.location.description) }
        defer { reset() }
        let result = try PersistentStore.sqlite(store.location.description) { () throws -> T in
            let write = { [self] () throws -> T in
                let result = try body(connection)
                if !metadata.isEmpty { try layout.writeMetadata(metadata, on: connection) }
                try run?.forget(layout: layout, on: connection)
                return result
            }
            return connection.isInTransaction
                ? try connection.savepoint(layout.reservedName("rows"), write)
                : try connection.transaction(.immediate, write)
        }
        if let run {
            try PersistentStore.sqlite(store.location.description) {
                try run.dropTriggers(layout: layout, on: connection)
            }
        }
        return result
    }

    /// Reads with this context's connection (sees the context's committed and set-based writes,
    /// not its unsaved objects).
    package func readRows<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try PersistentStore.sqlite(store.location.description) { try body(connection) }
    }
}
