// SQLiteOpenMode: how a SQLiteConnection opens its database file.
// Invariant: each case maps to exactly one combination of SQLITE_OPEN_READONLY / READWRITE / CREATE.
import CSQLite

/// How ``SQLiteConnection/init(path:mode:)`` opens a database.
///
/// ```swift
/// let seed = try SQLiteConnection(path: "Seed.sqlite", mode: .readOnly)
/// ```
package enum SQLiteOpenMode: Sendable, Hashable {
    /// Read only; the file must exist. Writes fail with ``SQLiteError/isReadOnly``.
    ///
    /// ```swift
    /// let source = try SQLiteConnection(path: "Catalog.sqlite", mode: .readOnly)
    /// ```
    case readOnly
    /// Read and write; the file must exist.
    ///
    /// ```swift
    /// let store = try SQLiteConnection(path: "App.sqlite", mode: .readWrite)
    /// ```
    case readWrite
    /// Read and write; the file is created when missing.
    ///
    /// ```swift
    /// let fresh = try SQLiteConnection(path: "Seed.tmp.sqlite", mode: .readWriteCreate)
    /// ```
    case readWriteCreate

    /// The `sqlite3_open_v2` flags for this mode.
    var flags: Int32 {
        switch self {
        case .readOnly: SQLITE_OPEN_READONLY
        case .readWrite: SQLITE_OPEN_READWRITE
        case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
    }
}
