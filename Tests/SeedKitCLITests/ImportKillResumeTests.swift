// Kill -9 in the middle of an import: the store stays whole (integrity check, whole batches
// only), and both `--resume` and a plain re-run end with exactly the expected contents.
import Foundation
import GraphStore
import Testing
import TestSupport

@Suite(.serialized) struct ImportKillResumeTests {
    static let itemCount = 20_000

    static func fixture() throws -> String {
        let folder = try ScratchFolder.make("seedkit-kill")
        let repository = Repository.root
        try FileManager.default.copyItem(
            atPath: repository.appendingPathComponent("SeedData/Catalog/Catalog.yaml").path,
            toPath: folder + "/Catalog.yaml")
        var csv = "sku,name,price,quantity,unit,tags\n"
        for index in 0..<itemCount {
            csv +=
                "S-\(index),Item \(index),\(index % 100).5,\(index % 7),u\(index % 5),t\(index % 11);t\(index % 13)\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/items.csv"))
        let plan = """
            model: Catalog.yaml
            store: Catalog.sqlite
            batchSize: 250
            sources:
              - file: items.csv
                entity: Item
                key: [sku]
                attributes: {sku: sku, name: name, price: price, quantity: quantity}
                relationships:
                  unit: {field: unit, match: name, missing: create}
                  tags: {field: tags, split: ";", match: name, missing: create}
            """
        try Data(plan.utf8).write(to: URL(fileURLWithPath: folder + "/plan.yaml"))
        return folder
    }

    /// Starts an import and kills it with SIGKILL once a few batches have committed.
    static func killMidway(_ folder: String) throws {
        let process = try CLIProcess.start(["import", "plan.yaml", "--quiet"], in: folder)
        let store = folder + "/Catalog.sqlite"
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if let metadata = try? PersistentStore.metadata(at: store), let checkpoint = metadata["import.checkpoint"],
                checkpoint.contains("\"batches\":") && !checkpoint.contains("\"batches\":1,")
                    && !checkpoint.contains("\"batches\":2,")
            {
                break
            }
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }

    static func checkWhole(_ store: String) throws -> Int {
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        let integrity = try connection.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.string(0) == "ok")
        let count = try connection.prepare("SELECT count(*), count(DISTINCT sku) FROM Item")
        _ = try count.step()
        #expect(count.int(0) == count.int(1))
        return count.int(0)
    }

    static func checkComplete(_ store: String) throws {
        #expect(try checkWhole(store) == itemCount)
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        let sample = try connection.prepare(
            """
            SELECT i.name, i.price, u.name, (SELECT count(*) FROM Item_tags j WHERE j.src = i.pk)
            FROM Item i JOIN Unit u ON u.pk = i.unit WHERE i.sku = 'S-12345'
            """)
        #expect(try sample.step())
        #expect(
            sample.string(0) == "Item 12345" && sample.double(1) == 45.5 && sample.string(2) == "u0"
                && sample.int(3) == 2)
        let links = try connection.prepare("SELECT count(*) FROM Item_tags")
        _ = try links.step()
        let expectedLinks = (0..<itemCount).reduce(0) { $0 + ($1 % 11 == $1 % 13 ? 1 : 2) }
        #expect(links.int(0) == expectedLinks)
        let units = try connection.prepare("SELECT count(*) FROM Unit")
        _ = try units.step()
        #expect(units.int(0) == 5)
        #expect(try PersistentStore.metadata(at: store)["run.active"] == nil)
    }

    @Test func resumeAfterKillCompletesExactly() throws {
        let folder = try Self.fixture()
        try Self.killMidway(folder)
        let partial = try Self.checkWhole(folder + "/Catalog.sqlite")
        #expect(partial % 250 == 0 && partial < Self.itemCount)
        #expect(try PersistentStore.metadata(at: folder + "/Catalog.sqlite")["run.active"] != nil)
        let resumed = try CLIProcess.run(["import", "plan.yaml", "--resume", "--json"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("\"inserted\" : \(Self.itemCount - partial)"))
        try Self.checkComplete(folder + "/Catalog.sqlite")
    }

    @Test func plainRerunAfterKillUndoesThePartialRunFirst() throws {
        let folder = try Self.fixture()
        try Self.killMidway(folder)
        let rerun = try CLIProcess.run(["import", "plan.yaml", "--json"], in: folder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("\"inserted\" : \(Self.itemCount)"))
        try Self.checkComplete(folder + "/Catalog.sqlite")
    }
}
