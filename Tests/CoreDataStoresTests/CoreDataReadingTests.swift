// Reading Core Data stores as the frameworks of other years leave them (docs/CoreDataStores.md
// "Reading a Core Data store"), from stores made to the documented facts (no store made by Apple's Core Data is in
// the repository): rows still in the write-ahead log beside the store; an old framework's
// metadata (no digest or checksum keys, version 478) with `Z_MAX` -1 on every row and no
// `Z_MODELCACHE`; a new framework's persistent-history tables and their entities (16001 and up)
// beside the model's; and a stale `Z_NAME` after a renaming migration (entities are read by number).
import Foundation
import GraphStore
import PropertyLists
import Testing

@Suite struct CoreDataReadingTests {
    /// The garden store (two beds, three plants, two labels) in Core Data's layout at `path`.
    static func garden(at path: String, writeAheadLog: Bool = false) throws {
        var options = CoreDataFixtures.coreData
        options.writeAheadLog = writeAheadLog
        try CoreDataReadWriteTests.fill(
            try PersistentStore.open(at: path, model: CoreDataReadWriteTests.model(), options: options))
    }

    @Test func rowsStillInTheWriteAheadLogAreRead() throws {
        let folder = try CoreDataFixtures.scratch()
        let path = folder + "/Live.sqlite"
        try Self.garden(at: path, writeAheadLog: true)
        // An app's connection holds the log open (no checkpoint) while the files are copied.
        let app = try SQLiteConnection(path: path, mode: .readWrite)
        try app.execute("PRAGMA wal_autocheckpoint = 0")
        try app.execute(
            "INSERT INTO ZBED (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (3, 1, 1, 'East'); UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 1"
        )
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: folder + "/Copy.sqlite" + suffix)
        }
        app.close()
        #expect(FileManager.default.fileExists(atPath: folder + "/Copy.sqlite-wal"))
        let summary = try PersistentStore.summary(at: folder + "/Copy.sqlite")
        #expect(summary.objectCounts["Bed"] == 3)
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let store = try PersistentStore.open(
            at: folder + "/Copy.sqlite", model: CoreDataReadWriteTests.model(), options: readOnly)
        let context = try ObjectContext(store: store)
        let beds = try context.fetch(FetchRequest(entityName: "Bed"))
        #expect(try beds.compactMap { try $0.get("name", as: String.self) }.sorted() == ["East", "North", "South"])
    }

    @Test func anOldFrameworksStoreAndANewFrameworksHistoryTablesAreRead() throws {
        let path = try CoreDataFixtures.scratch() + "/Old.sqlite"
        try Self.garden(at: path)
        var plist = try CoreDataSchemaTests.metadataDictionary(path)
        plist["NSStoreModelVersionHashesDigest"] = nil
        plist["NSStoreModelVersionChecksumKey"] = nil
        plist["NSPersistenceFrameworkVersion"] = .integer(478)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let update = try connection.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        update.bind(blob: BinaryPropertyListWriter().write(.dictionary(plist)), at: 1)
        try update.execute()
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = -1")
        // Persistent history as framework 1344 keeps it (entities 16001…, tables A…).
        try connection.execute(
            """
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP TIMESTAMP);
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 4), (16002, 'TRANSACTION', 0, 2);
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1, 700000000), (2, 16002, 1, 700000001);
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 1);
            """)
        // A renaming migration can leave a stale name: entities are read by number.
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'OldHerb' WHERE Z_ENT = 4")
        connection.close()

        let summary = try PersistentStore.summary(at: path)
        #expect(summary.layout == "core-data")
        #expect(summary.objectCounts["Bed"] == 2 && summary.objectCounts["Plant"] == 2)
        #expect(summary.objectCounts["CHANGE"] == nil && summary.objectCounts["TRANSACTION"] == nil)
        let store = try PersistentStore.open(at: path, model: CoreDataReadWriteTests.model())
        #expect(try store.objectCounts()["Herb"] == 1)
        let context = try ObjectContext(store: store)
        let mint = try #require(
            try context.fetch(FetchRequest(entityName: "Plant", predicate: .key("name") == "mint")).first)
        #expect(mint.entity.name == "Herb")
        // A new object takes a key above the table's highest, whatever Z_MAX said, and Z_MAX follows.
        let bed = try context.insert("Bed")
        try bed.set("name", "East")
        try context.save()
        #expect(try CoreDataFixtures.column("SELECT Z_PK FROM ZBED WHERE ZNAME = 'East'", in: path) == ["3"])
        #expect(try CoreDataFixtures.column("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1", in: path) == ["3"])
        #expect(try CoreDataFixtures.column("SELECT count(*) FROM ACHANGE", in: path) == ["1"])
    }
}
