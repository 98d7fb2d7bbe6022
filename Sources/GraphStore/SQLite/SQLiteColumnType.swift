// SQLiteColumnType: the storage class of a value read from SQLite (a result column or a
// function argument).
// Invariant: every `sqlite3_column_type`/`sqlite3_value_type` result maps to exactly one case.
import CSQLite

/// The storage class of a value in the current row of a statement, or of a function argument.
///
/// ```swift
/// switch statement.columnType(0) {
/// case .integer: print(statement.int64(0))
/// case .text: print(statement.string(0))
/// default: break
/// }
/// ```
package enum SQLiteColumnType: Sendable, Hashable {
    /// A 64-bit signed integer (`SQLITE_INTEGER`).
    ///
    /// ```swift
    /// if statement.columnType(0) == .integer { total += statement.int64(0) }
    /// ```
    case integer
    /// A 64-bit IEEE floating-point number (`SQLITE_FLOAT`).
    ///
    /// ```swift
    /// if statement.columnType(1) == .real { sum += statement.double(1) }
    /// ```
    case real
    /// UTF-8 text (`SQLITE_TEXT`).
    ///
    /// ```swift
    /// if statement.columnType(2) == .text { names.append(statement.string(2)) }
    /// ```
    case text
    /// Bytes (`SQLITE_BLOB`).
    ///
    /// ```swift
    /// if statement.columnType(3) == .blob { payload = statement.blob(3) }
    /// ```
    case blob
    /// No value (`SQLITE_NULL`).
    ///
    /// ```swift
    /// if statement.columnType(4) == .null { print("no notes") }
    /// ```
    case null

    /// The case for a fundamental datatype code (`SQLITE_INTEGER` … `SQLITE_NULL`).
    @inline(__always)
    init(code: Int32) {
        switch code {
        case SQLITE_INTEGER: self = .integer
        case SQLITE_FLOAT: self = .real
        case SQLITE_TEXT: self = .text
        case SQLITE_BLOB: self = .blob
        default: self = .null
        }
    }
}
