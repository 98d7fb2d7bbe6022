// SQLiteStatement: a prepared statement with typed binds (1-based parameter indexes) and typed
// column reads (0-based column indexes), built for bulk loads and paging through millions of rows.
// Invariants:
// - No bind or column read allocates, boxes a value or builds a String, except the readers whose
//   result is itself a String, [UInt8] or Data, and the failure paths that build a SQLiteError.
// - Binds never throw: the first bind failure is kept and thrown by the next `step()` (or
//   `execute()`), so a statement never runs with a parameter that silently failed to bind.
// - A failed `step()` resets the statement, so it can be rebound and run again at once.
// - The statement is finalized exactly once, in deinit. It holds the raw connection handle, not
//   the `SQLiteConnection`, so a connection's statement cache forms no reference cycle; a closed
//   connection stays valid in memory until its last statement is finalized (`sqlite3_close_v2`).
import CSQLite
import Foundation

/// A compiled SQL statement, made by ``SQLiteConnection/prepare(_:)`` or
/// ``SQLiteConnection/cachedStatement(_:)``.
///
/// Like its connection, a statement is used by one thread at a time, so it is not `Sendable`.
/// Bind values by 1-based parameter index, run it with ``step()`` or ``execute()``, and read
/// columns by 0-based index while ``step()`` has returned `true`.
///
/// ```swift
/// let insert = try connection.prepare("INSERT INTO Unit(pk, ent, opt, name) VALUES (?, 1, 1, ?)")
/// insert.bind(Int64(1), at: 1)
/// insert.bind(text: "kg", at: 2)
/// try insert.execute()
///
/// let select = try connection.prepare("SELECT pk, name FROM Unit ORDER BY pk")
/// while try select.step() {
///     print(select.int64(0), select.string(1))
/// }
/// ```
package final class SQLiteStatement {
    /// The `sqlite3_stmt`.
    let handle: OpaquePointer
    /// The `sqlite3` connection that prepared the statement (for error messages).
    let connection: OpaquePointer
    /// The first bind failure since the last `step()`, thrown by the next `step()`.
    private var pendingBindError: SQLiteError?

    /// The SQL text the statement was prepared from.
    ///
    /// ```swift
    /// let statement = try connection.prepare("SELECT 1")
    /// print(statement.sql)   // SELECT 1
    /// ```
    package let sql: String

    init(handle: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds a 64-bit integer to the 1-based parameter `index`.
    ///
    /// ```swift
    /// statement.bind(Int64.max, at: 1)
    /// ```
    package func bind(_ value: Int64, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, value), index)
    }

    /// Binds an integer to the 1-based parameter `index`.
    ///
    /// ```swift
    /// statement.bind(42, at: 1)
    /// ```
    package func bind(_ value: Int, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, Int64(value)), index)
    }

    /// Binds a floating-point number to the 1-based parameter `index`.
    ///
    /// SQLite stores NaN as NULL; infinities are kept.
    ///
    /// ```swift
    /// statement.bind(19.99, at: 3)
    /// ```
    package func bind(_ value: Double, at index: Int32) {
        check(sqlite3_bind_double(handle, index, value), index)
    }

    /// Binds a Boolean, as the integer 1 or 0, to the 1-based parameter `index`.
    ///
    /// ```swift
    /// statement.bind(true, at: 5)
    /// ```
    package func bind(_ value: Bool, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, value ? 1 : 0), index)
    }

    /// Binds NULL to the 1-based parameter `index`.
    ///
    /// ```swift
    /// if let notes { statement.bind(text: notes, at: 7) } else { statement.bindNull(at: 7) }
    /// ```
    package func bindNull(at index: Int32) {
        check(sqlite3_bind_null(handle, index), index)
    }

    /// Binds text to the 1-based parameter `index`; SQLite copies the UTF-8 bytes (no String is
    /// built or bridged).
    ///
    /// ```swift
    /// statement.bind(text: "Crème fraîche", at: 2)
    /// ```
    package func bind(text: String, at index: Int32) {
        let code = text.utf8.withContiguousStorageIfAvailable { bytes in
            bindText(UnsafeRawBufferPointer(bytes), at: index)
        }
        if let code {
            check(code, index)
        } else {
            var contiguous = text
            check(contiguous.withUTF8 { bindText(UnsafeRawBufferPointer($0), at: index) }, index)
        }
    }

    /// Binds UTF-8 text held in raw bytes (for example a field of a record being read) to the
    /// 1-based parameter `index`; SQLite copies the bytes. An empty buffer binds empty text.
    ///
    /// ```swift
    /// field.withUnsafeBytes { statement.bind(text: $0, at: 2) }
    /// ```
    package func bind(text bytes: UnsafeRawBufferPointer, at index: Int32) {
        check(bindText(bytes, at: index), index)
    }

    /// Binds a blob held in raw bytes to the 1-based parameter `index`; SQLite copies the bytes.
    /// An empty buffer binds an empty blob (not NULL).
    ///
    /// ```swift
    /// withUnsafeBytes(of: uuid.uuid) { statement.bind(blob: $0, at: 4) }
    /// ```
    package func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) {
        let code: Int32
        if let base = bytes.baseAddress, !bytes.isEmpty {
            code = sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), csqlite_transient())
        } else {
            code = sqlite3_bind_zeroblob(handle, index, 0)
        }
        check(code, index)
    }

    /// Binds a blob to the 1-based parameter `index`; SQLite copies the bytes.
    ///
    /// ```swift
    /// statement.bind(blob: [0x00, 0xFF], at: 4)
    /// ```
    package func bind(blob bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { bind(blob: $0, at: index) }
    }

    /// Binds a blob to the 1-based parameter `index`; SQLite copies the bytes.
    ///
    /// ```swift
    /// statement.bind(blob: thumbnail, at: 6)   // thumbnail: Data
    /// ```
    package func bind(blob data: Data, at index: Int32) {
        data.withUnsafeBytes { bind(blob: $0, at: index) }
    }

    /// The 1-based index of a named parameter (`:name`, `@name` or `$name`, prefix included), or
    /// nil when the statement has none by that name. Look indexes up once, then bind by index.
    ///
    /// ```swift
    /// let statement = try connection.prepare("SELECT pk FROM Item WHERE sku = :sku")
    /// if let sku = statement.parameterIndex(":sku") { statement.bind(text: "A-1", at: sku) }
    /// ```
    package func parameterIndex(_ name: String) -> Int32? {
        let index = sqlite3_bind_parameter_index(handle, name)
        return index > 0 ? index : nil
    }

    /// The number of parameters (the largest parameter index).
    ///
    /// ```swift
    /// let statement = try connection.prepare("INSERT INTO Tag(pk, name) VALUES (?, ?)")
    /// print(statement.parameterCount)   // 2
    /// ```
    package var parameterCount: Int32 {
        sqlite3_bind_parameter_count(handle)
    }

    /// Sets every parameter back to NULL (binds are otherwise kept across ``reset()``).
    ///
    /// ```swift
    /// statement.clearBindings()
    /// ```
    package func clearBindings() {
        sqlite3_clear_bindings(handle)
        pendingBindError = nil
    }

    // MARK: - Running

    /// Runs the statement until the next row: `true` when a row is available to read, `false`
    /// when the statement is done.
    ///
    /// Throws a ``SQLiteError`` (carrying SQLite's message and this statement's SQL) when SQLite
    /// fails or an earlier bind failed; the statement is then reset, ready to be rebound.
    ///
    /// ```swift
    /// let select = try connection.prepare("SELECT name FROM Tag")
    /// while try select.step() { print(select.string(0)) }
    /// select.reset()
    /// ```
    @discardableResult
    package func step() throws -> Bool {
        if let error = pendingBindError {
            pendingBindError = nil
            throw error
        }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = SQLiteError(connection: connection, resultCode: code, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Runs the statement to completion, ignoring any rows, then resets it for reuse (binds are
    /// kept).
    ///
    /// ```swift
    /// insert.bind(text: "kg", at: 1)
    /// try insert.execute()
    /// print(connection.lastInsertRowID)
    /// ```
    package func execute() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Resets the statement so it can run again, ending any row iteration and releasing its
    /// locks; binds are kept. Never throws (a failure was already reported by ``step()``).
    ///
    /// ```swift
    /// defer { statement.reset() }
    /// guard try statement.step() else { return nil }
    /// ```
    package func reset() {
        sqlite3_reset(handle)
    }

    // MARK: - Reading columns of the current row

    /// The number of result columns (0 for statements that return no rows).
    ///
    /// ```swift
    /// for column in 0..<statement.columnCount { print(statement.columnName(column)) }
    /// ```
    package var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// The name of the 0-based result `column` (its `AS` name, or SQLite's choice).
    ///
    /// ```swift
    /// let statement = try connection.prepare("SELECT count(*) AS n FROM Item")
    /// print(statement.columnName(0))   // n
    /// ```
    package func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    /// The storage class of the 0-based result `column` in the current row.
    ///
    /// ```swift
    /// if statement.columnType(2) == .real { print(statement.double(2)) }
    /// ```
    package func columnType(_ column: Int32) -> SQLiteColumnType {
        SQLiteColumnType(code: sqlite3_column_type(handle, column))
    }

    /// Whether the 0-based result `column` is NULL in the current row.
    ///
    /// ```swift
    /// let notes = statement.isNull(6) ? nil : statement.string(6)
    /// ```
    package func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The 0-based result `column` as a 64-bit integer (0 for NULL; other types converted the way
    /// SQLite converts them).
    ///
    /// ```swift
    /// let pk = statement.int64(0)
    /// ```
    package func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The 0-based result `column` as an integer (0 for NULL).
    ///
    /// ```swift
    /// let count = statement.int(0)
    /// ```
    package func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    /// The 0-based result `column` as a floating-point number (0 for NULL).
    ///
    /// ```swift
    /// let price = statement.double(2)
    /// ```
    package func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The 0-based result `column` as a String decoded from its UTF-8 bytes (empty for NULL;
    /// invalid UTF-8 is repaired with U+FFFD).
    ///
    /// ```swift
    /// let name = statement.string(1)
    /// ```
    package func string(_ column: Int32) -> String {
        withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the 0-based result `column`, without copying (an empty
    /// buffer for NULL). The bytes are valid only inside `body`.
    ///
    /// ```swift
    /// let isDraft = statement.withText(1) { $0.starts(with: "draft:".utf8) }
    /// ```
    package func withText<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
        -> R
    {
        guard let base = sqlite3_column_text(handle, column) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(
            UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// Calls `body` with the bytes of the 0-based result `column` read as a blob, without copying
    /// (an empty buffer for NULL or an empty blob). The bytes are valid only inside `body`.
    ///
    /// ```swift
    /// let checksum = statement.withBlob(3) { Data(SHA256.hash(bufferPointer: $0)) }
    /// ```
    package func withBlob<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
        -> R
    {
        guard let base = sqlite3_column_blob(handle, column) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(
            UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// The 0-based result `column` as bytes (empty for NULL).
    ///
    /// ```swift
    /// let bytes: [UInt8] = statement.blob(4)
    /// ```
    package func blob(_ column: Int32) -> [UInt8] {
        withBlob(column) { [UInt8]($0) }
    }

    /// The 0-based result `column` as `Data` (empty for NULL).
    ///
    /// ```swift
    /// let thumbnail: Data = statement.data(5)
    /// ```
    package func data(_ column: Int32) -> Data {
        withBlob(column) { bytes in
            guard let base = bytes.baseAddress else { return Data() }
            return Data(bytes: base, count: bytes.count)
        }
    }

    // MARK: - Private

    /// Binds UTF-8 bytes as text (copied); a buffer without storage binds empty text, not NULL.
    @inline(__always)
    private func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        guard let base = bytes.baseAddress else {
            return sqlite3_bind_text64(handle, index, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
        }
        return sqlite3_bind_text64(
            handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
            csqlite_transient(),
            UInt8(SQLITE_UTF8))
    }

    /// Keeps the first failure of a bind for the next `step()`.
    @inline(__always)
    private func check(_ code: Int32, _ index: Int32) {
        if code != SQLITE_OK { recordBindFailure(code, index) }
    }

    @inline(never)
    private func recordBindFailure(_ code: Int32, _ index: Int32) {
        guard pendingBindError == nil else { return }
        let error = SQLiteError(connection: connection, resultCode: code)
        pendingBindError = SQLiteError(
            extendedCode: error.extendedCode, message: "\(error.message) (binding parameter \(index))",
            sql: sql)
    }
}
