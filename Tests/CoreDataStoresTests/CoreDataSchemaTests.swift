// The schema SeedKit writes in Core Data's layout, against what Core Data itself wrote:
// - the indexes of FreeCoreData's fetch-index model, which that project's test took from Apple's
//   Core Data on macOS (Fixtures/FreeCoreData, parsed from the excerpt, not retyped);
// - the facts established from real Core Data stores (docs/CoreDataStores.md): CoreDataPlus's
//   SampleModel numbered Car 1, SportCar 2, ExpensiveSportCar 3, Person 4 with its tables,
//   constraints and metadata; the Accounts store's join table between Account (2) and
//   Dataclass (7); companion columns, ordered positions and clashing names;
// and what the layout refuses to write because Core Data's facts do not settle it.
import Foundation
import GraphStore
import PropertyLists
import Testing

@Suite struct CoreDataSchemaTests {
    /// FreeCoreData's model (Folder ⟷ Note, Place with its sub-entity Cafe ⟷ Tag) with the fetch
    /// indexes SeedKit's model can declare (not the partial one, nor the R-tree).
    static func fetchIndexModel() throws -> ObjectModel {
        try ModelBuilder("FetchIndex")
            .entity("Folder") { folder in
                folder.attribute("name", .string)
                folder.toMany("notes", "Note", inverse: "folder")
            }
            .entity("Note") { note in
                note.attribute("title", .string)
                note.attribute("stamp", .date)
                note.attribute("lat", .float)
                note.toOne("folder", "Folder", inverse: "notes")
                note.index("byTitle", IndexElement("title"))
                note.index("byStampAndTitle", IndexElement("stamp", ascending: false), IndexElement("title"))
                note.index("byFolder", IndexElement("folder"))
                note.index("byFolderAndTitle", IndexElement("folder"), IndexElement("title", ascending: false))
            }
            .entity("Place") { place in
                place.attribute("label", .string)
                place.toMany("tags", "Tag", inverse: "places")
            }
            .entity("Cafe", parent: "Place") { cafe in
                cafe.attribute("roast", .string)
                cafe.index("byRoast", IndexElement("roast"))
            }
            .entity("Tag") { tag in
                tag.attribute("word", .string)
                tag.toMany("places", "Place", inverse: "tags")
            }
            .build()
    }

    /// The `@"NAME": @"CREATE …"` pairs of the fixture's expectation.
    static func appleIndexes() throws -> [String: String] {
        let text = try String(
            contentsOf: CoreDataFixtures.folder.appendingPathComponent("FreeCoreData/FetchIndexTests-excerpt.m"),
            encoding: .utf8)
        var indexes: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\"")
            guard parts.count >= 4, parts[1].allSatisfy({ $0.isLetter || $0 == "_" }), parts[3].hasPrefix("CREATE ")
            else { continue }
            indexes[String(parts[1])] = String(parts[3])
        }
        return indexes
    }

    @Test func indexesAreTheOnesAppleCoreDataMadeForTheSameModel() throws {
        var expected = try Self.appleIndexes()
        #expect(expected.count == 7)
        // SeedKit's model has no partial indexes: the one Core Data made for `title != nil` is left out.
        #expect(expected.removeValue(forKey: "Z_Note_byTitledOnly") != nil)
        let path = try CoreDataFixtures.scratch() + "/FetchIndex.sqlite"
        _ = try PersistentStore.open(at: path, model: Self.fetchIndexModel(), options: CoreDataFixtures.coreData)

        // The join table is found as the fixture's test finds it, and its index named from its columns.
        let tables = try CoreDataFixtures.schema("table", in: path)
        let join = try #require(tables.keys.first { $0.hasPrefix("Z_") && $0.hasSuffix("TAGS") })
        let columns = try CoreDataFixtures.rows("PRAGMA table_info(\(join))", in: path).map { $0[1] }
        let (first, second) = try (#require(columns.first), #require(columns.last))
        let joinIndex = "\(join)_\(second)_INDEX"
        expected[joinIndex] = "CREATE INDEX \(joinIndex) ON \(join) (\(second), \(first))"

        let indexes = try CoreDataFixtures.schema("index", in: path)
        #expect(Set(indexes.keys) == Set(expected.keys))
        for (name, sql) in expected {
            #expect(indexes[name] == sql, "\(name)")
        }
        #expect(join == "Z_3TAGS" && first == "Z_3PLACES" && second == "Z_5TAGS")
    }

    @Test func sampleModelIsNumberedTabledAndConstrainedAsCoreDataDid() throws {
        let model = try CoreDataFixtures.sampleModel()
        let path = try CoreDataFixtures.scratch() + "/Sample.sqlite"
        let store = try PersistentStore.open(at: path, model: model, options: CoreDataFixtures.coreData)

        #expect(
            try CoreDataFixtures.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: path)
                == [
                    ["1", "Car", "0", "0"], ["2", "SportCar", "1", "0"], ["3", "ExpensiveSportCar", "2", "0"],
                    ["4", "Person", "0", "0"],
                ])
        let tables = try CoreDataFixtures.schema("table", in: path)
        #expect(Set(tables.keys) == ["ZCAR", "ZPERSON", "Z_PRIMARYKEY", "Z_METADATA"])
        #expect(
            CoreDataFixtures.columnDefinitions(try #require(tables["ZCAR"])) == [
                "Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZISLIMITEDEDITION INTEGER",
                "ZOWNER INTEGER", "ZMARKEDFORDELETIONASOF TIMESTAMP", "ZMAKER VARCHAR", "ZMODEL VARCHAR",
                "ZNUMBERPLATE VARCHAR", "ZCOLOR BLOB",
            ])
        #expect(
            CoreDataFixtures.columnDefinitions(try #require(tables["ZPERSON"])) == [
                "Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZUPDATEDAT TIMESTAMP",
                "ZFIRSTNAME VARCHAR", "ZLASTNAME VARCHAR", "ZID BLOB",
            ])
        #expect(
            tables["Z_PRIMARYKEY"]
                == "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
        )
        #expect(
            tables["Z_METADATA"]
                == "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        #expect(
            try CoreDataFixtures.schema("index", in: path) == [
                "ZCAR_Z_ENT_INDEX": "CREATE INDEX ZCAR_Z_ENT_INDEX ON ZCAR (Z_ENT)",
                "ZCAR_ZOWNER_INDEX": "CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER)",
                "Z_Car_UNIQUE_numberPlate":
                    "CREATE UNIQUE INDEX Z_Car_UNIQUE_numberPlate ON ZCAR (ZNUMBERPLATE COLLATE BINARY ASC)",
                "Z_Person_UNIQUE_firstName_lastName":
                    "CREATE UNIQUE INDEX Z_Person_UNIQUE_firstName_lastName ON ZPERSON (ZFIRSTNAME COLLATE BINARY ASC, ZLASTNAME COLLATE BINARY ASC)",
            ])
        #expect(try CoreDataFixtures.column("PRAGMA auto_vacuum", in: path) == ["2"])
        #expect(try CoreDataFixtures.column("PRAGMA page_size", in: path) == ["4096"])

        // The metadata: one row, the store's UUID, Core Data's keys with the model's hashes.
        let row = try CoreDataFixtures.rows("SELECT Z_VERSION, Z_UUID FROM Z_METADATA", in: path)
        #expect(row == [["1", store.identifier.uuidString]])
        let plist = try Self.metadataDictionary(path)
        let hashes = model.coreDataVersionHashes
        #expect(plist["NSStoreType"] == "SQLite")
        #expect(plist["NSPersistenceFrameworkVersion"] == 1344)
        #expect(plist["NSStoreModelVersionHashesVersion"] == 3)
        #expect(plist["NSStoreModelVersionIdentifiers"] == ["1"])
        #expect(plist["_NSAutoVacuumLevel"] == "2")
        #expect(plist["NSStoreModelVersionHashesDigest"]?.stringValue == hashes.digest)
        #expect(plist["NSStoreModelVersionChecksumKey"]?.stringValue == hashes.checksum)
        let stored = try #require(plist["NSStoreModelVersionHashes"]?.dictionaryValue)
        #expect(stored.count == 4)
        for (name, hash) in hashes.entityHashes {
            #expect(stored[name]?.dataValue == hash, "\(name)")
        }
    }

    /// The metadata dictionary in `Z_METADATA.Z_PLIST`, read with the property-list reader alone.
    static func metadataDictionary(_ path: String) throws -> PropertyListDictionary {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare("SELECT Z_PLIST FROM Z_METADATA")
        _ = try statement.step()
        return try #require(try BinaryPropertyListReader().read(statement.data(0)).dictionaryValue)
    }

    @Test func manyToManyJoinTableIsNamedAsInTheAccountsStore() throws {
        // Entities named so that Account is number 2 and Dataclass number 7, as in the store.
        let model = try ModelBuilder("Accounts")
            .entity("Access") { $0.attribute("name", .string) }
            .entity("Account") { account in
                account.attribute("identifier", .string)
                account.toMany("enabledDataclasses", "Dataclass", inverse: "enabledAccounts")
            }
            .entity("Address") { $0.attribute("name", .string) }
            .entity("Alias") { $0.attribute("name", .string) }
            .entity("Calendar") { $0.attribute("name", .string) }
            .entity("Contact") { $0.attribute("name", .string) }
            .entity("Dataclass") { dataclass in
                dataclass.attribute("name", .string)
                dataclass.toMany("enabledAccounts", "Account", inverse: "enabledDataclasses")
            }
            .build()
        let path = try CoreDataFixtures.scratch() + "/Accounts.sqlite"
        _ = try PersistentStore.open(at: path, model: model, options: CoreDataFixtures.coreData)
        let join = try #require(try CoreDataFixtures.schema("table", in: path)["Z_2ENABLEDDATACLASSES"])
        #expect(
            CoreDataFixtures.columnDefinitions(join) == [
                "Z_2ENABLEDACCOUNTS INTEGER", "Z_7ENABLEDDATACLASSES INTEGER",
                "PRIMARY KEY (Z_2ENABLEDACCOUNTS, Z_7ENABLEDDATACLASSES)",
            ])
        #expect(
            try CoreDataFixtures.schema("index", in: path)["Z_2ENABLEDDATACLASSES_Z_7ENABLEDDATACLASSES_INDEX"]
                == "CREATE INDEX Z_2ENABLEDDATACLASSES_Z_7ENABLEDDATACLASSES_INDEX ON Z_2ENABLEDDATACLASSES (Z_7ENABLEDDATACLASSES, Z_2ENABLEDACCOUNTS)"
        )
    }

    @Test func companionsPositionsAndClashingNames() throws {
        // Book (1) with sub-entities Novel (2) and Manual (3), both declaring `name`; Page (4)
        // in an ordered to-many of Book.
        let model = try ModelBuilder("Library")
            .entity("Book") { book in
                book.attribute("title", .string)
                book.toMany("pages", "Page", inverse: "book", ordered: true)
            }
            .entity("Novel", parent: "Book") { $0.attribute("name", .string) }
            .entity("Manual", parent: "Book") { manual in
                manual.attribute("name", .string)
                manual.attribute("version", .integer32)
            }
            .entity("Page") { page in
                page.attribute("number", .integer32)
                page.toOne("book", "Book", inverse: "pages")
            }
            .build()
        let path = try CoreDataFixtures.scratch() + "/Library.sqlite"
        _ = try PersistentStore.open(at: path, model: model, options: CoreDataFixtures.coreData)
        #expect(
            try CoreDataFixtures.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: path) == [
                ["1", "Book", "0"], ["2", "Manual", "1"], ["3", "Novel", "1"], ["4", "Page", "0"],
            ])
        let tables = try CoreDataFixtures.schema("table", in: path)
        #expect(
            CoreDataFixtures.columnDefinitions(try #require(tables["ZBOOK"])) == [
                "Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZVERSION INTEGER", "ZNAME VARCHAR",
                "ZNAME1 VARCHAR", "ZTITLE VARCHAR",
            ])
        // Manual, numbered before Novel, keeps the plain name.
        #expect(try #require(tables["ZBOOK"]).contains("ZNAME VARCHAR, ZNAME1 VARCHAR"))
        #expect(
            try #require(tables["ZPAGE"])
                == "CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER INTEGER, ZBOOK INTEGER, Z1_BOOK INTEGER, Z_FOK_BOOK INTEGER )"
        )
        #expect(try CoreDataFixtures.schema("index", in: path)["ZPAGE_ZBOOK_INDEX"] != nil)
    }

    @Test func modelsCoreDataLayoutsCannotSettleAreRefusedBeforeAnyFileIsMade() throws {
        let folder = try CoreDataFixtures.scratch()
        let withoutInverse = try ModelBuilder("NoInverse")
            .entity("Bag") { $0.toMany("things", "Thing") }
            .entity("Thing") { $0.attribute("name", .string) }
            .build()
        let oneEntity = try ModelBuilder("People")
            .entity("Person") { person in
                person.attribute("name", .string)
                person.toMany("followers", "Person", inverse: "following")
                person.toMany("following", "Person", inverse: "followers")
            }
            .build()
        for (model, words) in [
            (withoutInverse, "Bag.things is a to-many without an inverse"), (oneEntity, "--template"),
        ] {
            let path = folder + "/\(model.name).sqlite"
            do {
                _ = try PersistentStore.open(at: path, model: model, options: CoreDataFixtures.coreData)
                Issue.record("\(model.name) was written")
            } catch let error as StoreError {
                guard case .unsupportedModel(let problems) = error.kind else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(problems.joined().contains(words), "\(problems)")
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
