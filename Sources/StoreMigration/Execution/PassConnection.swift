// The connection a pass writes its new file through, with the source file attached read-only as
// `src`. The new file is the pass's alone until it is installed (a kill leaves a leftover that
// the next migration removes), so it is written with its rollback journal in memory, without
// waiting for the disk, and synced once at the end; each batch is one transaction, and before
// each the pass stops if its task was cancelled.
// Invariants: the source is attached `mode=ro`; every statement with page bounds binds them as
// `?1` and `?2`; the connection is closed before the file is synced.
import GraphStore

/// The new file's connection during one pass.
final class PassConnection {
    let connection: SQLiteConnection
    /// Called after each committed batch of rows (stop points of kill tests).
    private let batchCommitted: (Int) -> Void
    private var batches = 0

    /// Opens the new file at `path` for bulk writing and attaches `source` (a file path) as `src`.
    init(path: String, source: String, batchCommitted: @escaping (Int) -> Void) throws {
        connection = try SQLiteConnection(path: path, mode: .readWrite)
        self.batchCommitted = batchCommitted
        // Defensive mode (every connection) refuses journal_mode OFF; a journal in memory still
        // rolls back a failed batch, and no journal file is made and deleted at every batch.
        guard try connection.setJournalMode(.memory) == .memory else {
            throw MigrationError(.store("cannot keep the journal of \(path) in memory"), store: "")
        }
        try connection.execute("PRAGMA synchronous = OFF")
        // A small page cache and no sorter threads, on purpose: rows are appended in key order
        // and need little cache, and SQLite sorts an index's entries in runs as large as the
        // cache. Runs of 1 MB are sorted within the processor's caches and merged; runs of 64 MB
        // (and a thread started for each run) made the index builds after the rows cost about
        // twice the CPU time (docs/Performance.md, "Migration").
        try connection.execute("PRAGMA cache_size = -1024")
        let attach = try connection.prepare("ATTACH DATABASE ? AS src")
        attach.bind(text: StoreReadAccess.uri(forFile: source), at: 1)
        try attach.execute()
    }

    /// Detaches the source and closes the file; its journal mode on disk is the rollback journal.
    func close() {
        try? connection.execute("DETACH DATABASE src")
        connection.close()
    }

    /// Runs `body` in one committed transaction, after checking for cancellation.
    func batch(_ body: (SQLiteConnection) throws -> Void) throws {
        try BlockingWork.checkCancellation()
        try connection.transaction(.immediate) { try body(connection) }
        batches += 1
        batchCommitted(batches)
    }

    /// Calls `body` once per page of the keys of the rows `rows` selects (a `FROM … WHERE …`
    /// clause over alias `s`, keyed by `key`), each page in its own batch, with its bounds and the
    /// number of rows in it.
    func paged(
        rows: String, key: String, size: Int, _ body: (SQLiteConnection, Int64, Int64, Int) throws -> Void
    ) throws {
        var lower = Int64.min
        var finished = false
        while !finished {
            try batch { connection in
                let boundary = try connection.cachedStatement(
                    "SELECT \(key) \(rows) AND \(key) > ? ORDER BY \(key) LIMIT 1 OFFSET ?")
                defer { boundary.reset() }
                boundary.bind(lower, at: 1)
                boundary.bind(Int64(max(size, 1) - 1), at: 2)
                let upper = try boundary.step() ? boundary.int64(0) : Int64.max
                boundary.reset()
                let count =
                    upper == Int64.max
                    ? Int(try integer("SELECT count(*) \(rows) AND \(key) > ?1 AND \(key) <= ?2", lower, upper)) : size
                try body(connection, lower, upper, count)
                finished = upper == Int64.max
                lower = upper
            }
        }
    }

    /// The integer the one-row query `sql` gives (`?1`, `?2` bound to `lower`, `upper` when it has them).
    func integer(_ sql: String, _ lower: Int64 = .min, _ upper: Int64 = .max) throws -> Int64 {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        if statement.parameterCount >= 2 {
            statement.bind(lower, at: 1)
            statement.bind(upper, at: 2)
        }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// A check's result: how many rows offend and the first one's key (nil when none).
    func check(_ sql: String) throws -> (count: Int, first: Int64?) {
        let statement = try connection.prepare(sql)
        guard try statement.step() else { return (0, nil) }
        let count = statement.int(0)
        return (count, count > 0 && !statement.isNull(1) ? statement.int64(1) : nil)
    }

    /// Runs `sql` with the page bounds and `parameters` (from `?3`, stored as `encoding` stores
    /// them); the number of rows it changed.
    @discardableResult
    func run(
        _ sql: String, lower: Int64 = .min, upper: Int64 = .max, parameters: [AttributeValue] = [],
        encoding: ValueEncoding? = nil
    ) throws -> Int {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        if statement.parameterCount >= 2 {
            statement.bind(lower, at: 1)
            statement.bind(upper, at: 2)
        }
        if let encoding {
            for (offset, value) in parameters.enumerated() {
                statement.bind(value, at: Int32(offset + 3), encoding: encoding)
            }
        }
        try statement.execute()
        return connection.changes
    }
}
