// SQLiteCheckpointResult: the frame counts reported by `sqlite3_wal_checkpoint_v2`.
// Invariant: both counts are -1 when the database is not in WAL mode, as SQLite reports them.

/// What a WAL checkpoint did.
///
/// ```swift
/// let result = try connection.checkpoint(mode: .passive)
/// print("\(result.checkpointedFrameCount) of \(result.logFrameCount) frames copied")
/// ```
package struct SQLiteCheckpointResult: Sendable, Hashable {
    /// The number of frames in the WAL file (-1 when the database is not in WAL mode).
    ///
    /// ```swift
    /// if result.logFrameCount > 10_000 { try connection.checkpoint(mode: .truncate) }
    /// ```
    package let logFrameCount: Int32
    /// The number of frames copied into the database (-1 when the database is not in WAL mode).
    ///
    /// ```swift
    /// let complete = result.checkpointedFrameCount == result.logFrameCount
    /// ```
    package let checkpointedFrameCount: Int32
}
