// SQLiteConnection behaviour: opening modes, shared in-memory databases, the statement cache,
// transactions and savepoints, journal mode and checkpoints, pragmas, Swift SQL functions.
import Foundation
import Testing

@testable import GraphStore

@Suite("SQLiteConnection")
struct SQLiteConnectionTests {
    private func count(_ table: String, on connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.prepare("SELECT count(*) FROM \(SQLiteIdentifier.quote(table))")
        #expect(try statement.step())
        return statement.int64(0)
    }

    // MARK: Opening

    @Test func namedInMemoryDatabaseIsSharedBetweenConnections() throws {
        let name = uniqueMemoryName()
        let first = try SQLiteConnection.inMemory(name: name)
        let second = try SQLiteConnection.inMemory(name: name)
        try first.execute("CREATE TABLE shared(x INTEGER)")
        try first.transaction(.immediate) { try first.execute("INSERT INTO shared VALUES (1), (2)") }
        #expect(try count("shared", on: second) == 2)
        try second.execute("INSERT INTO shared VALUES (3)")
        #expect(try count("shared", on: first) == 3)

        // Another name is another database; no name is a private one.
        let other = try SQLiteConnection.inMemory(name: uniqueMemoryName())
        #expect(throws: SQLiteError.self) { try other.execute("SELECT * FROM shared") }
        let lonely = try SQLiteConnection.inMemory()
        #expect(throws: SQLiteError.self) { try lonely.execute("SELECT * FROM shared") }
        #expect(try lonely.journalMode == .memory)
    }

    @Test func inMemoryNamesAreEscaped() throws {
        let name = "odd name/with?query#and%percent"
        let first = try SQLiteConnection.inMemory(name: name)
        let second = try SQLiteConnection.inMemory(name: name)
        try first.execute("CREATE TABLE odd(x)")
        #expect(try count("odd", on: second) == 0)
        let plain = try SQLiteConnection.inMemory(name: "odd name")
        #expect(throws: SQLiteError.self) { try plain.execute("SELECT * FROM odd") }
    }

    @Test func inMemoryDatabaseLivesWhileAConnectionIsOpen() throws {
        let name = uniqueMemoryName()
        let anchor = try SQLiteConnection.inMemory(name: name)
        do {
            let writer = try SQLiteConnection.inMemory(name: name)
            try writer.execute("CREATE TABLE kept(x)")
            writer.close()
        }
        #expect(try count("kept", on: SQLiteConnection.inMemory(name: name)) == 0)
        anchor.close()
        #expect(throws: SQLiteError.self) {
            try SQLiteConnection.inMemory(name: name).execute("SELECT * FROM kept")
        }
    }

    @Test func openModesOnFiles() throws {
        let file = TemporaryDatabasePath()
        defer { file.remove() }
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: file.path, mode: .readWrite) }
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: file.path, mode: .readOnly) }
        let created = try SQLiteConnection(path: file.path, mode: .readWriteCreate)
        #expect(!created.isReadOnly)
        #expect(created.path == file.path)
        try created.execute("CREATE TABLE t(x)")
        created.close()
        created.close()  // closing twice is harmless
        #expect(throws: SQLiteError.self) { try created.execute("SELECT 1") }
        let reader = try SQLiteConnection(path: file.path, mode: .readOnly)
        #expect(reader.isReadOnly)
        #expect(try count("t", on: reader) == 0)
        let writer = try SQLiteConnection(path: file.path, mode: .readWrite)
        #expect(!writer.isReadOnly)
    }

    // MARK: Statements

    @Test func cachedStatementsAreReusedAndReset() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);")
        let first = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(try first.step())
        #expect(first.int64(0) == 1)
        let again = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(again === first)
        #expect(try again.step())
        #expect(again.int64(0) == 1)  // reset before reuse: starts from the first row
        let other = try connection.cachedStatement("SELECT x FROM t ORDER BY x DESC")
        #expect(other !== first)
        #expect(try connection.prepare("SELECT x FROM t ORDER BY x") !== first)
    }

    @Test func prepareTakesExactlyOneStatement() throws {
        let connection = try SQLiteConnection.inMemory()
        _ = try connection.prepare("SELECT 1;  \n -- trailing comment\n ;")
        let twoStatements = try #require(throws: SQLiteError.self) {
            try connection.prepare("SELECT 1; SELECT 2")
        }
        #expect(twoStatements.code == 21)  // SQLITE_MISUSE
        #expect(throws: SQLiteError.self) { try connection.prepare("  ") }
        #expect(throws: SQLiteError.self) { try connection.prepare("") }
    }

    @Test func countersReportChanges() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(pk INTEGER PRIMARY KEY, x)")
        try connection.execute("INSERT INTO t(x) VALUES (1), (2), (3)")
        #expect(connection.changes == 3)
        #expect(connection.lastInsertRowID == 3)
        try connection.execute("UPDATE t SET x = x + 1 WHERE pk > 1")
        #expect(connection.changes == 2)
        #expect(connection.totalChanges == 5)
    }

    // MARK: Transactions

    @Test func transactionCommitsOnSuccess() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x)")
        for kind in [SQLiteTransactionKind.deferred, .immediate, .exclusive] {
            let result = try connection.transaction(kind) { () throws -> Int in
                #expect(connection.isInTransaction)
                try connection.execute("INSERT INTO t VALUES (1)")
                return 42
            }
            #expect(result == 42)
            #expect(!connection.isInTransaction)
        }
        #expect(try count("t", on: connection) == 3)
    }

    @Test func transactionRollsBackOnThrow() throws {
        struct Abort: Error {}
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x)")
        #expect(throws: Abort.self) {
            try connection.transaction(.immediate) {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try count("t", on: connection) == 0)
        // A transaction does not nest.
        #expect(throws: SQLiteError.self) {
            try connection.transaction { try connection.transaction {} }
        }
        #expect(!connection.isInTransaction)
    }

    @Test func nestedSavepointsRollBackOnlyTheirOwnWork() throws {
        struct Abort: Error {}
        /// Whether `body` threw `Abort`.
        func aborted(_ body: () throws -> Void) throws -> Bool {
            do { try body() } catch is Abort { return true }
            return false
        }
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x)")
        var abortedInner = false
        var abortedOuter = false
        try connection.transaction(.immediate) {
            try connection.execute("INSERT INTO t VALUES (1)")
            try connection.savepoint("outer") {
                try connection.execute("INSERT INTO t VALUES (2)")
                abortedInner = try aborted {
                    try connection.savepoint("inner") {
                        try connection.execute("INSERT INTO t VALUES (3)")
                        throw Abort()
                    }
                }
                try connection.savepoint("inner") { try connection.execute("INSERT INTO t VALUES (4)") }
            }
            abortedOuter = try aborted {
                try connection.savepoint("outer") {
                    try connection.execute("INSERT INTO t VALUES (5)")
                    try connection.savepoint("inner") { try connection.execute("INSERT INTO t VALUES (6)") }
                    throw Abort()
                }
            }
            #expect(connection.isInTransaction)
        }
        #expect(abortedInner)
        #expect(abortedOuter)
        let select = try connection.prepare("SELECT group_concat(x) FROM (SELECT x FROM t ORDER BY x)")
        #expect(try select.step())
        #expect(select.string(0) == "1,2,4")
    }

    @Test func savepointOutsideATransactionCommits() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x)")
        try connection.savepoint { try connection.execute("INSERT INTO t VALUES (1)") }
        #expect(!connection.isInTransaction)
        #expect(try count("t", on: connection) == 1)
    }

    // MARK: Journal mode, checkpoints, pragmas

    @Test func walModeAndCheckpoint() throws {
        let file = TemporaryDatabasePath()
        defer { file.remove() }
        let connection = try SQLiteConnection(path: file.path, mode: .readWriteCreate)
        #expect(try connection.journalMode == .delete)
        let notWAL = try connection.checkpoint(mode: .passive)
        #expect(notWAL.logFrameCount == -1)
        #expect(try connection.setJournalMode("WAL") == .wal)
        #expect(try connection.journalMode == .wal)
        try connection.execute("CREATE TABLE t(x)")
        try connection.transaction(.immediate) {
            let insert = try connection.cachedStatement("INSERT INTO t VALUES (?)")
            for value in 0..<1000 {
                insert.bind(text: String(repeating: "x", count: 100) + String(value), at: 1)
                try insert.execute()
            }
        }
        #expect((file.size(suffix: "-wal") ?? 0) > 0)
        let passive = try connection.checkpoint()
        #expect(passive.logFrameCount > 0)
        #expect(passive.checkpointedFrameCount == passive.logFrameCount)
        try connection.checkpoint(mode: .truncate)
        #expect(file.size(suffix: "-wal") == 0)
        #expect(try connection.setJournalMode(.delete) == .delete)
        #expect(file.size(suffix: "-wal") == nil)
        #expect(throws: SQLiteError.self) { try connection.setJournalMode("wal; DROP TABLE t") }
        #expect(try count("t", on: connection) == 1000)
    }

    @Test func userVersionReadsAndWrites() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(try connection.userVersion == 0)
        try connection.setUserVersion(Int32.max)
        #expect(try connection.userVersion == Int32.max)
        try connection.setUserVersion(-7)
        #expect(try connection.userVersion == -7)
    }

    // MARK: Functions

    @Test func registeredFunctionIsCallableFromSQL() throws {
        struct BadPattern: Error, CustomStringConvertible {
            var description: String { "bad pattern" }
        }
        let connection = try SQLiteConnection.inMemory()
        try connection.registerFunction(name: "regexp", argumentCount: 2) { arguments in
            guard !arguments.isNull(0), !arguments.isNull(1) else { return .null }
            let pattern = arguments.string(0)
            guard let regex = try? Regex(pattern) else { throw BadPattern() }
            return .integer(arguments.string(1).contains(regex) ? 1 : 0)
        }
        try connection.execute(
            "CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('Apple'), ('Avocado'), ('Banana')")
        let select = try connection.prepare(
            "SELECT group_concat(name) FROM t WHERE name REGEXP '^A.*o$'")
        #expect(try select.step())
        #expect(select.string(0) == "Avocado")

        let failing = try connection.prepare("SELECT 'x' REGEXP '('")
        let error = try #require(throws: SQLiteError.self) { try failing.step() }
        #expect(error.message == "bad pattern")

        try connection.registerFunction(name: "describe", argumentCount: -1, deterministic: false) {
            arguments in
            var parts: [String] = []
            for index in 0..<arguments.count {
                switch arguments[index] {
                case .null: parts.append("null")
                case .integer(let value): parts.append("int \(value)")
                case .real(let value): parts.append("real \(value)")
                case .text(let value): parts.append("text \(value)")
                case .blob(let value): parts.append("blob \(value.count)")
                }
            }
            return .text(parts.joined(separator: ", "))
        }
        let described = try connection.prepare("SELECT describe(NULL, 1, 2.5, 'é', x'0001')")
        #expect(try described.step())
        #expect(described.string(0) == "null, int 1, real 2.5, text é, blob 2")

        try connection.registerFunction(name: "echo", argumentCount: 1) { $0[0] }
        for (sql, expected) in [
            ("SELECT echo(NULL)", SQLiteColumnType.null), ("SELECT echo(1)", .integer),
            ("SELECT echo(1.5)", .real),
            ("SELECT echo('')", .text), ("SELECT echo(x'')", .blob),
        ] {
            let echo = try connection.prepare(sql)
            #expect(try echo.step())
            #expect(echo.columnType(0) == expected)
        }
        select.reset()  // SQLite refuses to replace a function while statements are running
        described.reset()
        // Replacing a function releases the old closure; a throwing registration reports the name.
        try connection.registerFunction(name: "echo", argumentCount: 1) { _ in .text("replaced") }
        let replaced = try connection.prepare("SELECT echo(1)")
        #expect(try replaced.step())
        #expect(replaced.string(0) == "replaced")
        let invalid = try #require(throws: SQLiteError.self) {
            try connection.registerFunction(name: "too_many", argumentCount: 1000) { _ in .null }
        }
        #expect(invalid.message.contains("too_many"))
    }

    @Test func interruptStopsTheRunningStatement() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.registerFunction(name: "stop_here", argumentCount: 1, deterministic: false) {
            [unowned connection] arguments in
            if arguments.int64(0) == 500 { connection.interrupt() }
            return .null
        }
        let statement = try connection.prepare(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(stop_here(i)) FROM n"
        )
        let error = try #require(throws: SQLiteError.self) { try statement.step() }
        #expect(error.isInterrupted)
        #expect(try connection.prepare("SELECT 1").step())  // later statements run again
    }
}
