// Compiling SQL under an authorizer: while the body runs, SQLite asks a Swift predicate about
// every action of every statement compiled on the connection (`sqlite3_set_authorizer`), and a
// statement with a refused action fails to compile. For SQL whose text comes from a database
// file (the run journal's undo log), so that it can only do what SeedKit meant it to.
// Invariants: the authorizer is removed (and its box released) when the body returns or throws;
// it judges compiling only, so statements compiled before or after the body are not affected.
import CSQLite

/// One action of a statement being compiled, as SQLite describes it to an authorizer.
///
/// ```swift
/// action.code == SQLITE_UPDATE && action.database == "main" && action.first == "Item"
/// ```
package struct SQLiteAction {
    /// The action code: `SQLITE_INSERT`, `SQLITE_UPDATE`, `SQLITE_READ`, `SQLITE_ATTACH`, …
    package let code: Int32
    /// The first detail: the table for a row action, the file for ATTACH, the pragma's name…
    package let first: String?
    /// The second detail: the column for READ and UPDATE, the function's name for FUNCTION…
    package let second: String?
    /// The schema the action touches (`main`, `temp`, an attached name), when it touches one.
    package let database: String?
    /// The innermost trigger or view the action comes from; nil for the statement's own SQL.
    package let trigger: String?

    /// Whether the action inserts, updates or deletes rows of the table ``first``
    /// (`SQLITE_INSERT`, `SQLITE_UPDATE`, `SQLITE_DELETE`).
    package var isRowWrite: Bool {
        [SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE].contains(code)
    }

    /// Whether the action reads or writes rows of the table ``first`` (``isRowWrite`` or
    /// `SQLITE_READ`).
    package var isRowAccess: Bool {
        isRowWrite || code == SQLITE_READ
    }
}

extension SQLiteError {
    /// The error of a statement refused by an authorizer's caller after compiling (`SQLITE_AUTH`).
    ///
    /// ```swift
    /// guard wroteRows else { throw SQLiteError.notAuthorized(sql: text) }
    /// ```
    package static func notAuthorized(sql: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_AUTH, message: "not authorized", sql: sql)
    }
}

extension SQLiteConnection {
    /// Runs `body` with `allows` judging each action of every statement compiled meanwhile; a
    /// statement with an action it refuses fails to compile with SQLite's `not authorized`
    /// (``SQLiteError`` `SQLITE_AUTH`).
    ///
    /// ```swift
    /// try connection.withAuthorizer({ $0.code == SQLITE_READ || $0.code == SQLITE_SELECT }) {
    ///     let statement = try connection.prepare(textFromAFile)
    ///     while try statement.step() { … }
    /// }
    /// ```
    package func withAuthorizer<T>(_ allows: @escaping (SQLiteAction) -> Bool, _ body: () throws -> T) throws -> T {
        let database = try openDatabase(for: nil)
        let box = Unmanaged.passRetained(SQLiteAuthorizerBox(allows))
        sqlite3_set_authorizer(
            database,
            { userData, code, first, second, schema, trigger in
                guard let userData else { return SQLITE_DENY }
                let allows = Unmanaged<SQLiteAuthorizerBox>.fromOpaque(userData).takeUnretainedValue().allows
                let action = SQLiteAction(
                    code: code, first: first.map { String(cString: $0) }, second: second.map { String(cString: $0) },
                    database: schema.map { String(cString: $0) }, trigger: trigger.map { String(cString: $0) })
                return allows(action) ? SQLITE_OK : SQLITE_DENY
            }, box.toOpaque())
        defer {
            sqlite3_set_authorizer(database, nil, nil)
            box.release()
        }
        return try body()
    }
}

/// Holds an authorizer's Swift predicate for SQLite's user-data pointer.
private final class SQLiteAuthorizerBox {
    let allows: (SQLiteAction) -> Bool

    init(_ allows: @escaping (SQLiteAction) -> Bool) {
        self.allows = allows
    }
}
