// Bulk writes: connection settings for a long run of batch commits (imports, copies, first-launch
// merges) on a context's connection. Commits do not wait for the disk (`synchronous = NORMAL`:
// in WAL mode a kill loses nothing committed and a power cut at most the last batches, which
// the run journal undoes or resumes like any unfinished run), the page cache is larger and the
// write-ahead log is checkpointed less often.
// Invariant: `restore` puts back exactly the values the connection had, so the run's last
// transaction (its completion marker) commits at the store's own durability.

/// Connection settings for a run of batch commits.
///
/// ```swift
/// let saved = try context.useBulkWrites(BulkWriteSettings(pageCacheKiB: 16 * 1024))
/// defer { try? context.restore(saved) }
/// ```
public struct BulkWriteSettings: Sendable {
    /// The page cache, in KiB (SQLite's default is 2,000).
    public var pageCacheKiB: Int
    /// Pages the write-ahead log may hold before a checkpoint (SQLite's default is 1,000).
    public var checkpointPages: Int

    /// Settings with a `pageCacheKiB` page cache and checkpoints every `checkpointPages` pages.
    public init(pageCacheKiB: Int = 64 * 1024, checkpointPages: Int = 10_000) {
        self.pageCacheKiB = pageCacheKiB
        self.checkpointPages = checkpointPages
    }
}

/// A connection's settings before ``ObjectContext/useBulkWrites(_:)``, to restore.
public struct SavedConnectionSettings: Sendable {
    fileprivate let values: [(pragma: String, value: Int64)]
}

extension ObjectContext {
    /// Switches this context's connection to `settings` until ``restore(_:)``.
    public func useBulkWrites(_ settings: BulkWriteSettings = BulkWriteSettings()) throws -> SavedConnectionSettings {
        let wanted: [(String, Int64)] = [
            ("main.synchronous", 1), ("main.cache_size", -Int64(max(settings.pageCacheKiB, 1))),
            ("wal_autocheckpoint", Int64(max(settings.checkpointPages, 1))),
        ]
        return try readRows { connection in
            var saved: [(String, Int64)] = []
            for (pragma, value) in wanted {
                saved.append((pragma, try connection.pragmaInteger(pragma)))
                try connection.execute("PRAGMA \(pragma) = \(value)")
            }
            return SavedConnectionSettings(values: saved)
        }
    }

    /// Puts back the settings `useBulkWrites` found.
    public func restore(_ saved: SavedConnectionSettings) throws {
        try readRows { connection in
            for (pragma, value) in saved.values { try connection.execute("PRAGMA \(pragma) = \(value)") }
        }
    }
}

extension SQLiteConnection {
    /// The integer value of `PRAGMA name`.
    fileprivate func pragmaInteger(_ name: String) throws -> Int64 {
        let statement = try prepare("PRAGMA \(name)")
        return try statement.step() ? statement.int64(0) : 0
    }
}
