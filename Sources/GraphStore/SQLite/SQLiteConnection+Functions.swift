// Scalar SQL functions implemented in Swift, registered on one SQLiteConnection, and who may
// call them: SQL the connection runs only (the default), or also a database's schema.
// Invariants: a function is direct-only unless registered for the schema too, so no view,
// trigger, CHECK constraint, DEFAULT, index or generated column of a database file can call it;
// the Swift closure is retained once, in a box handed to SQLite as user data, and released
// exactly once by SQLite's destructor callback (when the function is replaced, the connection
// closes, or registration fails); a Swift error thrown by the closure becomes a SQL error
// carrying its description, never a crash.
import CSQLite

extension SQLiteConnection {
    /// Registers (or replaces) the scalar SQL function `name` with `argumentCount` arguments (-1
    /// for any number), implemented by `body`. Mark it `deterministic` when the same arguments
    /// always give the same result, so SQLite may factor calls out.
    ///
    /// `callers` says who may call it: by default only the SQL run on this connection
    /// (``SQLiteFunctionCallers/directOnly``), never a database's schema — a view, trigger, CHECK
    /// constraint, DEFAULT, index or generated column of a file from elsewhere fails to compile
    /// instead (`unsafe use of name()`).
    ///
    /// `body` runs on this connection's thread, during the statement that calls it. An error it
    /// throws makes the statement fail with its description as SQLite's message. The connection
    /// keeps `body` until it closes, so capture the connection itself `unowned` (or `weak`) in it.
    ///
    /// ```swift
    /// try connection.registerFunction(name: "regexp", argumentCount: 2) { arguments in
    ///     let pattern = try Regex(arguments.string(0))
    ///     return .integer(arguments.string(1).contains(pattern) ? 1 : 0)
    /// }
    /// let matching = try connection.prepare("SELECT name FROM Item WHERE name REGEXP '^A'")
    /// ```
    package func registerFunction(
        name: String, argumentCount: Int32, deterministic: Bool = true,
        callers: SQLiteFunctionCallers = .directOnly,
        _ body: @escaping (SQLiteFunctionArguments) throws -> SQLiteValue
    ) throws {
        let database = try openDatabase(for: nil)
        let box = Unmanaged.passRetained(SQLiteFunctionBox(body)).toOpaque()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0) | callers.flag
        let code = sqlite3_create_function_v2(
            database, name, argumentCount, flags, box,
            { context, count, values in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                let function = Unmanaged<SQLiteFunctionBox>.fromOpaque(userData).takeUnretainedValue()
                do {
                    SQLiteFunctionBox.setResult(
                        try function.body(SQLiteFunctionArguments(count: count, values: values)), on: context)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            nil, nil,
            { userData in
                guard let userData else { return }
                Unmanaged<SQLiteFunctionBox>.fromOpaque(userData).release()
            })
        guard code == SQLITE_OK else {
            let error = SQLiteError(connection: database, resultCode: code)
            throw SQLiteError(
                extendedCode: error.extendedCode, message: "\(error.message) (function \(name))")
        }
    }
}

/// Who may call a SQL function registered with
/// ``SQLiteConnection/registerFunction(name:argumentCount:deterministic:callers:_:)``.
///
/// ```swift
/// try connection.registerFunction(name: "seedkit_fold", argumentCount: 2, callers: .directOnly) { … }
/// ```
package enum SQLiteFunctionCallers: Sendable {
    /// Only the SQL run on the connection (`SQLITE_DIRECTONLY`): no view, trigger, CHECK
    /// constraint, DEFAULT, index or generated column of a database can call it.
    case directOnly
    /// Also a database's schema (`SQLITE_INNOCUOUS`): for a function that is harmless whatever
    /// its arguments and whoever calls it, such as one a store layout's own triggers call.
    case schemaToo

    /// The `sqlite3_create_function_v2` flag.
    var flag: Int32 {
        switch self {
        case .directOnly: SQLITE_DIRECTONLY
        case .schemaToo: SQLITE_INNOCUOUS
        }
    }
}

/// Holds a Swift SQL function for SQLite's user-data pointer.
private final class SQLiteFunctionBox {
    let body: (SQLiteFunctionArguments) throws -> SQLiteValue

    init(_ body: @escaping (SQLiteFunctionArguments) throws -> SQLiteValue) {
        self.body = body
    }

    /// Hands `value` to SQLite as the function's result (text and blobs are copied).
    static func setResult(_ value: SQLiteValue, on context: OpaquePointer) {
        switch value {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else {
                    sqlite3_result_text64(context, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
                    return
                }
                let start = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                sqlite3_result_text64(
                    context, start, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                if let base = buffer.baseAddress, !buffer.isEmpty {
                    sqlite3_result_blob64(context, base, UInt64(buffer.count), csqlite_transient())
                } else {
                    sqlite3_result_zeroblob(context, 0)
                }
            }
        }
    }
}
