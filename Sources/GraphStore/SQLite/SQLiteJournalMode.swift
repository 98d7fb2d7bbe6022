// SQLiteJournalMode: a value of `PRAGMA journal_mode` (delete, truncate, persist, memory, wal, off).
// Invariant: the raw value is lower case, as SQLite reports it, so values compare equal however
// they were spelled (`"WAL" == .wal`).

/// A journal mode, as set and reported by `PRAGMA journal_mode`.
///
/// ```swift
/// let mode = try connection.setJournalMode(.wal)
/// if mode != .wal { print("WAL unavailable here; running in \(mode)") }
/// ```
package struct SQLiteJournalMode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The mode's name in lower case, such as `wal`.
    ///
    /// ```swift
    /// print(SQLiteJournalMode.wal.rawValue)   // wal
    /// ```
    package let rawValue: String

    /// The mode called `rawValue` (any case).
    ///
    /// ```swift
    /// let mode = SQLiteJournalMode(rawValue: "WAL")   // == .wal
    /// ```
    package init(rawValue: String) {
        self.rawValue = rawValue.lowercased()
    }

    /// The mode called `value` (any case).
    ///
    /// ```swift
    /// let mode: SQLiteJournalMode = "DELETE"   // == .delete
    /// ```
    package init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The mode's name, such as `wal`.
    ///
    /// ```swift
    /// print("journal: \(try connection.journalMode)")
    /// ```
    package var description: String { rawValue }

    /// The rollback journal is deleted at the end of each transaction (SQLite's default); a
    /// finalized seed is a single file in this mode.
    ///
    /// ```swift
    /// try connection.setJournalMode(.delete)
    /// ```
    package static let delete: SQLiteJournalMode = "delete"
    /// The rollback journal is truncated to zero bytes instead of deleted.
    ///
    /// ```swift
    /// try connection.setJournalMode(.truncate)
    /// ```
    package static let truncate: SQLiteJournalMode = "truncate"
    /// The rollback journal's header is zeroed instead of the file being deleted.
    ///
    /// ```swift
    /// try connection.setJournalMode(.persist)
    /// ```
    package static let persist: SQLiteJournalMode = "persist"
    /// The rollback journal is kept in memory (the only mode of an in-memory database).
    ///
    /// ```swift
    /// let mode = try SQLiteConnection.inMemory(name: nil).journalMode   // .memory
    /// ```
    package static let memory: SQLiteJournalMode = "memory"
    /// Write-ahead logging: readers see a consistent database while one writer works.
    ///
    /// ```swift
    /// try connection.setJournalMode(.wal)
    /// ```
    package static let wal: SQLiteJournalMode = "wal"
    /// No journal: no rollback and no crash safety.
    ///
    /// ```swift
    /// try scratch.setJournalMode(.off)
    /// ```
    package static let off: SQLiteJournalMode = "off"
}
