// SQLiteError codes, predicates and descriptions for the failures the store layer must tell apart:
// unique violations, syntax errors, read-only connections, busy databases, non-database files.
import Foundation
import Testing

@testable import GraphStore

@Suite("SQLiteError")
struct SQLiteErrorTests {
    @Test func uniqueViolationIsRecognised() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE Item(pk INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE)")
        let insert = try connection.prepare("INSERT INTO Item(sku) VALUES (?)")
        insert.bind(text: "A-1", at: 1)
        try insert.execute()
        let error = try #require(throws: SQLiteError.self) { try insert.execute() }
        #expect(error.code == 19)
        #expect(error.extendedCode == 2067)
        #expect(error.isConstraintViolation)
        #expect(error.isUniqueConstraintViolation)
        #expect(!error.isBusy)
        #expect(error.message == "UNIQUE constraint failed: Item.sku")
        #expect(error.sql == "INSERT INTO Item(sku) VALUES (?)")
        #expect(
            error.description
                == "SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE 2067): UNIQUE constraint failed: Item.sku — in: INSERT INTO Item(sku) VALUES (?)"
        )

        let duplicateKey = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO Item(pk, sku) VALUES (1, 'B-2')")
        }
        #expect(duplicateKey.isUniqueConstraintViolation)
        #expect(SQLiteError.name(of: duplicateKey.extendedCode) == "SQLITE_CONSTRAINT_PRIMARYKEY")

        let notNull = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO Item(sku) VALUES (NULL)")
        }
        #expect(notNull.isConstraintViolation)
        #expect(!notNull.isUniqueConstraintViolation)
        #expect(notNull.description.contains("SQLITE_CONSTRAINT_NOTNULL"))
    }

    @Test func syntaxErrorCarriesItsSQL() throws {
        let connection = try SQLiteConnection.inMemory()
        let prepared = try #require(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(prepared.code == 1)
        #expect(prepared.sql == "SELEC 1")
        #expect(prepared.message.contains("syntax error"))
        #expect(
            prepared.description.hasPrefix(
                "SQLite error 1 (SQLITE_ERROR 1): near \"SELEC\": syntax error"))
        #expect(prepared.description.hasSuffix(" — in: SELEC 1"))
        let executed = try #require(throws: SQLiteError.self) {
            try connection.execute("CREATE TABLE t(x); INSERT INTO nowhere VALUES (1)")
        }
        #expect(executed.message == "no such table: nowhere")
        #expect(executed.sql == "CREATE TABLE t(x); INSERT INTO nowhere VALUES (1)")
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let file = TemporaryDatabasePath()
        defer { file.remove() }
        try SQLiteConnection(path: file.path, mode: .readWriteCreate).execute("CREATE TABLE t(x)")
        let reader = try SQLiteConnection(path: file.path, mode: .readOnly)
        #expect(reader.isReadOnly)
        let error = try #require(throws: SQLiteError.self) {
            try reader.execute("INSERT INTO t VALUES (1)")
        }
        #expect(error.isReadOnly)
        #expect(error.code == 8)
        #expect(!error.isConstraintViolation)
    }

    @Test func writerWaitsForTheBusyTimeoutThenFails() throws {
        let file = TemporaryDatabasePath()
        defer { file.remove() }
        let holder = try SQLiteConnection(path: file.path, mode: .readWriteCreate)
        try holder.setJournalMode(.wal)
        try holder.execute("CREATE TABLE t(x)")
        let other = try SQLiteConnection(path: file.path, mode: .readWrite)
        other.busyTimeout = 0.05
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1);")
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: SQLiteError.self) {
            try other.transaction(.immediate) { try other.execute("INSERT INTO t VALUES (2)") }
        }
        let waited = clock.now - start
        #expect(error.isBusy)
        #expect(waited >= .milliseconds(40))
        #expect(waited < .seconds(2))
        #expect(!other.isInTransaction)
        try holder.execute("COMMIT")
        try other.transaction(.immediate) { try other.execute("INSERT INTO t VALUES (2)") }
        let count = try holder.prepare("SELECT count(*) FROM t")
        #expect(try count.step())
        #expect(count.int64(0) == 2)
    }

    @Test func notADatabaseIsRecognised() throws {
        let file = TemporaryDatabasePath()
        defer { file.remove() }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: file.path))
        let connection = try SQLiteConnection(path: file.path, mode: .readOnly)
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("SELECT * FROM sqlite_master")
        }
        #expect(error.isNotADatabase)
        #expect(!error.isCorrupt)
    }

    @Test func openFailureNamesThePath() throws {
        let error = try #require(throws: SQLiteError.self) {
            try SQLiteConnection(path: "/nonexistent-dir/x.sqlite", mode: .readWriteCreate)
        }
        #expect(error.code == 14)  // SQLITE_CANTOPEN
        #expect(error.message.contains("/nonexistent-dir/x.sqlite"))
        #expect(error.description.hasPrefix("SQLite error 14 (SQLITE_CANTOPEN"))
    }

    @Test func predicatesFollowTheCodes() {
        #expect(SQLiteError(extendedCode: 5, message: "").isBusy)
        #expect(SQLiteError(extendedCode: 517, message: "").isBusy)  // SQLITE_BUSY_SNAPSHOT
        #expect(SQLiteError(extendedCode: 6, message: "").isLocked)
        #expect(SQLiteError(extendedCode: 13, message: "").isDiskFull)
        #expect(SQLiteError(extendedCode: 11, message: "").isCorrupt)
        #expect(SQLiteError(extendedCode: 779, message: "").isCorrupt)  // SQLITE_CORRUPT_INDEX
        #expect(SQLiteError(extendedCode: 1544, message: "").isReadOnly)  // SQLITE_READONLY_DIRECTORY
        #expect(SQLiteError(extendedCode: 9, message: "").isInterrupted)
        #expect(SQLiteError(extendedCode: 2067, message: "").code == 19)
        #expect(SQLiteError.name(of: 1555) == "SQLITE_CONSTRAINT_PRIMARYKEY")
        #expect(SQLiteError.name(of: 13) == "SQLITE_FULL")
        #expect(SQLiteError.name(of: 200) == "SQLITE_UNKNOWN")
        #expect(SQLiteError.name(of: 15 | (77 << 8)) == "SQLITE_PROTOCOL")  // unknown extension of a known code
    }

    @Test func identifiersAreQuoted() {
        #expect(SQLiteIdentifier.quote("Item") == "\"Item\"")
        #expect(SQLiteIdentifier.quote("a\"b") == "\"a\"\"b\"")
        #expect(SQLiteIdentifier.quote("") == "\"\"")
        #expect(SQLiteIdentifier.quote("Größe 🍎") == "\"Größe 🍎\"")
    }
}
