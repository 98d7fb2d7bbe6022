// Kill -9 in the middle of an import into a new Core Data–layout store (`--layout core-data`):
// the store stays whole (integrity check, whole batches only, the run's state in its own table
// while the run is active), and `--resume` ends with exactly the expected contents, `Z_MAX`
// covering every key and no table of SeedKit's left.
import Foundation
import GraphStore
import Testing

@Suite(.serialized) struct CoreDataImportKillTests {
    static let itemCount = 20_000

    /// A folder with the Grocery Dude model, 20 000 items in five units, and a plan of 250-record batches.
    static func fixture() throws -> String {
        let folder = try CoreDataCommandTests.groceryFolder()
        var csv = "name,quantity,unit\n"
        for index in 0..<itemCount { csv += "Item \(index),\(index % 7),u\(index % 5)\n" }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/items.csv"))
        try CoreDataCommandTests.writePlan(
            "plan.yaml", store: "Items.sqlite", settings: "layout: core-data\nbatchSize: 250", in: folder)
        return folder
    }

    /// The number of items, after checking the store is whole and holds each name once.
    static func checkWhole(_ store: String) throws -> Int {
        #expect(try CoreDataCommandTests.rows("PRAGMA integrity_check", in: store) == ["ok"])
        let counts = try CoreDataCommandTests.rows("SELECT count(*), count(DISTINCT ZNAME) FROM ZITEM", in: store)
        let parts = try #require(counts.first).split(separator: "|")
        #expect(parts.count == 2 && parts[0] == parts[1])
        return Int(parts[0]) ?? -1
    }

    @Test func resumeAfterKillCompletesExactly() throws {
        let folder = try Self.fixture()
        let store = folder + "/Items.sqlite"
        try ImportKillResumeTests.killMidway(folder, store: "Items.sqlite")

        let partial = try Self.checkWhole(store)
        #expect(partial % 250 == 0 && partial < Self.itemCount)
        #expect(try PersistentStore.metadata(at: store)["run.active"] != nil)
        #expect(try CoreDataCommandTests.rows("SELECT count(*) FROM seedkit_run", in: store) != ["0"])

        let resumed = try CLIProcess.run(["import", "plan.yaml", "--resume", "--json"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("\"inserted\" : \(Self.itemCount - partial)"))
        #expect(try Self.checkWhole(store) == Self.itemCount)
        #expect(
            try CoreDataCommandTests.rows(
                "SELECT i.ZQUANTITY, u.ZNAME FROM ZITEM i JOIN ZUNIT u ON u.Z_PK = i.ZUNIT WHERE i.ZNAME = 'Item 12345'",
                in: store) == ["4.0|u0"])
        #expect(try CoreDataCommandTests.rows("SELECT count(*) FROM ZUNIT", in: store) == ["5"])
        #expect(
            try CoreDataCommandTests.rows(
                "SELECT Z_MAX = (SELECT max(Z_PK) FROM ZITEM) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'", in: store)
                == ["1"])
        #expect(
            try CoreDataCommandTests.rows("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: store) == [])
        #expect(try PersistentStore.metadata(at: store)["run.active"] == nil)
    }
}
