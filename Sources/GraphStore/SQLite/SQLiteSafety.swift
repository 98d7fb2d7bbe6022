// What every SQLiteConnection is set up with, so that a database file from elsewhere is data and
// never code (docs/Security.md): its schema cannot call a function SQLite does not deem harmless
// (trusted schema off; SeedKit's own functions are direct-only besides), ordinary SQL cannot
// corrupt a file (defensive mode), no extension loads, no view of a database's schema runs, pages
// are checked as they are read (`cell_size_check`), nothing is memory-mapped, and SQLite's limits
// are lowered where SeedKit needs less than the defaults. A read-only connection also never
// checkpoints on close.
// Invariant: a connection whose settings could not all be put in force is closed, not handed out.
import CSQLite

/// The safety settings of every ``SQLiteConnection``.
enum SQLiteSafety {
    /// An on/off option of `sqlite3_db_config` and the value every connection gets.
    struct Option {
        let code: Int32
        let name: String
        let on: Bool
    }

    /// A `sqlite3_limit` and the value every connection gets.
    struct Limit {
        let code: Int32
        let name: String
        let value: Int32
    }

    /// The options of every connection.
    static let options = [
        // Functions and virtual tables not marked innocuous cannot be used by views, triggers,
        // CHECK constraints, DEFAULTs, indexes or generated columns of any attached schema.
        Option(code: SQLITE_DBCONFIG_TRUSTED_SCHEMA, name: "trusted_schema", on: false),
        // No writable_schema, no journal_mode=OFF, no writes to sqlite_dbpage or shadow tables.
        Option(code: SQLITE_DBCONFIG_DEFENSIVE, name: "defensive", on: true),
        Option(code: SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, name: "load_extension", on: false),
        // Views of a database's schema do not run (neither layout has one; TEMP views still do).
        Option(code: SQLITE_DBCONFIG_ENABLE_VIEW, name: "views", on: false),
    ]

    /// The option of read-only connections: closing one never checkpoints a write-ahead log
    /// into the database (it could not anyway: the file is open for reading only).
    static let readOnlyOption = Option(code: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, name: "no_ckpt_on_close", on: true)

    /// The limits lowered below SQLite's defaults. The others stay at SQLite's: a value (LENGTH,
    /// 1,000,000,000 bytes) because binary attributes are kept inline however large, the text
    /// of one statement (SQL_LENGTH) because the run journal replays row images as SQL, columns
    /// (2000) because all of an entity tree's properties share one table, expression depth
    /// (1000) and compound SELECTs (500) because fetch predicates of users may be long; a
    /// store's schema cannot make any of them allocate more than its own bytes
    /// (docs/Security.md).
    static let limits = [
        // SeedKit attaches at most two databases (a diff's stores); one more is spare.
        Limit(code: SQLITE_LIMIT_ATTACHED, name: "attached databases", value: 3),
        // Triggers never fire themselves (recursive_triggers is off); Core Data's nest two deep.
        Limit(code: SQLITE_LIMIT_TRIGGER_DEPTH, name: "trigger depth", value: 10),
        // SeedKit's SQL uses LIKE only for its own short names (fetches use seedkit_like).
        Limit(code: SQLITE_LIMIT_LIKE_PATTERN_LENGTH, name: "LIKE pattern length", value: 1000),
    ]

    /// Pragmas run on every connection: b-tree pages are checked as they are read, so damage
    /// is found where it is met; no memory-mapped I/O.
    static let pragmas = "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0"

    /// Puts the settings in force on `database`; returns what could not be set, or nil.
    static func apply(to database: OpaquePointer, readOnly: Bool) -> String? {
        for option in options + (readOnly ? [readOnlyOption] : []) {
            let now = csqlite_db_config_flag(database, option.code, option.on ? 1 : 0)
            guard now == (option.on ? 1 : 0) else { return "cannot set \(option.name) \(option.on ? "on" : "off")" }
        }
        for limit in limits {
            sqlite3_limit(database, limit.code, limit.value)
            guard sqlite3_limit(database, limit.code, -1) <= limit.value else {
                return "cannot lower the limit of \(limit.name) to \(limit.value)"
            }
        }
        guard sqlite3_exec(database, pragmas, nil, nil, nil) == SQLITE_OK else {
            return String(cString: sqlite3_errmsg(database))
        }
        return nil
    }
}
