// A new Core Data–layout store from a template (docs/CoreDataStores.md "Templates"): a model
// with both sides of a many-to-many on one entity, whose join table's name the model cannot
// predict, is refused without a template and written into a copy of one. The template here is
// made to the documented layout with the join table named after `followers` (what an app's Core
// Data would have chosen is what the template says): the new store keeps that table, gets a UUID
// of its own, writes and reads the links through it, and leaves the template unchanged; a
// template holding objects, or made for another model, is refused.
import Foundation
import GraphStore
import PropertyLists
import Testing

@Suite struct CoreDataTemplateTests {
    /// Person (1): name, followers ⟷ following, both to-many.
    static func model() throws -> ObjectModel {
        try ModelBuilder("People")
            .entity("Person") { person in
                person.attribute("name", .string, optional: false)
                person.toMany("followers", "Person", inverse: "following")
                person.toMany("following", "Person", inverse: "followers")
                person.unique("name")
            }
            .build()
    }

    /// An empty store of `model` as Core Data lays it out, the join table `Z_1FOLLOWERS`
    /// (`followers`' column `Z_1FOLLOWING` holds the followed person, `following`'s column
    /// `Z_1FOLLOWERS` the follower).
    static func template(at path: String, model: ObjectModel) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        defer { connection.close() }
        try connection.execute("PRAGMA page_size = 4096")
        try connection.execute("PRAGMA auto_vacuum = 2")
        try connection.execute(
            """
            CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE Z_1FOLLOWERS ( Z_1FOLLOWING INTEGER, Z_1FOLLOWERS INTEGER, PRIMARY KEY (Z_1FOLLOWING, Z_1FOLLOWERS) );
            CREATE INDEX Z_1FOLLOWERS_Z_1FOLLOWERS_INDEX ON Z_1FOLLOWERS (Z_1FOLLOWERS, Z_1FOLLOWING);
            CREATE UNIQUE INDEX Z_Person_UNIQUE_name ON ZPERSON (ZNAME COLLATE BINARY ASC);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Person', 0, 0);
            """)
        let hashes = model.coreDataVersionHashes
        let plist: PropertyListDictionary = [
            "NSPersistenceFrameworkVersion": .integer(1344),
            "NSStoreModelVersionHashes": .dictionary(
                PropertyListDictionary(hashes.entityHashes.map { ($0.key, .data($0.value)) })),
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionChecksumKey": .string(hashes.checksum),
            "NSStoreModelVersionHashesDigest": .string(hashes.digest),
            "NSStoreType": "SQLite",
            "_NSAutoVacuumLevel": "2",
        ]
        let insert = try connection.prepare("INSERT INTO Z_METADATA VALUES (1, ?, ?)")
        insert.bind(text: "11111111-2222-3333-4444-555555555555", at: 1)
        insert.bind(blob: BinaryPropertyListWriter().write(.dictionary(plist)), at: 2)
        try insert.execute()
    }

    @Test func aModelThatNeedsATemplateIsWrittenIntoACopyOfOne() throws {
        let folder = try CoreDataFixtures.scratch()
        let model = try Self.model()
        let template = folder + "/Empty.sqlite"
        try Self.template(at: template, model: model)
        let before = try Data(contentsOf: URL(fileURLWithPath: template))

        #expect {
            _ = try PersistentStore.open(at: folder + "/Plain.sqlite", model: model, options: CoreDataFixtures.coreData)
        } throws: { "\($0)".contains("--template EMPTY.sqlite") }

        var options = CoreDataFixtures.coreData
        options.template = template
        let path = folder + "/People.sqlite"
        let store = try PersistentStore.open(at: path, model: model, options: options)
        let context = try ObjectContext(store: store)
        let ann = try context.insert("Person")
        try ann.set("name", "Ann")
        let bob = try context.insert("Person")
        try bob.set("name", "Bob")
        let cy = try context.insert("Person")
        try cy.set("name", "Cy")
        try ann.setRelatedObjects("following", to: [bob, cy])
        try context.save()

        // Ann follows Bob and Cy: each link one row of the template's table, the follower in Z_1FOLLOWERS.
        #expect(
            try CoreDataFixtures.rows(
                "SELECT Z_1FOLLOWERS, Z_1FOLLOWING FROM Z_1FOLLOWERS ORDER BY Z_1FOLLOWING", in: path)
                == [["1", "2"], ["1", "3"]])
        #expect(
            try CoreDataFixtures.column("SELECT name FROM sqlite_master WHERE name LIKE 'Z_1FOLLOWING%'", in: path)
                == [])
        #expect(try CoreDataFixtures.column("SELECT Z_MAX FROM Z_PRIMARYKEY", in: path) == ["3"])
        let uuid = try CoreDataFixtures.column("SELECT Z_UUID FROM Z_METADATA", in: path)
        #expect(uuid != ["11111111-2222-3333-4444-555555555555"] && uuid == [store.identifier.uuidString])

        let reopened = try PersistentStore.open(at: path, model: model)
        let reader = try ObjectContext(store: reopened)
        let bobAgain = try #require(
            try reader.fetch(FetchRequest(entityName: "Person", predicate: .key("name") == "Bob")).first)
        #expect(try bobAgain.relatedObjects("followers").compactMap { try $0.get("name", as: String.self) } == ["Ann"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: template)) == before)

        // The written store holds objects: it is no template; nor is a store of another model.
        var fromFull = CoreDataFixtures.coreData
        fromFull.template = path
        #expect {
            _ = try PersistentStore.open(at: folder + "/Again.sqlite", model: model, options: fromFull)
        } throws: { "\($0)".contains("it holds objects (3 Person)") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/Again.sqlite"))
        var otherModel = CoreDataFixtures.coreData
        otherModel.template = template
        #expect {
            _ = try PersistentStore.open(
                at: folder + "/Other.sqlite", model: CoreDataReadWriteTests.model(), options: otherModel)
        } throws: { "\($0)".contains("it was made for another model") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/Other.sqlite"))
    }
}
