// SQLiteTransactionKind: how a transaction takes its locks (BEGIN DEFERRED/IMMEDIATE/EXCLUSIVE).
// Invariant: `beginSQL` is a constant statement text, so it can live in the statement cache.

/// How ``SQLiteConnection/transaction(_:_:)`` begins its transaction.
///
/// ```swift
/// try connection.transaction(.immediate) { try insertBatch() }
/// ```
package enum SQLiteTransactionKind: Sendable, Hashable {
    /// Takes locks on first use: a read lock at the first read, the write lock at the first
    /// write (which can then fail with ``SQLiteError/isBusy``).
    ///
    /// ```swift
    /// let count = try connection.transaction(.deferred) { try countItems() }
    /// ```
    case deferred
    /// Takes the write lock at once (waiting up to the busy timeout); use for every writing
    /// transaction, so a busy store is detected before any work is done.
    ///
    /// ```swift
    /// try connection.transaction(.immediate) { try saveBatch() }
    /// ```
    case immediate
    /// Takes the write lock at once and, outside WAL mode, keeps readers out until the end.
    ///
    /// ```swift
    /// try connection.transaction(.exclusive) { try createSchema() }
    /// ```
    case exclusive

    /// The statement that begins a transaction of this kind.
    var beginSQL: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        case .exclusive: "BEGIN EXCLUSIVE"
        }
    }
}
