// Core Data–layout stores written and read through contexts and deep copies: the rows hold what
// Core Data holds (dates since 2001, decimals as REAL, 16-byte UUIDs, external binary data
// marked 0x01, companions, positions, Z_MAX on the root rows, Z_OPT from 1 and up on update),
// a store reopens with its model (and only with its model), copies both ways and a merge compare
// equal to their sources, and the store keeps no table of SeedKit's between runs.
import DeepCopy
import Foundation
import GraphStore
import PropertyLists
import Testing
import TestSupport

@Suite struct CoreDataReadWriteTests {
    static let planted = GardenModel.planted
    static let photo = GardenModel.photo

    /// The garden model (TestSupport's GardenModel) with an external binary photo.
    static func model() throws -> ObjectModel {
        try GardenModel.build(photo: true)
    }

    /// Two beds, three plants (one a herb), two labels, every relationship set.
    static func fill(_ store: PersistentStore) throws {
        try GardenModel.fill(store, photo: true)
    }

    @Test func contextsWriteRowsAsCoreDataDoesAndReadThemBack() throws {
        let path = try CoreDataFixtures.scratch() + "/Garden.sqlite"
        try Self.fill(try PersistentStore.open(at: path, model: Self.model(), options: CoreDataFixtures.coreData))
        let column = { (sql: String) in try CoreDataFixtures.column(sql, in: path) }

        // Numbers: Bed 1, Label 2, Plant 3, Herb 4.
        #expect(try column("SELECT Z_ENT FROM ZPLANT ORDER BY ZNAME") == ["3", "4", "3"])
        #expect(try column("SELECT ZPLANTED FROM ZBED WHERE ZNAME = 'North'") == ["721692800.5"])
        #expect(
            try column("SELECT typeof(ZPRICE) || ' ' || ZPRICE FROM ZPLANT ORDER BY ZNAME") == [
                "nil", "real 1.25", "real 7.5",
            ])
        #expect(try column("SELECT length(ZCODE) FROM ZPLANT WHERE ZNAME = 'rose'") == ["16"])
        #expect(try column("SELECT hex(ZPHOTO) FROM ZPLANT WHERE ZNAME = 'rose'") == ["01000102FF0102"])
        #expect(try column("SELECT ZFAVORITE || ' ' || Z3_FAVORITE FROM ZPLANT WHERE ZNAME = 'rose'") == ["1 4"])
        #expect(try column("SELECT ZNAME FROM ZPLANT ORDER BY Z_FOK_BED") == ["rose", "mint", "fern"])
        #expect(try column("SELECT count(*) FROM Z_2PLANTS") == ["4"])
        #expect(
            try column(
                "SELECT p.ZNAME FROM Z_2PLANTS j JOIN ZPLANT p ON p.Z_PK = j.Z_3PLANTS JOIN ZLABEL l ON l.Z_PK = j.Z_2LABELS WHERE l.ZTEXT = 'sweet' ORDER BY j.Z_FOK_3PLANTS"
            )
                == ["rose", "mint"])
        #expect(try column("SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["2", "2", "3", "0"])
        #expect(try column("SELECT DISTINCT Z_OPT FROM ZPLANT") == ["1"])
        #expect(try column("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'") == [])

        // Reopened with its model (found to be Core Data's layout), it reads back what was written.
        let store = try PersistentStore.open(at: path, model: Self.model())
        #expect(store.layout.rules.name == "core-data")
        let context = try ObjectContext(store: store)
        let north = try #require(
            try context.fetch(FetchRequest(entityName: "Bed", predicate: .key("name") == "North")).first)
        #expect(try north.get("planted", as: Date.self) == Self.planted)
        let plants = try north.relatedObjects("plants")
        #expect(try plants.map { try $0.get("name", as: String.self) } == ["rose", "mint", "fern"])
        let rose = plants[0]
        #expect(try rose.get("photo", as: Data.self) == Self.photo)
        #expect(try rose.get("price", as: Decimal.self) == Decimal(string: "7.5"))
        #expect(try rose.related("favorite")?.entity.name == "Herb")
        #expect(try rose.relatedObjects("labels").map { try $0.get("text", as: String.self) } == ["sweet"])

        // An update raises Z_OPT; a new object takes a key above Z_MAX and raises it.
        try rose.set("price", Decimal(3))
        let basil = try context.insert("Herb")
        try basil.set("name", "basil")
        try context.save()
        #expect(try column("SELECT Z_OPT FROM ZPLANT WHERE ZNAME = 'rose'") == ["2"])
        #expect(try column("SELECT Z_PK FROM ZPLANT WHERE ZNAME = 'basil'") == ["4"])
        #expect(try column("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 3") == ["4"])

        // Without its model a Core Data store does not open: it holds none.
        #expect {
            _ = try PersistentStore.open(at: path)
        } throws: { ($0 as? StoreError)?.kind == .modelNotStored }
    }

    @Test func aModelWithOtherHashesIsRefusedNamingTheEntities() throws {
        let path = try CoreDataFixtures.scratch() + "/Garden.sqlite"
        try Self.fill(try PersistentStore.open(at: path, model: Self.model(), options: CoreDataFixtures.coreData))
        let other = try ModelBuilder("Garden")
            .entity("Bed") { $0.attribute("name", .string, optional: false) }
            .entity("Tree") { $0.attribute("name", .string) }
            .build()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try PersistentStore.open(at: path, model: other)
            Issue.record("opened with another model")
        } catch let error as StoreError {
            guard case .incompatibleModel(let differences) = error.kind else { throw error }
            #expect(differences.contains { $0.hasPrefix("Bed: version hash") })
            #expect(differences.contains("Tree: in the model, not in the store"))
            #expect(differences.contains("Plant: in the store, not in the model"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A copy of a whole store into a new store of its own layout moves its tables as they are,
    /// through a rollback journal, and ends in the journal the store options ask for.
    @Test(arguments: [false, true])
    func aCopyIntoANewStoreOfItsOwnLayoutIsEqualWithAFreshUUIDAndTheJournalAskedFor(coreData: Bool) throws {
        let folder = try CoreDataFixtures.scratch()
        let layout = coreData ? CoreDataFixtures.coreData : StoreOptions()
        let source = try PersistentStore.open(at: folder + "/Source.sqlite", model: Self.model(), options: layout)
        try Self.fill(source)
        for writeAheadLog in [true, false] {
            let path = folder + "/Copy-\(writeAheadLog).sqlite"
            var storeOptions = layout
            storeOptions.writeAheadLog = writeAheadLog
            let report = try DeepCopier.copy(from: source, toNewStoreAt: path, storeOptions: storeOptions)
            #expect(report.entities["Plant"]?.copied == 2)
            #expect(try CoreDataFixtures.column("PRAGMA journal_mode", in: path) == [writeAheadLog ? "wal" : "delete"])
            #expect(try CoreDataFixtures.column("PRAGMA integrity_check", in: path) == ["ok"])
            #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
            let copy = try PersistentStore.open(at: path, model: Self.model())
            #expect(copy.layout.rules.name == source.layout.rules.name)
            #expect(copy.identifier != source.identifier)
            #expect(try StoreDiff(source, copy).differences() == [])
            if coreData {
                #expect(
                    try CoreDataFixtures.column("SELECT Z_UUID FROM Z_METADATA", in: path) == [
                        copy.identifier.uuidString
                    ])
                #expect(try CoreDataFixtures.column("PRAGMA auto_vacuum", in: path) == ["2"])
            }
        }
    }

    @Test func copiesBetweenTheLayoutsCompareEqualBothWaysAndMerge() throws {
        let folder = try CoreDataFixtures.scratch()
        let seedKit = try PersistentStore.open(at: folder + "/SeedKit.sqlite", model: Self.model())
        try Self.fill(seedKit)
        _ = try DeepCopier.copy(
            from: seedKit, toNewStoreAt: folder + "/CoreData.sqlite", storeOptions: CoreDataFixtures.coreData)
        let coreData = try PersistentStore.open(at: folder + "/CoreData.sqlite", model: Self.model())
        #expect(coreData.layout.rules.name == "core-data")
        #expect(try StoreDiff(seedKit, coreData).differences() == [])
        #expect(
            try CoreDataFixtures.column(
                "SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: folder + "/CoreData.sqlite") == [
                    "2", "2", "3", "0",
                ])
        #expect(
            try CoreDataFixtures.column(
                "SELECT hex(ZPHOTO) FROM ZPLANT WHERE ZPHOTO IS NOT NULL", in: folder + "/CoreData.sqlite") == [
                    "01000102FF0102"
                ])
        #expect(try CoreDataFixtures.column("SELECT min(Z_OPT) FROM ZPLANT", in: folder + "/CoreData.sqlite") == ["1"])
        #expect(
            try CoreDataFixtures.column(
                "SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: folder + "/CoreData.sqlite") == [])

        _ = try DeepCopier.copy(from: coreData, toNewStoreAt: folder + "/Back.sqlite")
        let back = try PersistentStore.open(at: folder + "/Back.sqlite")
        #expect(try StoreDiff(seedKit, back).differences() == [])
        #expect(
            try CoreDataFixtures.column(
                "SELECT hex(photo) FROM Plant WHERE photo IS NOT NULL", in: folder + "/Back.sqlite") == ["000102FF0102"]
        )

        // A merge into a changed Core Data store puts back what the source holds.
        try GardenModel.editRose(in: coreData)
        #expect(try StoreDiff(seedKit, coreData).differences() == GardenModel.roseEdits)
        var options = DeepCopyOptions()
        options.onConflict = .update
        let report = try DeepCopier(from: seedKit, to: coreData, options: options).run()
        #expect(report.entities["Plant"]?.updated == 1)
        #expect(try StoreDiff(seedKit, coreData).differences() == [])
        // The row version rose above the context's (2): an app holding the row sees it changed.
        #expect(
            try CoreDataFixtures.column(
                "SELECT Z_OPT > 2 FROM ZPLANT WHERE ZNAME = 'rose'", in: folder + "/CoreData.sqlite")
                == ["1"])
        #expect(
            try CoreDataFixtures.column(
                "SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: folder + "/CoreData.sqlite") == [])
    }

    @Test func metadataKeepsAppKeysAndRunStateLivesOnlyDuringARun() throws {
        let path = try CoreDataFixtures.scratch() + "/Garden.sqlite"
        let store = try PersistentStore.open(at: path, model: Self.model(), options: CoreDataFixtures.coreData)
        // An app's key of another type than text, as Core Data keeps it.
        var dictionary = try CoreDataSchemaTests.metadataDictionary(path)
        dictionary["DefaultDataImported"] = true
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let update = try connection.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        update.bind(blob: BinaryPropertyListWriter().write(.dictionary(dictionary)), at: 1)
        try update.execute()
        connection.close()

        try store.setMetadata(["seed.version": "2026.11"])
        let written = try CoreDataSchemaTests.metadataDictionary(path)
        #expect(written["DefaultDataImported"] == true)
        #expect(written["seed.version"] == "2026.11")
        #expect(try store.metadata()["seed.version"] == "2026.11")
        #expect(try PersistentStore.metadata(at: path).propertyList?["NSStoreType"] == "SQLite")
        #expect {
            try store.setMetadata(["NSStoreType": "Binary"])
        } throws: { ($0 as? StoreError)?.kind == .reservedMetadataKey("NSStoreType") }

        let context = try ObjectContext(store: store)
        let run = try context.beginRun(id: "test")
        #expect(
            try CoreDataFixtures.column(
                "SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%' ORDER BY name", in: path) == [
                    "seedkit_run", "seedkit_undo",
                ])
        #expect(try store.metadata()["run.active"] != nil)
        #expect(try CoreDataSchemaTests.metadataDictionary(path)["run.active"] == nil)
        let bed = try context.insert("Bed")
        try bed.set("name", "East")
        try context.finishRun(run)
        #expect(
            try CoreDataFixtures.column(
                "SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%' OR name = 'sqlite_sequence'", in: path) == []
        )
        #expect(try store.metadata()["run.active"] == nil)
        #expect(try CoreDataFixtures.column("SELECT ZNAME FROM ZBED", in: path) == ["East"])
    }
}
