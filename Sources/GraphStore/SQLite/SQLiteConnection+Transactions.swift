// Transactions and savepoints on a SQLiteConnection.
// Invariants: `transaction` and `savepoint` either commit (release) everything `body` did or leave
// nothing of it: a throw from `body`, or a failed COMMIT/RELEASE, rolls back before the error is
// rethrown. A rollback is only attempted while SQLite still holds the transaction (SQLite ends it
// by itself after some errors, such as a full disk). BEGIN/COMMIT/ROLLBACK run from cached statements.
import CSQLite

extension SQLiteConnection {
    /// Whether a transaction is open (the connection is not in autocommit mode).
    ///
    /// ```swift
    /// precondition(!connection.isInTransaction, "a batch is still open")
    /// ```
    package var isInTransaction: Bool {
        sqlite3_get_autocommit(liveDatabase) == 0
    }

    /// Runs `body` in a transaction of the given kind: committed when `body` returns, rolled back
    /// when it (or the commit) throws. Transactions do not nest; use ``savepoint(_:_:)`` inside.
    ///
    /// ```swift
    /// let inserted = try connection.transaction(.immediate) { () throws -> Int in
    ///     let insert = try connection.cachedStatement("INSERT INTO Tag(name) VALUES (?)")
    ///     for name in names {
    ///         insert.bind(text: name, at: 1)
    ///         try insert.execute()
    ///     }
    ///     return names.count
    /// }
    /// ```
    package func transaction<T>(_ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> T)
        throws -> T
    {
        try cachedStatement(kind.beginSQL).execute()
        let result: T
        do {
            result = try body()
            try cachedStatement("COMMIT").execute()
        } catch {
            rollbackIfActive()
            throw error
        }
        return result
    }

    /// Runs `body` inside `SAVEPOINT name`: released when `body` returns, rolled back to the
    /// savepoint (undoing only `body`'s work) when it throws. Savepoints nest, inside or outside a
    /// transaction; outside one, the outermost savepoint acts as a deferred transaction.
    ///
    /// ```swift
    /// try connection.transaction(.immediate) {
    ///     for record in batch {
    ///         do {
    ///             try connection.savepoint("record") { try insert(record) }
    ///         } catch let error as SQLiteError where error.isConstraintViolation {
    ///             rejects.append(record)   // the rest of the batch is kept
    ///         }
    ///     }
    /// }
    /// ```
    package func savepoint<T>(_ name: String = "seedkit", _ body: () throws -> T) throws -> T {
        let quoted = SQLiteIdentifier.quote(name)
        try cachedStatement("SAVEPOINT " + quoted).execute()
        let result: T
        do {
            result = try body()
            try cachedStatement("RELEASE " + quoted).execute()
        } catch {
            if isInTransaction {
                try? cachedStatement("ROLLBACK TO " + quoted).execute()
                try? cachedStatement("RELEASE " + quoted).execute()
            }
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already ended it; a failure here is
    /// secondary to the error being reported, so it is not thrown.
    private func rollbackIfActive() {
        guard isInTransaction else { return }
        try? cachedStatement("ROLLBACK").execute()
    }
}
