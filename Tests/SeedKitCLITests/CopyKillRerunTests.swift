// Kill -9 in the middle of `seedkit copy`: 40,000 unkeyed Grocery Dude items copied 50 at a time
// into a store holding the user's own items. The killed copy leaves whole batches and its run
// marker; a re-run undoes them first and ends with exactly the user's objects plus one copy of
// each source object (no duplicates), and the store passes `PRAGMA integrity_check`. The same
// after a kill in the middle of a whole-store copy into a new store, which writes through a
// rollback journal: the re-run rolls back the torn transaction and undoes the run first.
import Foundation
import GraphStore
import Testing
import TestSupport

@Suite(.serialized) struct CopyKillRerunTests {
    static let itemCount = 40_000
    /// Distinct units, places at home and aisles among the source items.
    static let units = 7
    static let homes = 5
    static let aisles = 9

    /// A folder with the Grocery Dude model, a source store of `itemCount` items and a user store of 3.
    static func fixture() throws -> String {
        let folder = try ScratchFolder.make("seedkit-copy-kill")
        try FileManager.default.copyItem(
            atPath: ExitCodeTests.repository.appendingPathComponent("SeedData/GroceryDude/GroceryDude.xcdatamodeld")
                .path,
            toPath: folder + "/GroceryDude.xcdatamodeld")
        var csv = "name,quantity,unit,home,aisle\n"
        for index in 0..<itemCount {
            csv += "Item \(index),\(index % 10),u\(index % units),h\(index % homes),a\(index % aisles)\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/source.csv"))
        let user =
            "name,quantity,unit,home,aisle\nMilk,3,l,Fridge,Dairy\nTea,1,box,Pantry,Drinks\nJam,2,jar,Pantry,Jars\n"
        try Data(user.utf8).write(to: URL(fileURLWithPath: folder + "/user.csv"))
        for (plan, csvFile, store) in [("source", "source.csv", "Source.sqlite"), ("user", "user.csv", "User.sqlite")] {
            let text = """
                model: GroceryDude.xcdatamodeld
                store: \(store)
                sources:
                  - file: \(csvFile)
                    entity: Item
                    key: [name]
                    attributes: {name: name, quantity: quantity}
                    relationships:
                      unit: {field: unit, match: name, missing: create}
                      locationAtHome: {field: home, match: storedIn, missing: create}
                      locationAtShop: {field: aisle, match: aisle, missing: create}
                """
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/\(plan).yaml"))
            let imported = try CLIProcess.run(["import", "\(plan).yaml", "--quiet"], in: folder)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        return folder
    }

    /// One integer from a query on the store at `path`.
    static func integer(_ sql: String, in path: String) throws -> Int {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let statement = try connection.prepare(sql)
        return try statement.step() ? statement.int(0) : -1
    }

    static func integrity(of path: String) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let check = try connection.prepare("PRAGMA integrity_check")
        return try check.step() ? check.string(0) : ""
    }

    /// Starts the copy and kills it with SIGKILL once some batches of items have committed.
    static func killMidway(_ folder: String) throws -> Int {
        let process = try CLIProcess.start(
            ["copy", "--from", "Source.sqlite", "--to", "User.sqlite", "--batch-size", "50", "--quiet"], in: folder)
        let store = folder + "/User.sqlite"
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            if let items = try? integer("SELECT count(*) FROM Item", in: store), items >= 3 + 500 { break }
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        return try integer("SELECT count(*) FROM Item", in: store)
    }

    /// Kills a whole-store copy into the new store `New.sqlite` once its run has begun.
    static func killWholeCopyIntoNewStore(_ folder: String) throws {
        let process = try CLIProcess.start(
            ["copy", "--from", "Source.sqlite", "--to", "New.sqlite", "--quiet"], in: folder)
        let store = folder + "/New.sqlite"
        let marker = "SELECT count(*) FROM seedkit_metadata WHERE key = 'run.active'"
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            if let runs = try? integer(marker, in: store), runs == 1 { break }
            usleep(200)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }

    @Test func aRerunAfterAKillDuringAWholeCopyIntoANewStoreEndsWithTheSourceExactly() throws {
        let folder = try Self.fixture()
        let store = folder + "/New.sqlite"
        try Self.killWholeCopyIntoNewStore(folder)

        let rerun = try CLIProcess.run(["copy", "--from", "Source.sqlite", "--to", "New.sqlite", "--json"], in: folder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any]
        #expect((report?["warnings"] as? [String])?.contains { $0.contains("undid the unfinished run copy-") } == true)
        #expect(try Self.integrity(of: store) == "ok")
        #expect(try Self.integer("SELECT count(*) FROM Item", in: store) == Self.itemCount)
        #expect(try Self.integer("SELECT count(DISTINCT name) FROM Item", in: store) == Self.itemCount)
        #expect(try Self.integer("SELECT count(*) FROM Unit", in: store) == Self.units)
        #expect(try Self.integer("SELECT count(*) FROM Location", in: store) == Self.homes + Self.aisles)
        #expect(try PersistentStore.metadata(at: store)["run.active"] == nil)
    }

    @Test func aRerunAfterAKillUndoesThePartialCopyFirst() throws {
        let folder = try Self.fixture()
        let store = folder + "/User.sqlite"
        let partial = try Self.killMidway(folder)
        #expect(try Self.integrity(of: store) == "ok")
        #expect(partial > 3 && partial < 3 + Self.itemCount && (partial - 3) % 50 == 0)
        #expect(try PersistentStore.metadata(at: store)["run.active"] != nil)

        let rerun = try CLIProcess.run(
            ["copy", "--from", "Source.sqlite", "--to", "User.sqlite", "--json"], in: folder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any]
        let entities = report?["entities"] as? [String: [String: Int]]
        #expect(entities?["Item"]?["inserted"] == Self.itemCount)
        #expect((report?["warnings"] as? [String])?.contains { $0.contains("undid the unfinished run copy-") } == true)

        #expect(try Self.integrity(of: store) == "ok")
        #expect(try Self.integer("SELECT count(*) FROM Item", in: store) == 3 + Self.itemCount)
        #expect(try Self.integer("SELECT count(DISTINCT name) FROM Item", in: store) == 3 + Self.itemCount)
        #expect(try Self.integer("SELECT count(*) FROM Unit", in: store) == 3 + Self.units)
        #expect(try Self.integer("SELECT count(*) FROM Location", in: store) == 3 + 2 + Self.homes + Self.aisles)
        #expect(
            try Self.integer(
                "SELECT count(*) FROM Item i JOIN Unit u ON u.pk = i.unit WHERE i.name = 'Item 12345' AND u.name = 'u4'",
                in: store) == 1)
        #expect(try Self.integer("SELECT count(*) FROM Item WHERE name = 'Milk' AND quantity = 3", in: store) == 1)
        #expect(try PersistentStore.metadata(at: store)["run.active"] == nil)
    }
}
