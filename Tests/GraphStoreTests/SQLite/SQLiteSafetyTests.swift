// The safety settings every connection is opened with (docs/Security.md): trusted schema off,
// defensive mode, no extension loading, no views of a database's schema, checked pages, no
// memory mapping, lowered limits; SQL functions that a database's schema cannot call unless
// registered for it; and the authorizer that confines SQL read from a file.
import CSQLite
import Foundation
import Testing

@testable import GraphStore

@Suite struct SQLiteSafetyTests {
    /// The integer the first row of a pragma or query holds (nil for no row).
    private static func integer(_ sql: String, on connection: SQLiteConnection) throws -> Int64? {
        let statement = try connection.prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The message of the SQLite error `body` throws (nil when it throws none).
    private static func failure(_ body: () throws -> Void) -> String? {
        error(body)?.message
    }

    /// The SQLite error `body` throws (nil when it throws none or another error).
    private static func error(_ body: () throws -> Void) -> SQLiteError? {
        do {
            try body()
            return nil
        } catch {
            return error as? SQLiteError
        }
    }

    @Test func everyConnectionHasTheSettings() throws {
        let file = TemporaryDatabasePath()
        defer { file.remove() }
        for connection in [
            try SQLiteConnection(path: file.path, mode: .readWriteCreate),
            try SQLiteConnection(path: file.path, mode: .readOnly), try SQLiteConnection.inMemory(),
            try SQLiteConnection.inMemory(name: uniqueMemoryName()),
        ] {
            #expect(try Self.integer("PRAGMA trusted_schema", on: connection) == 0)
            #expect(try Self.integer("PRAGMA cell_size_check", on: connection) == 1)
            #expect(try Self.integer("PRAGMA mmap_size", on: connection) ?? 0 == 0)  // no row in memory
            #expect(csqlite_db_config_flag(connection.liveDatabase, SQLITE_DBCONFIG_DEFENSIVE, -1) == 1)
            #expect(csqlite_db_config_flag(connection.liveDatabase, SQLITE_DBCONFIG_ENABLE_VIEW, -1) == 0)
            #expect(csqlite_db_config_flag(connection.liveDatabase, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, -1) == 0)
            #expect(
                csqlite_db_config_flag(connection.liveDatabase, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, -1)
                    == (connection.isReadOnly ? 1 : 0))
            for limit in SQLiteSafety.limits {
                #expect(sqlite3_limit(connection.liveDatabase, limit.code, -1) == limit.value)
            }
        }
    }

    @Test func defensiveModeKeepsOrdinarySQLFromCorruptingTheFile() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x)")
        try connection.execute("PRAGMA writable_schema = ON")
        #expect(
            Self.failure { try connection.execute("UPDATE sqlite_master SET sql = 'CREATE TABLE t(' WHERE name = 't'") }
                == "table sqlite_master may not be modified")
        #expect(try connection.setJournalMode("OFF") == "memory")
    }

    @Test func extensionsDoNotLoadAndViewsDoNotRun() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(
            Self.failure { _ = try connection.prepare("SELECT load_extension('/tmp/evil.so')").step() }
                == "not authorized")
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1); CREATE VIEW v AS SELECT x FROM t")
        #expect(Self.failure { _ = try connection.prepare("SELECT * FROM v") } == "access to view \"v\" prohibited")
        try connection.execute("CREATE TEMP VIEW w AS SELECT x FROM t")
        #expect(try Self.integer("SELECT x FROM w", on: connection) == 1)
    }

    @Test func attachingIsLimited() throws {
        let connection = try SQLiteConnection.inMemory()
        for index in 1...3 { try connection.execute("ATTACH DATABASE ':memory:' AS a\(index)") }
        #expect(
            Self.failure { try connection.execute("ATTACH DATABASE ':memory:' AS a4") }
                == "too many attached databases - max 3")
    }

    @Test func aSchemaCallsOnlyFunctionsRegisteredForIt() throws {
        let connection = try SQLiteConnection.inMemory()
        // A CHECK names only functions that exist, and no direct-only one, when it is created:
        // `direct` is first registered for the schema, as a crafting tool could, then as SeedKit does.
        try connection.registerFunction(name: "direct", argumentCount: 1, callers: .schemaToo) { $0[0] }
        try connection.registerFunction(name: "harmless", argumentCount: 1, callers: .schemaToo) { $0[0] }
        try connection.execute(
            """
            CREATE TABLE t(x); CREATE TABLE u(x); CREATE TABLE log(y);
            CREATE TRIGGER direct_call AFTER INSERT ON t BEGIN INSERT INTO log VALUES (direct(NEW.x)); END;
            CREATE TRIGGER harmless_call AFTER INSERT ON u BEGIN INSERT INTO log VALUES (harmless(NEW.x)); END;
            CREATE TABLE checked(z CHECK (direct(z) IS NOT NULL));
            """)
        try connection.registerFunction(name: "direct", argumentCount: 1) { $0[0] }
        #expect(try Self.integer("SELECT length(direct('abc'))", on: connection) == 3)
        #expect(Self.failure { try connection.execute("INSERT INTO t VALUES ('direct')") } == "unsafe use of direct()")
        #expect(Self.failure { try connection.execute("INSERT INTO checked VALUES (1)") } == "unsafe use of direct()")
        try connection.execute("INSERT INTO u VALUES ('harmless')")
        #expect(try Self.integer("SELECT count(*) FROM log WHERE y = 'harmless'", on: connection) == 1)
        #expect(try Self.integer("SELECT count(*) FROM t", on: connection) == 0)
    }

    @Test func seedKitsFetchFunctionsAreDirectOnly() throws {
        let connection = try SQLiteConnection.inMemory()
        try SQLFunctions.register(on: connection)
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES ('Äpfel')")
        #expect(try Self.integer("SELECT seedkit_like(x, 'Ä*') FROM t", on: connection) == 1)
        for call in ["seedkit_fold(NEW.x, 1)", "seedkit_like(NEW.x, '*')", "seedkit_matches(NEW.x, '(a+)+$', 0)"] {
            let name = String(call.prefix(while: { $0 != "(" }))
            try connection.execute(
                "CREATE TRIGGER tr AFTER UPDATE ON t BEGIN SELECT \(call); END")
            #expect(Self.failure { try connection.execute("UPDATE t SET x = x") } == "unsafe use of \(name)()")
            try connection.execute("DROP TRIGGER tr")
        }
    }

    @Test func anAuthorizerConfinesWhatCompiles() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t(x); CREATE TABLE secret(s); INSERT INTO secret VALUES ('s')")
        let onlyT = { (action: SQLiteAction) in action.isRowAccess && action.first == "t" && action.database == "main" }
        try connection.withAuthorizer(onlyT) {
            try connection.prepare("INSERT INTO t VALUES (1)").execute()
            for (refused, message) in [
                ("DELETE FROM secret", "not authorized"), ("ATTACH DATABASE ':memory:' AS other", "not authorized"),
                ("PRAGMA user_version = 3", "not authorized"), ("DROP TABLE t", "not authorized"),
                ("INSERT INTO t SELECT s FROM secret", "not authorized"),
                ("INSERT INTO t VALUES (abs(-2))", "not authorized to use function: abs"),
            ] {
                #expect(Self.failure { try connection.prepare(refused).execute() } == message, "\(refused)")
            }
        }
        // Outside the body nothing is judged any more.
        try connection.execute("DELETE FROM secret")
        #expect(try Self.integer("SELECT count(*) FROM t", on: connection) == 1)
    }
}
