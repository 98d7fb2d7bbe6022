// Round trips of every bind and column type through SQLiteStatement, and statement behaviour
// (named parameters, execute/reset, bind failures surfacing at step).
import Foundation
import Testing

@testable import GraphStore

@Suite("SQLiteStatement")
struct SQLiteStatementTests {
    /// A connection with a table `t(v)` whose column has no type affinity, so values come back
    /// exactly as stored.
    private func makeConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        return connection
    }

    /// Inserts one value through `bind`, then reads it back through `read`.
    private func roundTrip<T>(
        _ connection: SQLiteConnection, bind: (SQLiteStatement) -> Void, read: (SQLiteStatement) -> T
    ) throws -> (SQLiteColumnType, T) {
        try connection.execute("DELETE FROM t")
        let insert = try connection.cachedStatement("INSERT INTO t(v) VALUES (?)")
        bind(insert)
        try insert.execute()
        let select = try connection.cachedStatement("SELECT v FROM t")
        defer { select.reset() }
        #expect(try select.step())
        return (select.columnType(0), read(select))
    }

    @Test func integersRoundTrip() throws {
        let connection = try makeConnection()
        for value in [Int64.min, -1, 0, 1, Int64.max] {
            let (type, read) = try roundTrip(
                connection, bind: { $0.bind(value, at: 1) }, read: { $0.int64(0) })
            #expect(type == .integer)
            #expect(read == value)
        }
        let (_, int) = try roundTrip(connection, bind: { $0.bind(Int.min, at: 1) }, read: { $0.int(0) })
        #expect(int == Int.min)
        let (_, yes) = try roundTrip(connection, bind: { $0.bind(true, at: 1) }, read: { $0.int64(0) })
        #expect(yes == 1)
        let (_, no) = try roundTrip(connection, bind: { $0.bind(false, at: 1) }, read: { $0.int64(0) })
        #expect(no == 0)
    }

    @Test func doublesRoundTrip() throws {
        let connection = try makeConnection()
        let values: [Double] = [
            0.1, -2.5, .pi, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
            .leastNormalMagnitude, .infinity, -.infinity,
        ]
        for value in values {
            let (type, read) = try roundTrip(
                connection, bind: { $0.bind(value, at: 1) }, read: { $0.double(0) })
            #expect(type == .real)
            #expect(read == value)
        }
        // SQLite has no NaN: it stores NULL.
        let (type, _) = try roundTrip(
            connection, bind: { $0.bind(Double.nan, at: 1) }, read: { $0.double(0) })
        #expect(type == .null)
    }

    @Test func nullRoundTrips() throws {
        let connection = try makeConnection()
        let (type, values) = try roundTrip(
            connection, bind: { $0.bindNull(at: 1) },
            read: { ($0.isNull(0), $0.int64(0), $0.double(0), $0.string(0), $0.blob(0), $0.data(0)) })
        #expect(type == .null)
        #expect(values.0)
        #expect(values.1 == 0)
        #expect(values.2 == 0)
        #expect(values.3 == "")
        #expect(values.4 == [])
        #expect(values.5 == Data())
    }

    @Test func textRoundTrips() throws {
        let connection = try makeConnection()
        let texts = [
            "", "a", "short", String(repeating: "long text ", count: 100), "Crème brûlée — 日本語 🥕",
            "quote \" and 'single' and , comma\nnewline", "embedded\u{0}nul",
        ]
        for text in texts {
            let (type, read) = try roundTrip(
                connection, bind: { $0.bind(text: text, at: 1) }, read: { $0.string(0) })
            #expect(type == .text)
            #expect(read == text)
            let (_, bytes) = try roundTrip(
                connection,
                bind: { statement in Array(text.utf8).withUnsafeBytes { statement.bind(text: $0, at: 1) } },
                read: { statement in statement.withText(0) { Array($0) } })
            #expect(bytes == Array(text.utf8))
        }
        // A substring (not a native String of its own) binds too.
        let slice = "prefix-value"[...].dropFirst(7)
        let (_, read) = try roundTrip(
            connection, bind: { $0.bind(text: String(slice), at: 1) }, read: { $0.string(0) })
        #expect(read == "value")
    }

    @Test func emptyTextBufferIsEmptyTextNotNull() throws {
        let connection = try makeConnection()
        let (type, count) = try roundTrip(
            connection, bind: { $0.bind(text: UnsafeRawBufferPointer(start: nil, count: 0), at: 1) },
            read: { $0.withText(0) { $0.count } })
        #expect(type == .text)
        #expect(count == 0)
    }

    @Test func blobsRoundTrip() throws {
        let connection = try makeConnection()
        let blobs: [[UInt8]] = [
            [], [0], [0x00, 0x01, 0x00, 0xFF], Array(0...255), [UInt8](repeating: 0xAB, count: 100_000),
        ]
        for blob in blobs {
            let (type, read) = try roundTrip(
                connection, bind: { $0.bind(blob: blob, at: 1) }, read: { $0.blob(0) })
            #expect(type == .blob)
            #expect(read == blob)
            let (_, data) = try roundTrip(
                connection, bind: { $0.bind(blob: Data(blob), at: 1) }, read: { $0.data(0) })
            #expect(data == Data(blob))
            let (_, raw) = try roundTrip(
                connection, bind: { statement in blob.withUnsafeBytes { statement.bind(blob: $0, at: 1) } },
                read: { statement in statement.withBlob(0) { Array($0) } })
            #expect(raw == blob)
        }
    }

    @Test func columnsAreDescribed() throws {
        let connection = try makeConnection()
        let select = try connection.prepare(
            "SELECT 1 AS one, 2.5 AS half, 'x' AS letter, x'00' AS byte, NULL AS none")
        #expect(select.columnCount == 5)
        #expect(
            (0..<select.columnCount).map(select.columnName) == ["one", "half", "letter", "byte", "none"])
        #expect(try select.step())
        #expect(
            (0..<select.columnCount).map(select.columnType) == [.integer, .real, .text, .blob, .null])
        #expect(try !select.step())
        #expect(select.sql.hasPrefix("SELECT 1 AS one"))
    }

    @Test func namedParametersResolveToIndexes() throws {
        let connection = try makeConnection()
        let select = try connection.prepare("SELECT :a + @b, $c")
        #expect(select.parameterCount == 3)
        #expect(select.parameterIndex(":a") == 1)
        #expect(select.parameterIndex("@b") == 2)
        #expect(select.parameterIndex("$c") == 3)
        #expect(select.parameterIndex(":missing") == nil)
        select.bind(40, at: 1)
        select.bind(2, at: 2)
        select.bind(text: "c", at: 3)
        #expect(try select.step())
        #expect(select.int64(0) == 42)
        #expect(select.string(1) == "c")
    }

    @Test func executeResetsAndKeepsBindings() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare("INSERT INTO t(v) VALUES (?)")
        insert.bind(7, at: 1)
        try insert.execute()
        try insert.execute()  // same binding, runs again without an explicit reset
        #expect(connection.changes == 1)
        insert.clearBindings()
        try insert.execute()
        let select = try connection.prepare("SELECT count(*), count(v), sum(v) FROM t")
        #expect(try select.step())
        #expect(select.int64(0) == 3)
        #expect(select.int64(1) == 2)
        #expect(select.int64(2) == 14)
    }

    @Test func bindFailureIsThrownByStep() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare("INSERT INTO t(v) VALUES (?)")
        insert.bind(1, at: 2)  // out of range: no parameter 2
        let error = try #require(throws: SQLiteError.self) { try insert.execute() }
        #expect(error.code == 25)  // SQLITE_RANGE
        #expect(error.message.contains("parameter 2"))
        #expect(error.sql == insert.sql)
        // The failure was reported once; the statement is usable again.
        insert.bind(1, at: 1)
        try insert.execute()
        #expect(connection.totalChanges == 1)
    }

    @Test func failedStepResetsTheStatement() throws {
        let connection = try makeConnection()
        try connection.execute("CREATE UNIQUE INDEX t_v ON t(v)")
        let insert = try connection.prepare("INSERT INTO t(v) VALUES (?)")
        insert.bind(1, at: 1)
        try insert.execute()
        insert.bind(1, at: 1)
        #expect(throws: SQLiteError.self) { try insert.step() }
        insert.bind(2, at: 1)  // rebinding right after a failure works
        try insert.execute()
        #expect(connection.lastInsertRowID == 2)
    }
}
