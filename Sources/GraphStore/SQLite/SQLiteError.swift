// SQLiteError: what SQLite reported when a call failed.
// Invariants: `code` is always the primary result code (`extendedCode & 0xFF`); the message is
// captured at the moment of failure (before any later call can overwrite the connection's
// error state); building one is the only place in this layer that allocates on a failure path.
import CSQLite

/// An error reported by SQLite: its primary and extended result codes, its message, and the SQL
/// that failed when there is one.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO Item(sku) VALUES ('A-1')")
/// } catch let error as SQLiteError where error.isUniqueConstraintViolation {
///     print(error)   // SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE 2067): UNIQUE constraint failed: Item.sku — in: …
/// }
/// ```
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The primary result code, such as `SQLITE_CONSTRAINT` (19).
    ///
    /// ```swift
    /// if error.code == SQLITE_BUSY { retryLater() }
    /// ```
    public let code: Int32
    /// The extended result code, such as `SQLITE_CONSTRAINT_UNIQUE` (2067); equal to ``code``
    /// when SQLite gave no more detail.
    ///
    /// ```swift
    /// if error.extendedCode == 1299 /* SQLITE_CONSTRAINT_NOTNULL */ { reportMissingValue() }
    /// ```
    public let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), such as `UNIQUE constraint failed: Item.sku`.
    ///
    /// ```swift
    /// log(error.message)
    /// ```
    public let message: String
    /// The SQL that failed, when the failure belongs to a statement.
    ///
    /// ```swift
    /// if let sql = error.sql { log("while running \(sql)") }
    /// ```
    public let sql: String?

    /// An error with the given codes, message and SQL.
    ///
    /// ```swift
    /// let error = SQLiteError(extendedCode: SQLITE_BUSY, message: "database is locked")
    /// ```
    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = extendedCode & 0xFF
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The error a connection holds right now (`sqlite3_extended_errcode`, `sqlite3_errmsg`).
    init(connection: OpaquePointer?, resultCode: Int32, sql: String? = nil) {
        // The extended code on the connection is more specific than the returned code when it
        // describes the same failure; with a missing connection (out of memory), use the code.
        var extended = resultCode
        var message = String(cString: sqlite3_errstr(resultCode))
        if let connection {
            let current = sqlite3_extended_errcode(connection)
            if current & 0xFF == resultCode & 0xFF { extended = current }
            if let text = sqlite3_errmsg(connection) { message = String(cString: text) }
        }
        self.init(extendedCode: extended, message: message, sql: sql)
    }

    /// `SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE 2067): UNIQUE constraint failed: Item.sku — in: INSERT …`.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public var description: String {
        var text = "SQLite error \(code) (\(Self.name(of: extendedCode)) \(extendedCode)): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    /// The database is locked by another connection (`SQLITE_BUSY`), even after the busy timeout.
    ///
    /// ```swift
    /// if error.isBusy { print("the store is in use by another process") }
    /// ```
    public var isBusy: Bool { code == SQLITE_BUSY }

    /// A table is locked within this connection's shared cache or by a conflicting statement
    /// (`SQLITE_LOCKED`).
    ///
    /// ```swift
    /// if error.isLocked { finishPendingReads() }
    /// ```
    public var isLocked: Bool { code == SQLITE_LOCKED }

    /// Any constraint failed: UNIQUE, PRIMARY KEY, NOT NULL, CHECK, FOREIGN KEY (`SQLITE_CONSTRAINT`).
    ///
    /// ```swift
    /// if error.isConstraintViolation { quarantine(record) }
    /// ```
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// A UNIQUE index or PRIMARY KEY already holds the value (`SQLITE_CONSTRAINT_UNIQUE`,
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`).
    ///
    /// ```swift
    /// if error.isUniqueConstraintViolation { print("duplicate key") }
    /// ```
    public var isUniqueConstraintViolation: Bool {
        extendedCode == Self.constraintUnique || extendedCode == Self.constraintPrimaryKey
    }

    /// The database refuses writes: opened read-only, a read-only file, or a read-only directory
    /// (`SQLITE_READONLY`).
    ///
    /// ```swift
    /// if error.isReadOnly { print("the store is read-only") }
    /// ```
    public var isReadOnly: Bool { code == SQLITE_READONLY }

    /// The disk (or the database's size limit) is full (`SQLITE_FULL`).
    ///
    /// ```swift
    /// if error.isDiskFull { print("no space left for the store") }
    /// ```
    public var isDiskFull: Bool { code == SQLITE_FULL }

    /// The database file is damaged (`SQLITE_CORRUPT`).
    ///
    /// ```swift
    /// if error.isCorrupt { restoreFromSeed() }
    /// ```
    public var isCorrupt: Bool { code == SQLITE_CORRUPT }

    /// The file is not a SQLite database (`SQLITE_NOTADB`).
    ///
    /// ```swift
    /// if error.isNotADatabase { print("not a store file") }
    /// ```
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }

    /// The operation was stopped by an interrupt of its connection (`SQLITE_INTERRUPT`).
    ///
    /// ```swift
    /// if error.isInterrupted { throw CancellationError() }
    /// ```
    public var isInterrupted: Bool { code == SQLITE_INTERRUPT }

    /// `SQLITE_CONSTRAINT_UNIQUE` and `SQLITE_CONSTRAINT_PRIMARYKEY` (macros Swift cannot import).
    private static let constraintUnique: Int32 = 2067
    private static let constraintPrimaryKey: Int32 = 1555

    /// The symbolic name of a (primary or extended) result code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    static func name(of code: Int32) -> String {
        if let name = extendedNames[code] { return name }
        if let name = primaryNames[code & 0xFF] { return name }
        return "SQLITE_UNKNOWN"
    }

    private static let primaryNames: [Int32: String] = [
        SQLITE_OK: "SQLITE_OK", SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL",
        SQLITE_PERM: "SQLITE_PERM", SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY",
        SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM",
        SQLITE_READONLY: "SQLITE_READONLY",
        SQLITE_INTERRUPT: "SQLITE_INTERRUPT", SQLITE_IOERR: "SQLITE_IOERR",
        SQLITE_CORRUPT: "SQLITE_CORRUPT",
        SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL",
        SQLITE_CANTOPEN: "SQLITE_CANTOPEN",
        SQLITE_PROTOCOL: "SQLITE_PROTOCOL", SQLITE_EMPTY: "SQLITE_EMPTY",
        SQLITE_SCHEMA: "SQLITE_SCHEMA",
        SQLITE_TOOBIG: "SQLITE_TOOBIG", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT",
        SQLITE_MISMATCH: "SQLITE_MISMATCH",
        SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
        SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
        SQLITE_NOTICE: "SQLITE_NOTICE", SQLITE_WARNING: "SQLITE_WARNING", SQLITE_ROW: "SQLITE_ROW",
        SQLITE_DONE: "SQLITE_DONE",
    ]

    private static let extendedNames: [Int32: String] = [
        256: "SQLITE_OK_LOAD_PERMANENTLY",
        257: "SQLITE_ERROR_MISSING_COLLSEQ",
        261: "SQLITE_BUSY_RECOVERY",
        262: "SQLITE_LOCKED_SHAREDCACHE",
        264: "SQLITE_READONLY_RECOVERY",
        266: "SQLITE_IOERR_READ",
        267: "SQLITE_CORRUPT_VTAB",
        270: "SQLITE_CANTOPEN_NOTEMPDIR",
        275: "SQLITE_CONSTRAINT_CHECK",
        279: "SQLITE_AUTH_USER",
        283: "SQLITE_NOTICE_RECOVER_WAL",
        284: "SQLITE_WARNING_AUTOINDEX",
        512: "SQLITE_OK_SYMLINK",
        513: "SQLITE_ERROR_RETRY",
        516: "SQLITE_ABORT_ROLLBACK",
        517: "SQLITE_BUSY_SNAPSHOT",
        518: "SQLITE_LOCKED_VTAB",
        520: "SQLITE_READONLY_CANTLOCK",
        522: "SQLITE_IOERR_SHORT_READ",
        523: "SQLITE_CORRUPT_SEQUENCE",
        526: "SQLITE_CANTOPEN_ISDIR",
        531: "SQLITE_CONSTRAINT_COMMITHOOK",
        539: "SQLITE_NOTICE_RECOVER_ROLLBACK",
        769: "SQLITE_ERROR_SNAPSHOT",
        773: "SQLITE_BUSY_TIMEOUT",
        776: "SQLITE_READONLY_ROLLBACK",
        778: "SQLITE_IOERR_WRITE",
        779: "SQLITE_CORRUPT_INDEX",
        782: "SQLITE_CANTOPEN_FULLPATH",
        787: "SQLITE_CONSTRAINT_FOREIGNKEY",
        1032: "SQLITE_READONLY_DBMOVED",
        1034: "SQLITE_IOERR_FSYNC",
        1038: "SQLITE_CANTOPEN_CONVPATH",
        1043: "SQLITE_CONSTRAINT_FUNCTION",
        1288: "SQLITE_READONLY_CANTINIT",
        1290: "SQLITE_IOERR_DIR_FSYNC",
        1294: "SQLITE_CANTOPEN_DIRTYWAL",
        1299: "SQLITE_CONSTRAINT_NOTNULL",
        1544: "SQLITE_READONLY_DIRECTORY",
        1546: "SQLITE_IOERR_TRUNCATE",
        1550: "SQLITE_CANTOPEN_SYMLINK",
        1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1802: "SQLITE_IOERR_FSTAT",
        1811: "SQLITE_CONSTRAINT_TRIGGER",
        2058: "SQLITE_IOERR_UNLOCK",
        2067: "SQLITE_CONSTRAINT_UNIQUE",
        2314: "SQLITE_IOERR_RDLOCK",
        2323: "SQLITE_CONSTRAINT_VTAB",
        2570: "SQLITE_IOERR_DELETE",
        2579: "SQLITE_CONSTRAINT_ROWID",
        2826: "SQLITE_IOERR_BLOCKED",
        2835: "SQLITE_CONSTRAINT_PINNED",
        3082: "SQLITE_IOERR_NOMEM",
        3091: "SQLITE_CONSTRAINT_DATATYPE",
        3338: "SQLITE_IOERR_ACCESS",
        3594: "SQLITE_IOERR_CHECKRESERVEDLOCK",
        3850: "SQLITE_IOERR_LOCK",
        4106: "SQLITE_IOERR_CLOSE",
        4362: "SQLITE_IOERR_DIR_CLOSE",
        4618: "SQLITE_IOERR_SHMOPEN",
        4874: "SQLITE_IOERR_SHMSIZE",
        5130: "SQLITE_IOERR_SHMLOCK",
        5386: "SQLITE_IOERR_SHMMAP",
        5642: "SQLITE_IOERR_SEEK",
        5898: "SQLITE_IOERR_DELETE_NOENT",
        6154: "SQLITE_IOERR_MMAP",
        6410: "SQLITE_IOERR_GETTEMPPATH",
        6666: "SQLITE_IOERR_CONVPATH",
        6922: "SQLITE_IOERR_VNODE",
        7178: "SQLITE_IOERR_AUTH",
        7434: "SQLITE_IOERR_BEGIN_ATOMIC",
        7690: "SQLITE_IOERR_COMMIT_ATOMIC",
        7946: "SQLITE_IOERR_ROLLBACK_ATOMIC",
        8202: "SQLITE_IOERR_DATA",
        8458: "SQLITE_IOERR_CORRUPTFS",
    ]
}
