// A store from elsewhere is untrusted input (docs/Security.md): a schema that would run
// something (a view, a trigger or CHECK calling a function, a generated column, a computed
// DEFAULT, a virtual table) is refused when the store is opened; a damaged file (truncated, a
// corrupted page, an impossible header, a schema that does not parse, not SQLite at all, a -wal
// that is not its own) is a StoreError of the right kind, never a crash; a leftover run's undo
// log cannot make SeedKit run SQL of the file's choosing; and reading a store changes no file.
import Foundation
import Testing

@testable import GraphStore

@Suite struct UntrustedStoreTests {
    /// Read-only options, as the commands that read stores use.
    private static func readOnly(verify: Bool = false) -> StoreOptions {
        var options = StoreOptions()
        options.readOnly = true
        options.verifyIntegrity = verify
        return options
    }

    /// Opens the store read-only and reads what `inspect` reads: metadata and counts.
    private static func inspect(_ path: String, verify: Bool = false) throws -> [String: Int] {
        let store = try PersistentStore.open(at: path, options: readOnly(verify: verify))
        _ = try store.metadata()
        return try store.objectCounts()
    }

    /// The StoreError `body` throws (recording an issue when it throws another error or none).
    private static func storeError(_ body: () throws -> Void) -> StoreError? {
        do {
            try body()
            Issue.record("no error")
        } catch let error as StoreError {
            return error
        } catch {
            Issue.record("not a StoreError: \(error)")
        }
        return nil
    }

    // MARK: - Schemas that would run something

    @Test func aViewIsRefusedWhenTheStoreIsOpened() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run("CREATE VIEW cheap AS SELECT seedkit_fold(name, 1) AS name FROM Item", on: path)
        let error = Self.storeError { _ = try Self.inspect(path) }
        #expect(error?.kind == .unsafeSchema(["view \"cheap\""]))
        #expect(error?.description == "\(path): the store's schema holds what SeedKit does not run: view \"cheap\"")
        // The metadata alone (`seedkit model STORE`) and a read-write open are refused alike.
        #expect(Self.storeError { _ = try PersistentStore.metadata(at: path) }?.kind == error?.kind)
        #expect(Self.storeError { _ = try PersistentStore.open(at: path) }?.kind == error?.kind)
    }

    @Test func aTableReplacedByAViewIsRefused() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run(
            """
            DROP TABLE "Item";
            CREATE VIEW "Item" AS SELECT 1 AS pk, 4 AS ent, 1 AS opt FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n)
            """, on: path)
        #expect(Self.storeError { _ = try Self.inspect(path) }?.kind == .unsafeSchema(["view \"Item\""]))
    }

    @Test(arguments: [
        ("seedkit_fold(NEW.name, 1)", "unsafe use of seedkit_fold()"),
        ("seedkit_matches(NEW.name, '(a+)+$', 0)", "unsafe use of seedkit_matches()"),
        ("load_extension('/tmp/evil.so')", "unsafe use of load_extension()"),
        ("app_defined(NEW.name)", "no such function: app_defined"),
    ])
    func aTriggerCallingAFunctionIsRefused(call: String, reason: String) throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run("CREATE TRIGGER audit AFTER INSERT ON \"Item\" BEGIN SELECT \(call); END", on: path)
        let error = Self.storeError { _ = try Self.inspect(path) }
        #expect(
            error?.kind
                == .unsafeSchema([
                    "table \"Item\": its triggers, CHECK constraints or indexes cannot be compiled (\(reason))"
                ]))
    }

    @Test(arguments: [
        (
            "CREATE TABLE \"Extra\"(x TEXT CHECK (seedkit_like(x, 'a*')))",
            "table \"Extra\" CHECK (seedkit_like(x, 'a*'))"
        ),
        (
            "CREATE TABLE \"Extra\"(x, /* CHECK (a()) */ CONSTRAINT c check(length(printf('%.*c', 1e9, x)) > 0))",
            "table \"Extra\" CHECK (length(printf('%.*c', 1e9, x)) > 0)"
        ),
        ("CREATE INDEX folded ON \"Item\"(seedkit_fold(name, 1))", "\"folded\": unsafe use of seedkit_fold()"),
        (
            "CREATE INDEX some ON \"Item\"(name) WHERE seedkit_like(name, 'A*')",
            "\"some\": unsafe use of seedkit_like()"
        ),
    ])
    func checkConstraintsAndIndexesCallingAFunctionAreRefused(sql: String, refused: String) throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run(sql, on: path)
        #expect(Self.storeError { _ = try Self.inspect(path) }?.kind == .unsafeSchema([refused]))
    }

    @Test func generatedColumnsComputedDefaultsAndVirtualTablesAreRefused() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run(
            """
            ALTER TABLE "Item" ADD COLUMN doubled AS (price * 2);
            CREATE TABLE "Padding"(x DEFAULT (printf('%.*c', 1000000000, 'x')));
            CREATE VIRTUAL TABLE notes USING fts5(text);
            """, on: path)
        let error = Self.storeError { _ = try Self.inspect(path) }
        #expect(
            error?.kind
                == .unsafeSchema([
                    "virtual table \"notes\"", "generated column \"Item\".\"doubled\"",
                    "column \"Padding\".\"x\" DEFAULT printf('%.*c', 1000000000, 'x')",
                ]))
    }

    @Test func harmlessTriggersConstraintsAndLiteralDefaultsAreRead() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run(
            """
            ALTER TABLE "Unit" ADD COLUMN note TEXT DEFAULT 'n/a';
            CREATE TABLE "Extra"(x INTEGER CHECK (x > 0 AND x < 5) DEFAULT (-1), "check(" DEFAULT X'00ff');
            CREATE TRIGGER stamp AFTER UPDATE ON "Item" BEGIN UPDATE "Extra" SET x = x + 1; END;
            """, on: path)
        #expect(try Self.inspect(path) == ["Item": 3, "Unit": 1, "Tag": 1, "Location": 0, "ShoppingList": 0])
    }

    @Test func checkConstraintsAreFoundOutsideStringsAndComments() {
        let sql = """
            CREATE TABLE t(a CHECK(a > 0), "check(x)" TEXT DEFAULT 'check(y)', -- check (z)
            b CONSTRAINT positive CHECK ( (b) > length('(') ), /* CHECK (w) */ [check] INTEGER)
            """
        #expect(StoreSchemaCheck.checkConstraints(in: sql) == ["a > 0", " (b) > length('(') "])
    }

    @Test func onlyAFunctionCallMakesADefaultComputed() {
        for literal in ["0", "-1.5e3", "'a(b)'", "X'00'", "NULL", "CURRENT_TIMESTAMP", "(1 + 2)", "'it''s (x)'"] {
            #expect(!StoreSchemaCheck.callsFunction(literal), "\(literal)")
        }
        for computed in ["abs(-1)", "(random ())", "\"zeroblob\"(9)", "'a' || lower('B')", "_f(1)"] {
            #expect(StoreSchemaCheck.callsFunction(computed), "\(computed)")
        }
    }

    // MARK: - Damaged files

    @Test func aSchemaThatDoesNotParseIsDamaged() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run("CREATE TABLE \"Extra\"(x)", on: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let statement = Data("CREATE TABLE \"Extra\"(x)".utf8)
        let offset = try #require(bytes.range(of: statement)).lowerBound
        // The same length, so the file stays a well-formed b-tree: only the SQL is wrong.
        try stores.patch(path, at: offset, with: Array("CREATE TABLE \"Extra\"(x ".utf8))
        #expect(
            Self.storeError { _ = try Self.inspect(path) }?.kind
                == .damaged("malformed database schema (Extra) - incomplete input"))
        // ATTACH where a CREATE belongs does not run either: the schema is damaged.
        try stores.patch(path, at: offset, with: Array("ATTACH 'e.sqlite' AS x;".utf8))
        #expect(Self.storeError { _ = try Self.inspect(path) }?.kind == .damaged("malformed database schema (Extra)"))
        #expect(!FileManager.default.fileExists(atPath: stores.folder + "/e.sqlite"))
    }

    @Test func aTruncatedFileIsDamaged() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(size / 2))
        for verify in [false, true] {
            let error = Self.storeError { _ = try Self.inspect(path, verify: verify) }
            #expect(error?.kind == .damaged("database disk image is malformed"), "verify: \(verify)")
            #expect(error?.description == "\(path): the store file is damaged: database disk image is malformed")
        }
    }

    @Test func aCorruptedPageIsDamagedWhereItIsReadOrWhenVerified() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        let page = try stores.rootPage(of: "Item", in: path)
        try stores.patch(path, at: (page - 1) * 4096 + 8, with: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        // The schema and metadata are intact: the store opens; reading the items fails cleanly.
        let store = try PersistentStore.open(at: path, options: Self.readOnly())
        let error = Self.storeError { _ = try store.objectCounts() }
        #expect(error?.kind == .damaged("database disk image is malformed"))
        let context = try ObjectContext(store: store)
        #expect(Self.storeError { _ = try context.fetch(FetchRequest(entityName: "Item")) }?.kind == error?.kind)
        // Verified, it is refused when it is opened, with what quick_check found.
        guard case .damaged(let found) = Self.storeError({ _ = try Self.inspect(path, verify: true) })?.kind else {
            Issue.record("not refused as damaged")
            return
        }
        #expect(found.hasPrefix("quick_check: ") || found == "database disk image is malformed", "\(found)")
    }

    @Test func aCorruptedPageMetWhileFaultingIsDamaged() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        let (itemID, unitID) = try {
            let context = try ObjectContext(store: try PersistentStore.open(at: path, options: Self.readOnly()))
            let item = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
            return (item.objectID, try #require(try item.related("unit")).objectID)
        }()
        let page = try stores.rootPage(of: "Item", in: path)
        try stores.patch(path, at: (page - 1) * 4096 + 8, with: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let context = try ObjectContext(store: try PersistentStore.open(at: path, options: Self.readOnly()))
        let damaged = StoreError.Kind.damaged("database disk image is malformed")
        // An item's fault fires over the damaged page; so does the unit's to-many of items.
        #expect(Self.storeError { _ = try context.object(with: itemID).get("name", as: String.self) }?.kind == damaged)
        let unit = try context.existingObject(with: unitID)
        #expect(Self.storeError { _ = try unit.relatedObjects("items") }?.kind == damaged)
    }

    @Test(arguments: [
        (16, [0x00, 0x03], "impossible header: file is not a database"),  // page size 3
        (18, [0x03, 0x03], "impossible header: file is not a database"),  // file format 3
        (20, [0xFF], "database disk image is malformed"),  // 255 reserved bytes per page
        (28, [0x7F, 0xFF, 0xFF, 0xFF], "database disk image is malformed"),  // 2^31 - 1 pages
        (44, [0x00, 0x00, 0x00, 0x05], "impossible header: schema format 5"),
        (56, [0x00, 0x00, 0x00, 0x02], "impossible header: text encoding UTF-16le (a store is UTF-8)"),
        (56, [0x00, 0x00, 0x00, 0x09], "impossible header: text encoding number 9 (a store is UTF-8)"),
    ])
    func anImpossibleHeaderIsDamaged(offset: Int, bytes: [UInt8], reason: String) throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.patch(path, at: offset, with: bytes)
        #expect(Self.storeError { _ = try Self.inspect(path) }?.kind == .damaged(reason))
        #expect(Self.storeError { _ = try PersistentStore.metadata(at: path) }?.kind == .damaged(reason))
    }

    @Test func tablesThatDoNotMatchTheStoresModelAreDamaged() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        try stores.run("ALTER TABLE \"Unit\" RENAME COLUMN \"name\" TO \"nom\"; DROP TABLE \"Item_tags\"", on: path)
        let error = Self.storeError { _ = try Self.inspect(path) }
        #expect(
            error?.kind
                == .damaged(
                    "its tables do not match its model: \"Unit\" has no column \"name\"; no table \"Item_tags\""))
        // Column names match as SQLite matches them, without regard to case.
        try stores.run("ALTER TABLE \"Unit\" RENAME COLUMN \"nom\" TO \"NAME\"", on: path)
        try stores.run("CREATE TABLE \"Item_tags\"(\"SRC\" INTEGER, \"Dst\" INTEGER)", on: path)
        #expect(try Self.inspect(path)["Unit"] == 1)
    }

    @Test func aFileThatIsNotSQLiteIsNotAStore() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        for (name, contents) in [
            ("text.sqlite", Data(String(repeating: "not a database at all\n", count: 20).utf8)),
            ("empty.sqlite", Data()),
            ("zip.sqlite", Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 4096))),
        ] {
            let path = stores.folder + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: contents))
            let error = Self.storeError { _ = try Self.inspect(path) }
            #expect(error?.kind == .notAStore, "\(name)")
            #expect(error?.description == "\(path): not a SeedKit store")
        }
    }

    // MARK: - Write-ahead logs

    /// Writes a -wal that belongs to another database beside the store at `path`: the log of a
    /// connection to `other`, copied while the connection holds it (an app using its store).
    private static func plantLog(of other: String, beside path: String, touching sql: String) throws {
        let writer = try SQLiteConnection(path: other, mode: .readWrite)
        defer { writer.close() }
        _ = try writer.setJournalMode(.wal)
        try writer.execute("PRAGMA wal_autocheckpoint = 0; " + sql)
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
    }

    @Test func aLogOfAnotherStoreIsRefused() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        let other = try stores.store("Other.sqlite")
        let mine = try #require(try PersistentStore.metadata(at: path).storeUUID)
        let theirs = try #require(try PersistentStore.metadata(at: other).storeUUID)
        try Self.plantLog(of: other, beside: path, touching: "INSERT INTO seedkit_metadata VALUES ('note', 'x')")
        #expect(
            Self.storeError { _ = try Self.inspect(path) }?.kind
                == .damaged("the -wal beside it is not its own (it turns store \(mine) into store \(theirs))"))
    }

    @Test func aLogOfAnotherPageSizeIsRefused() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        let other = stores.folder + "/small-pages.sqlite"
        let creator = try SQLiteConnection(path: other, mode: .readWriteCreate)
        try creator.execute("PRAGMA page_size = 1024; CREATE TABLE t(x)")
        creator.close()
        try Self.plantLog(of: other, beside: path, touching: "INSERT INTO t VALUES (1)")
        #expect(
            Self.storeError { _ = try Self.inspect(path) }?.kind
                == .damaged("the -wal beside it is not its own (its pages are 1024 bytes, the store's 4096)"))
    }

    @Test func aLogWithoutAValidHeaderIsIgnoredAsSQLiteIgnoresIt() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store(shipped: false)
        let garbage = Data((0..<20000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: garbage))
        #expect(try Self.inspect(path)["Item"] == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == garbage)
    }

    // MARK: - Reading changes nothing

    /// Everything a reader does: the store opened read-only, its metadata, counts, every object
    /// of every entity fetched with its relationships, and the metadata alone.
    private static func readEverything(_ path: String) throws {
        let store = try PersistentStore.open(at: path, options: readOnly())
        _ = try store.metadata()
        #expect(try store.objectCounts()["Item"] == 3)
        let context = try ObjectContext(store: store)
        for entity in store.model.entities {
            for object in try context.fetch(FetchRequest(entityName: entity.name)) {
                for relationship in entity.relationships where relationship.isToMany {
                    _ = try object.relatedObjects(relationship.name)
                }
            }
        }
        _ = try PersistentStore.metadata(at: path)
    }

    /// The names of the store's items, read through a read-only store's context.
    private static func itemNames(_ path: String) throws -> [String] {
        let context = try ObjectContext(store: try PersistentStore.open(at: path, options: readOnly()))
        return try context.fetch(FetchRequest(entityName: "Item")).map { try $0.get("name", as: String.self) ?? "" }
            .sorted()
    }

    @Test(arguments: [true, false])
    func readingAStoreLeftAsOneFileChangesNothing(shipped: Bool) throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store(shipped: shipped)
        #expect(StoreFileHeader(path: path)?.isWriteAheadLog == !shipped)
        let before = try stores.snapshot()
        #expect(before.keys.sorted() == ["Upload.sqlite"])
        try Self.readEverything(path)
        #expect(try stores.snapshot() == before)
    }

    @Test func readingAStoreInUseChangesNeitherItNorItsLog() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store(shipped: false)
        // An app has the store open and has written to it since the last checkpoint.
        let app = try SQLiteConnection(path: path, mode: .readWrite)
        defer { app.close() }
        try app.execute("PRAGMA wal_autocheckpoint = 0; UPDATE \"Item\" SET name = 'Quinces' WHERE sku = 'S-2'")
        let before = try stores.snapshot()
        #expect(before.keys.sorted() == ["Upload.sqlite", "Upload.sqlite-shm", "Upload.sqlite-wal"])
        try Self.readEverything(path)
        #expect(try Self.itemNames(path) == ["Apples", "Pears", "Quinces"])
        #expect(try stores.snapshot() == before)
    }

    @Test func readingAnUploadedLogWithoutItsIndexOnlyAddsTheIndex() throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store(shipped: false)
        do {
            let app = try SQLiteConnection(path: path, mode: .readWrite)
            defer { app.close() }
            try app.execute("PRAGMA wal_autocheckpoint = 0; UPDATE \"Item\" SET name = 'Quinces' WHERE sku = 'S-2'")
            let upload = stores.folder + "/upload"
            try FileManager.default.createDirectory(atPath: upload, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: path, toPath: upload + "/App.sqlite")
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: upload + "/App.sqlite-wal")
        }
        let uploaded = stores.folder + "/upload/App.sqlite"
        let database = try Data(contentsOf: URL(fileURLWithPath: uploaded))
        let log = try Data(contentsOf: URL(fileURLWithPath: uploaded + "-wal"))
        try Self.readEverything(uploaded)
        // The log's transaction is read; SQLite needed its -shm index to read it, and left it.
        #expect(try Self.itemNames(uploaded) == ["Apples", "Pears", "Quinces"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: uploaded)) == database)
        #expect(try Data(contentsOf: URL(fileURLWithPath: uploaded + "-wal")) == log)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: stores.folder + "/upload").sorted()
                == ["App.sqlite", "App.sqlite-shm", "App.sqlite-wal"])
    }

    // MARK: - The run journal's undo log

    /// The rows of the store at `path` an undo could touch, and its metadata keys.
    private static func contents(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let rows = try connection.prepare(
            "SELECT sku || '=' || name FROM \"Item\" UNION ALL SELECT key FROM seedkit_metadata ORDER BY 1")
        var contents: [String] = []
        while try rows.step() { contents.append(rows.string(0)) }
        return contents
    }

    @Test(arguments: [
        ("ATTACH DATABASE 'OUTSIDE' AS evil", "not authorized"),
        ("VACUUM INTO 'OUTSIDE'", "not authorized"),
        ("DELETE FROM seedkit_metadata", "not authorized"),
        ("UPDATE \"Item\" SET name = load_extension('/tmp/evil.so')", "not authorized to use function: load_extension"),
        (
            "UPDATE \"Item\" SET name = (SELECT value FROM seedkit_metadata)",
            "access to seedkit_metadata.value is prohibited"
        ),
        ("PRAGMA user_version = 7", "not authorized"),
        ("SELECT name FROM \"Item\"", "not authorized"),
        (
            "UPDATE \"Item\" SET name = 'x'; ATTACH DATABASE 'OUTSIDE' AS evil",
            "prepare takes one statement; use execute(_:) for several"
        ),
    ])
    func anUndoLogCanOnlyWriteTheStoresOwnRows(logged: String, refusal: String) throws {
        let stores = try CraftedStores()
        defer { stores.remove() }
        let path = try stores.store()
        let outside = stores.folder + "/outside.sqlite"
        let sql = logged.replacingOccurrences(of: "OUTSIDE", with: outside).replacingOccurrences(of: "'", with: "''")
        try stores.run(
            """
            CREATE TABLE seedkit_undo(seq INTEGER PRIMARY KEY AUTOINCREMENT, sql TEXT NOT NULL);
            INSERT INTO seedkit_undo(sql) VALUES ('\(sql)');
            INSERT INTO seedkit_metadata(key, value)
                VALUES ('run.active', '{"id":"crafted","watermarks":{"Item":3,"Unit":1,"Tag":1}}');
            """, on: path)
        let before = try Self.contents(path)
        let context = try ObjectContext(store: try PersistentStore.open(at: path))
        let error = Self.storeError { try context.undoLeftoverRun() }
        guard case .sqlite(let sqlite) = error?.kind else {
            Issue.record("not refused: \(String(describing: error))")
            return
        }
        #expect(sqlite.message == refusal)
        #expect(try Self.contents(path) == before)
        #expect(!FileManager.default.fileExists(atPath: outside))
    }
}
