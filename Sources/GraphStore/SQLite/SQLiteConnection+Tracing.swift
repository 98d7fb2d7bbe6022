// Observing the statements a connection runs (sqlite3_trace_v2, SQLITE_TRACE_STMT): for tests
// that count queries and for diagnostics.
// Invariants: the observer is installed only for the duration of `tracingStatements`, and the
// trace is removed before it returns (even when `body` throws), so SQLite never calls into a
// released box; statements run by triggers (reported as "-- …" comments) are not counted.
import CSQLite

extension SQLiteConnection {
    /// Runs `body` and returns its result with the SQL text of every statement the connection
    /// started meanwhile, in order.
    ///
    /// ```swift
    /// let (people, statements) = try connection.tracingStatements { try context.fetch(request) }
    /// statements.count   // 3: the fetch and one per prefetched level
    /// ```
    package func tracingStatements<T>(_ body: () throws -> T) throws -> (T, [String]) {
        let database = try openDatabase(for: nil)
        let log = SQLiteStatementLog()
        let context = Unmanaged.passUnretained(log).toOpaque()
        sqlite3_trace_v2(
            database, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context, let text else { return 0 }
                let sql = String(cString: text.assumingMemoryBound(to: CChar.self))
                if !sql.hasPrefix("--") {
                    Unmanaged<SQLiteStatementLog>.fromOpaque(context).takeUnretainedValue().statements.append(sql)
                }
                return 0
            }, context)
        defer { sqlite3_trace_v2(database, 0, nil, nil) }
        let result = try withExtendedLifetime(log) { try body() }
        return (result, log.statements)
    }
}

/// The statements seen by one `tracingStatements` call.
private final class SQLiteStatementLog {
    var statements: [String] = []
}
