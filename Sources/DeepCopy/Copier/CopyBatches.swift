// The copy's transactions on the target context: each batch is one committed transaction inside
// the copy's run (so the run journal can undo it), followed by progress reports; scratch work on
// TEMP tables runs in a read transaction that takes no write lock; pages split a table's keys
// into batches of at most `rowsPerBatch` rows. While the batches run, the connection has the
// store layer's bulk-write settings (ObjectContext+BulkWrites); the last transaction runs at the
// store's own settings, so a finished copy is as durable as any save.
// Invariant: every write to the target goes through `commit` (ObjectContext.writeRows).
import GraphStore

/// Runs a copy's SQL on the target context's connection, batch by batch.
final class CopyBatches {
    /// The counts so far, handed to `progress` after every batch.
    var report = CopyReport()
    private let context: ObjectContext
    private let rowsPerBatch: Int
    private let progress: (@Sendable (CopyReport) -> Void)?
    /// Where the copy stands, for `DeepCopyOptions.batchProgress`.
    let tracker: CopyProgressTracker
    /// The connection's settings before the batches, restored for the last one.
    private var savedSettings: SavedConnectionSettings?

    init(
        context: ObjectContext, rowsPerBatch: Int, progress: (@Sendable (CopyReport) -> Void)?,
        batchProgress: (@Sendable (CopyProgress) -> Void)? = nil
    ) {
        self.context = context
        self.rowsPerBatch = max(1, rowsPerBatch)
        self.progress = progress
        tracker = CopyProgressTracker(callback: batchProgress)
    }

    /// How the target stores values (for defaults bound into the copy's SQL).
    var encoding: ValueEncoding { context.store.layout.values }

    /// Runs `body` in one committed write transaction, then reports progress; first stops the
    /// copy (throwing `CancellationError`) when its task was cancelled.
    func commit(_ body: (SQLiteConnection) throws -> Void) throws {
        try BlockingWork.checkCancellation()
        do {
            try context.writeRows(body)
        } catch {
            tracker.discard()
            throw error
        }
        progress?(report)
        tracker.committed(report)
    }

    /// Runs `body` in one read transaction: for work on TEMP tables that reads both stores;
    /// first stops the copy when its task was cancelled.
    func scratch(_ body: (SQLiteConnection) throws -> Void) throws {
        try BlockingWork.checkCancellation()
        try context.readRows { connection in try connection.transaction(.deferred) { try body(connection) } }
    }

    /// Runs `body` without a transaction (attaching and detaching databases).
    func outsideTransactions(_ body: (SQLiteConnection) throws -> Void) throws {
        try context.readRows(body)
    }

    /// Switches the connection to bulk-write settings (a 64 MB page cache) until ``restoreSettings()``.
    func useBulkSettings() throws {
        savedSettings = try context.useBulkWrites()
    }

    /// Puts back the connection's own settings.
    func restoreSettings() throws {
        guard let saved = savedSettings else { return }
        savedSettings = nil
        try context.restore(saved)
    }

    /// Commits `metadata` and the end of `run` in one last transaction, at the store's own
    /// durability, after `body` (the layout's key bookkeeping).
    func finish(_ run: RunJournal, metadata: [String: String?], _ body: (SQLiteConnection) throws -> Void) throws {
        try restoreSettings()
        try context.writeRows(metadata: metadata, finishing: run, body)
        progress?(report)
        tracker.done(report)
    }

    /// Calls `body` once per page of the values of `column` in `table` (a qualified, quoted name),
    /// each page in its own batch, with the page's bounds: values above the first, up to the second.
    func paged(_ table: String, by column: String, _ body: (SQLiteConnection, Int64, Int64) throws -> Void) throws {
        var lower = Int64.min
        var finished = false
        while !finished {
            try commit { connection in
                let boundary = try connection.cachedStatement(
                    "SELECT \(column) FROM \(table) WHERE \(column) > ? ORDER BY \(column) LIMIT 1 OFFSET ?")
                defer { boundary.reset() }
                boundary.bind(lower, at: 1)
                boundary.bind(Int64(rowsPerBatch - 1), at: 2)
                let upper = try boundary.step() ? boundary.int64(0) : Int64.max
                boundary.reset()
                if tracker.isListening {
                    let rest = "SELECT count(*) FROM \(table) WHERE \(column) > ?1"
                    tracker.advance(by: upper == Int64.max ? try connection.count(rest, above: lower) : rowsPerBatch)
                }
                try body(connection, lower, upper)
                finished = upper == Int64.max
                lower = upper
            }
        }
    }

    /// Adds `count` to one of `entity`'s counters.
    func count(_ count: Int, _ counter: WritableKeyPath<CopyCounts, Int>, of entity: ModelEntity) {
        report.entities[entity.name, default: CopyCounts()][keyPath: counter] += count
    }
}

extension SQLiteConnection {
    /// Runs `sql` with the page bounds bound to `?1` and `?2`; the number of rows it changed.
    @discardableResult
    func run(_ sql: String, lower: Int64 = .min, upper: Int64 = .max) throws -> Int {
        try run(sql, lower: lower, upper: upper) { _ in }
    }

    /// Runs `sql` with the page bounds bound to `?1` and `?2` and what `bind` binds from `?3`
    /// on; the number of rows it changed.
    @discardableResult
    func run(_ sql: String, lower: Int64 = .min, upper: Int64 = .max, binding bind: (SQLiteStatement) -> Void) throws
        -> Int
    {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        statement.bindBounds(lower, upper)
        bind(statement)
        try statement.execute()
        return changes
    }

    /// Runs a query of `(entity number, count)` rows with the page bounds bound to `?1` and `?2`.
    func counts(_ sql: String, lower: Int64 = .min, upper: Int64 = .max) throws -> [(entityID: Int64, count: Int)] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        statement.bindBounds(lower, upper)
        var rows: [(Int64, Int)] = []
        while try statement.step() { rows.append((statement.int64(0), statement.int(1))) }
        return rows
    }

    /// The count the one-row query `sql` gives with `lower` bound to `?1`.
    func count(_ sql: String, above lower: Int64) throws -> Int {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        statement.bind(lower, at: 1)
        return try statement.step() ? statement.int(0) : 0
    }

    /// The integer the one-row, one-column query `sql` gives (0 for none or NULL).
    func integer(_ sql: String) throws -> Int64 {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }
}

extension SQLiteStatement {
    /// Binds a page's bounds to `?1` and `?2` when the statement has them.
    fileprivate func bindBounds(_ lower: Int64, _ upper: Int64) {
        guard parameterCount >= 2 else { return }
        bind(lower, at: 1)
        bind(upper, at: 2)
    }
}
