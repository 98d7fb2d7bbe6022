// Kill -9 in the middle of an import: the store stays whole (integrity check, whole batches
// only), and both `--resume` and a plain re-run end with exactly the expected contents — also
// for two sources sharing one pass over the file, killed in either.
import Foundation
import GraphStore
import Testing
import TestSupport

@Suite(.serialized) struct ImportKillResumeTests {
    static let itemCount = 20_000

    static func fixture(sharedSource: Bool = false) throws -> String {
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
            + (sharedSource
                ? """

                  - file: items.csv
                    entity: Location
                    key: [aisle]
                    attributes: {aisle: name}
                """ : "")
        try Data(plan.utf8).write(to: URL(fileURLWithPath: folder + "/plan.yaml"))
        return folder
    }

    /// Starts an import of `plan.yaml` into `store` and kills it with SIGKILL once a few batches
    /// of the source numbered `source` have committed.
    static func killMidway(_ folder: String, store name: String = "Catalog.sqlite", source: Int = 0) throws {
        let process = try CLIProcess.start(["import", "plan.yaml", "--quiet"], in: folder)
        let store = folder + "/" + name
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if let metadata = try? PersistentStore.metadata(at: store), let checkpoint = metadata["import.checkpoint"],
                let fields = try? JSONSerialization.jsonObject(with: Data(checkpoint.utf8)) as? [String: Any],
                fields["source"] as? Int == source, (fields["batches"] as? Int ?? 0) > 2 + source * 80
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

    /// Two sources over items.csv share one pass: killed in the first (the second's records half
    /// spilled) or in the second (replaying the spill), `--resume` ends with every object once.
    @Test(arguments: [0, 1])
    func resumeAfterKillInASharedPassCompletesExactly(source: Int) throws {
        let folder = try Self.fixture(sharedSource: true)
        try Self.killMidway(folder, source: source)
        let store = folder + "/Catalog.sqlite"
        _ = try Self.checkWhole(store)
        let resumed = try CLIProcess.run(["import", "plan.yaml", "--resume", "--json"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("\"passes\" : 1"))
        try Self.checkComplete(store)
        let locations = try SQLiteConnection(path: store, mode: .readOnly).prepare(
            "SELECT count(*), count(DISTINCT aisle) FROM Location WHERE aisle LIKE 'Item %'")
        _ = try locations.step()
        #expect(locations.int(0) == Self.itemCount && locations.int(1) == Self.itemCount)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("seedkit-pass") } == [])
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
