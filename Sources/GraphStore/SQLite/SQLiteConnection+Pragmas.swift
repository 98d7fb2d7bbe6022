// Pragmas and WAL maintenance on a SQLiteConnection: journal mode, user version, checkpoints.
// Invariants: pragma values interpolated into SQL are validated first (journal modes are letters
// only; user versions are integers), so no caller text reaches SQL unchecked; the reported
// journal mode is the one SQLite actually put in force, which may differ from the one asked for.
import CSQLite

extension SQLiteConnection {
    /// The journal mode in force for the main database (`PRAGMA journal_mode`).
    ///
    /// ```swift
    /// if try connection.journalMode == .wal { try connection.checkpoint(mode: .truncate) }
    /// ```
    package var journalMode: SQLiteJournalMode {
        get throws { try SQLiteJournalMode(rawValue: pragmaText("PRAGMA journal_mode")) }
    }

    /// Sets the journal mode of the main database and returns the mode now in force (an
    /// in-memory database stays in ``SQLiteJournalMode/memory``; WAL needs a file).
    ///
    /// ```swift
    /// let mode = try connection.setJournalMode(.wal)
    /// ```
    @discardableResult
    package func setJournalMode(_ mode: SQLiteJournalMode) throws -> SQLiteJournalMode {
        let sql = "PRAGMA journal_mode = " + mode.rawValue
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        guard !mode.rawValue.isEmpty, mode.rawValue.utf8.allSatisfy(letters.contains) else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE, message: "invalid journal mode '\(mode)'", sql: sql)
        }
        return try SQLiteJournalMode(rawValue: pragmaText(sql))
    }

    /// The database's `PRAGMA user_version`, a 32-bit number free for the application's use.
    ///
    /// ```swift
    /// if try connection.userVersion < 2 { try migrate() }
    /// ```
    package var userVersion: Int32 {
        get throws {
            let statement = try prepare("PRAGMA user_version")
            return try statement.step() ? Int32(truncatingIfNeeded: statement.int64(0)) : 0
        }
    }

    /// Sets `PRAGMA user_version`.
    ///
    /// ```swift
    /// try connection.setUserVersion(2)
    /// ```
    package func setUserVersion(_ version: Int32) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// Copies the write-ahead log into the main database (`sqlite3_wal_checkpoint_v2`).
    ///
    /// Throws ``SQLiteError/isBusy`` when a ``SQLiteCheckpointMode/full``, `restart` or `truncate`
    /// checkpoint could not finish within the busy timeout (it then did what a passive one does).
    /// On a database that is not in WAL mode it does nothing and reports -1 frames.
    ///
    /// ```swift
    /// let result = try connection.checkpoint(mode: .truncate)
    /// assert(result.checkpointedFrameCount == result.logFrameCount)
    /// ```
    @discardableResult
    package func checkpoint(mode: SQLiteCheckpointMode = .passive) throws -> SQLiteCheckpointResult {
        let database = try openDatabase(for: nil)
        var logFrames: Int32 = -1
        var checkpointedFrames: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(database, nil, mode.code, &logFrames, &checkpointedFrames)
        guard code == SQLITE_OK else { throw SQLiteError(connection: database, resultCode: code) }
        return SQLiteCheckpointResult(
            logFrameCount: logFrames, checkpointedFrameCount: checkpointedFrames)
    }

    /// The most helper threads one statement may use to sort (`PRAGMA threads`): with two or
    /// more, `CREATE INDEX` over a large table sorts on several cores. SQLite caps it at its
    /// compile-time limit; setting it returns the limit now in force.
    ///
    /// ```swift
    /// connection.setWorkerThreads(2)
    /// try connection.execute("CREATE INDEX idx_Item_unit ON Item(unit)")
    /// ```
    @discardableResult
    package func setWorkerThreads(_ count: Int32) -> Int32 {
        guard let database = try? openDatabase(for: nil) else { return 0 }
        sqlite3_limit(database, SQLITE_LIMIT_WORKER_THREADS, max(count, 0))
        return sqlite3_limit(database, SQLITE_LIMIT_WORKER_THREADS, -1)
    }

    /// The text of the first column of the first row of a pragma statement ("" when no row).
    private func pragmaText(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        return try statement.step() ? statement.string(0) : ""
    }
}
