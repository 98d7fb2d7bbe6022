// SQLiteConnection: one connection to a SQLite database, owned by one thread at a time. This file
// holds opening and closing, running and preparing SQL, the per-connection statement cache and the
// connection's counters; transactions, pragmas and SQL functions are in the extensions beside it.
// Invariants:
// - Opened with SQLITE_OPEN_NOMUTEX (SQLite does no locking for us: the Swift type, which is not
//   Sendable, keeps each connection on one thread at a time), URI filenames and extended result
//   codes always on, a busy timeout set, and SQLiteSafety's settings in force (a database file
//   is untrusted input: its schema runs nothing harmful).
// - A cached statement is reset before it is handed out again; the cache is bounded.
// - After `close()` (or deinit) the handle is gone: throwing members throw SQLITE_MISUSE, the
//   others stop with a precondition failure. `sqlite3_close_v2` lets statements still held
//   elsewhere finalize later without touching freed memory.
import CSQLite

/// A connection to one SQLite database file or in-memory database.
///
/// A connection is **not** `Sendable`: it is opened without SQLite's own mutexes
/// (`SQLITE_OPEN_NOMUTEX`), so it must be used by one thread at a time — in SeedKit, by the one
/// context that owns it. Open one connection per context or thread; connections to the same file
/// (or to the same named in-memory database) see each other's committed data.
///
/// ```swift
/// let connection = try SQLiteConnection(path: "Catalog.sqlite", mode: .readWriteCreate)
/// try connection.execute("CREATE TABLE IF NOT EXISTS Unit(pk INTEGER PRIMARY KEY, name TEXT)")
/// try connection.transaction(.immediate) {
///     let insert = try connection.cachedStatement("INSERT INTO Unit(name) VALUES (?)")
///     for name in ["kg", "l", "piece"] {
///         insert.bind(text: name, at: 1)
///         try insert.execute()
///     }
/// }
/// ```
package final class SQLiteConnection {
    /// The `sqlite3` handle; nil once closed.
    private var database: OpaquePointer?
    /// Prepared statements by SQL text (see `cachedStatement(_:)`).
    private var statementCache: [String: SQLiteStatement] = [:]
    /// The largest number of cached statements; the cache starts over when it would grow past it.
    private static let statementCacheLimit = 512

    /// The path or URI the connection was opened with.
    ///
    /// ```swift
    /// print(connection.path)   // Catalog.sqlite
    /// ```
    package let path: String

    /// Whether the main database refuses writes (opened ``SQLiteOpenMode/readOnly``, or a file
    /// SQLite could only open for reading).
    ///
    /// ```swift
    /// guard !connection.isReadOnly else { throw StoreError(.readOnly, path: connection.path) }
    /// ```
    package let isReadOnly: Bool

    /// Opens the database at `path` (a file path, or a `file:` URI) in `mode`.
    ///
    /// Throws a ``SQLiteError`` (`SQLITE_CANTOPEN` and the like) when the file cannot be opened.
    /// A file that is not a database opens, and fails with ``SQLiteError/isNotADatabase`` at its
    /// first use. Every connection is opened with the safety settings of docs/Security.md
    /// (trusted schema off, defensive mode, no extensions, no views, checked pages, lowered
    /// limits); one that cannot have them all fails to open.
    ///
    /// ```swift
    /// let seed = try SQLiteConnection(path: "Seed.sqlite", mode: .readOnly)
    /// ```
    package init(path: String, mode: SQLiteOpenMode = .readWriteCreate) throws {
        let flags = mode.flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
        var database: OpaquePointer?
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let error = SQLiteError(connection: database, resultCode: code)
            sqlite3_close_v2(database)
            throw SQLiteError(extendedCode: error.extendedCode, message: "\(error.message): \(path)")
        }
        sqlite3_extended_result_codes(database, 1)
        let readOnly = sqlite3_db_readonly(database, "main") == 1
        if let failure = SQLiteSafety.apply(to: database, readOnly: readOnly) {
            sqlite3_close_v2(database)
            throw SQLiteError(extendedCode: SQLITE_ERROR, message: "\(failure): \(path)")
        }
        self.database = database
        self.path = path
        self.isReadOnly = readOnly
        self.busyTimeout = 5
        sqlite3_busy_timeout(database, 5000)  // observers do not run during init
    }

    /// A connection to the in-process in-memory database called `name`, shared by every
    /// connection opened with the same name (through SQLite's `memdb` VFS); the database lives
    /// while at least one of them is open. With `name` nil, a private `:memory:` database that
    /// only this connection sees.
    ///
    /// ```swift
    /// let writer = try SQLiteConnection.inMemory(name: "catalog-tests")
    /// let reader = try SQLiteConnection.inMemory(name: "catalog-tests")   // same database
    /// ```
    package static func inMemory(name: String? = nil) throws -> SQLiteConnection {
        guard let name else { return try SQLiteConnection(path: ":memory:", mode: .readWriteCreate) }
        return try SQLiteConnection(
            path: "file:/\(percentEncoded(name))?vfs=memdb", mode: .readWriteCreate)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(database)
    }

    /// Closes the connection now; calling it again does nothing. The connection also closes when
    /// released. Statements still held elsewhere stay valid in memory but must not be run.
    ///
    /// ```swift
    /// let connection = try SQLiteConnection(path: path, mode: .readOnly)
    /// defer { connection.close() }
    /// ```
    package func close() {
        guard let database else { return }
        statementCache.removeAll()
        sqlite3_close_v2(database)
        self.database = nil
    }

    // MARK: - Running and preparing SQL

    /// Runs one or more `;`-separated statements, discarding any rows they return.
    ///
    /// ```swift
    /// try connection.execute("""
    ///     CREATE TABLE Tag(pk INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    ///     CREATE INDEX Tag_name ON Tag(name);
    ///     """)
    /// ```
    package func execute(_ sql: String) throws {
        let database = try openDatabase(for: sql)
        let code = sqlite3_exec(database, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: database, resultCode: code, sql: sql)
        }
    }

    /// Compiles one statement. Throws when the SQL is invalid, empty, or holds more than one
    /// statement (use ``execute(_:)`` for scripts).
    ///
    /// ```swift
    /// let select = try connection.prepare("SELECT pk, name FROM Tag WHERE name LIKE ?")
    /// select.bind(text: "bio%", at: 1)
    /// while try select.step() { print(select.int64(0), select.string(1)) }
    /// ```
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        try compile(sql, flags: 0)
    }

    /// A compiled statement kept in this connection's cache, keyed by its SQL text: prepared on
    /// first use, then handed out again, reset (bindings are kept until rebound).
    ///
    /// Prefer it for statements run again and again (imports, fetches); in the tightest loops,
    /// keep the returned statement rather than looking it up per row. Do not use one SQL text
    /// for two iterations at once: the second lookup resets the first's iteration.
    ///
    /// ```swift
    /// for item in batch {
    ///     let insert = try connection.cachedStatement("INSERT INTO Item(sku, name) VALUES (?, ?)")
    ///     insert.bind(text: item.sku, at: 1)
    ///     insert.bind(text: item.name, at: 2)
    ///     try insert.execute()
    /// }
    /// ```
    package func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try compile(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        statementCache[sql] = statement
        return statement
    }

    // MARK: - Counters and settings

    /// The rowid of the most recent successful INSERT on this connection (0 when none).
    ///
    /// ```swift
    /// try insert.execute()
    /// let pk = connection.lastInsertRowID
    /// ```
    package var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(liveDatabase)
    }

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    ///
    /// ```swift
    /// try update.execute()
    /// if connection.changes == 0 { throw ConflictError() }
    /// ```
    package var changes: Int {
        Int(sqlite3_changes64(liveDatabase))
    }

    /// The number of rows changed by INSERT, UPDATE and DELETE since the connection opened.
    ///
    /// ```swift
    /// let before = connection.totalChanges
    /// try importBatch()
    /// print("changed \(connection.totalChanges - before) rows")
    /// ```
    package var totalChanges: Int {
        Int(sqlite3_total_changes64(liveDatabase))
    }

    /// How long, in seconds, a statement waits for a lock held by another connection before it
    /// fails with ``SQLiteError/isBusy`` (5 s by default; 0 fails at once).
    ///
    /// ```swift
    /// connection.busyTimeout = 0.25
    /// ```
    package var busyTimeout: Double {
        didSet {
            let milliseconds = (max(0, busyTimeout) * 1000).rounded()
            sqlite3_busy_timeout(
                liveDatabase, milliseconds < Double(Int32.max) ? Int32(milliseconds) : Int32.max)
        }
    }

    /// Makes the running statement (and any started later, until it returns) fail with
    /// ``SQLiteError/isInterrupted``; for use from a SQL function or other callback running on
    /// this connection. Does nothing when no statement runs.
    ///
    /// ```swift
    /// try connection.registerFunction(name: "stop_here", argumentCount: 0) { [unowned connection] _ in
    ///     connection.interrupt()
    ///     return .null
    /// }
    /// ```
    package func interrupt() {
        sqlite3_interrupt(liveDatabase)
    }

    // MARK: - Internal

    /// The open handle, for members that cannot throw.
    var liveDatabase: OpaquePointer {
        guard let database else { preconditionFailure("SQLiteConnection used after close(): \(path)") }
        return database
    }

    /// The open handle, or a SQLITE_MISUSE error naming `sql`.
    func openDatabase(for sql: String?) throws -> OpaquePointer {
        guard let database else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE, message: "the connection is closed: \(path)", sql: sql)
        }
        return database
    }

    /// Compiles exactly one statement from `sql`.
    private func compile(_ sql: String, flags: UInt32) throws -> SQLiteStatement {
        let database = try openDatabase(for: sql)
        var text = sql
        var extraStatement = false
        var statement: OpaquePointer?
        let code = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return SQLITE_OK }
            let start = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(
                database, start, Int32(clamping: bytes.count), flags, &statement, &tail)
            if code == SQLITE_OK, let tail {
                extraStatement = Self.holdsStatement(database, from: tail, to: start + bytes.count)
            }
            return code
        }
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: database, resultCode: code, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE, message: "no SQL statement to prepare", sql: sql)
        }
        guard !extraStatement else {
            sqlite3_finalize(statement)
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE,
                message: "prepare takes one statement; use execute(_:) for several", sql: sql)
        }
        return SQLiteStatement(handle: statement, connection: database, sql: sql)
    }

    /// Whether the text between `start` and `end` holds a statement (not just spaces, `;` or
    /// comments); text that does not compile counts as one, so nothing after the first
    /// statement is silently dropped.
    private static func holdsStatement(
        _ database: OpaquePointer, from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>
    ) -> Bool {
        var cursor = start
        while cursor < end,
            cursor.pointee == 0x20 || cursor.pointee == 0x3B || (0x09...0x0D).contains(cursor.pointee)
        {
            cursor += 1
        }
        guard cursor < end else { return false }
        var extra: OpaquePointer?
        let code = sqlite3_prepare_v3(database, cursor, Int32(clamping: end - cursor), 0, &extra, nil)
        sqlite3_finalize(extra)
        return code != SQLITE_OK || extra != nil
    }

    /// `name` with every byte outside the URI unreserved set percent-encoded.
    static func percentEncoded(_ name: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
