// Running the `SQLQuery`s the fetch layer builds: bind the parameters in order (values as the
// store's layout encodes them), step, reset.
// Invariant: a statement is always reset after use, even when reading a row throws.

extension SQLiteConnection {
    /// The rows of `query`, its values bound as `encoding` stores them, each read by `row`.
    func rows<T>(_ query: SQLQuery, encoding: ValueEncoding, _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(query.sql)
        defer { statement.reset() }
        for (index, value) in query.bindings.enumerated() {
            statement.bind(value, at: Int32(index + 1), encoding: encoding)
        }
        var results: [T] = []
        while try statement.step() {
            results.append(try row(statement))
        }
        return results
    }

    /// Runs `query` (an INSERT, UPDATE or DELETE), its values bound as `encoding` stores them,
    /// and returns how many rows it changed.
    @discardableResult
    func execute(_ query: SQLQuery, encoding: ValueEncoding) throws -> Int {
        let statement = try prepare(query.sql)
        for (index, value) in query.bindings.enumerated() {
            statement.bind(value, at: Int32(index + 1), encoding: encoding)
        }
        try statement.execute()
        return changes
    }
}
