// SQLiteCheckpointMode: how `sqlite3_wal_checkpoint_v2` copies the write-ahead log into the database.
// Invariant: each case maps to exactly one SQLITE_CHECKPOINT_* constant.
import CSQLite

/// How ``SQLiteConnection/checkpoint(mode:)`` checkpoints a WAL database.
///
/// ```swift
/// let result = try connection.checkpoint(mode: .truncate)   // WAL file emptied
/// ```
package enum SQLiteCheckpointMode: Sendable, Hashable {
    /// Copies as many frames as possible without waiting for any lock.
    ///
    /// ```swift
    /// try connection.checkpoint(mode: .passive)
    /// ```
    case passive
    /// Waits (up to the busy timeout) for writers, then copies every frame.
    ///
    /// ```swift
    /// try connection.checkpoint(mode: .full)
    /// ```
    case full
    /// Like ``full``, then waits for readers so the next writer restarts the log from the start.
    ///
    /// ```swift
    /// try connection.checkpoint(mode: .restart)
    /// ```
    case restart
    /// Like ``restart``, then truncates the WAL file to zero bytes.
    ///
    /// ```swift
    /// try connection.checkpoint(mode: .truncate)
    /// ```
    case truncate

    /// The `SQLITE_CHECKPOINT_*` constant.
    var code: Int32 {
        switch self {
        case .passive: SQLITE_CHECKPOINT_PASSIVE
        case .full: SQLITE_CHECKPOINT_FULL
        case .restart: SQLITE_CHECKPOINT_RESTART
        case .truncate: SQLITE_CHECKPOINT_TRUNCATE
        }
    }
}
