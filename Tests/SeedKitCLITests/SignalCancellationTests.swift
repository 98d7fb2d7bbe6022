// Ctrl-C (SIGINT) and SIGTERM during `seedkit import`, `copy`, `build` and `migrate`
// (docs/CLI.md, "Cancelling"): the signal is sent once the run has committed its first batch (seen in the
// store: the import's checkpoint, the copy's rows, the migration's new file), and the command
// ends with exit 130 (143 for SIGTERM) and `seedkit: cancelled` as the last line of standard
// error, after its progress lines. A store the run created is gone with its side files; a store
// that existed holds exactly the objects of a copy taken before (StoreDiff), passes SQLite's
// integrity check and has no run left active nor side files; a store being migrated is byte for
// byte as it was, and the next migration finishes. `export -o FILE` ends at once and leaves FILE
// as it was.
import DeepCopy
import Foundation
import GraphStore
import Testing
import TestSupport

@Suite(.serialized) struct SignalCancellationTests {
    /// Starts `seedkit arguments` in `folder`, waits (up to two minutes) until `committed()` says
    /// the run has committed a batch, sends `signal`, and returns the finished run.
    static func interrupt(
        _ arguments: [String], in folder: String, with signal: Int32, once committed: () -> Bool
    ) throws -> CLIResult {
        let process = try CLIProcess.start(arguments, in: folder)
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && !committed() && Date() < deadline { usleep(2_000) }
        #expect(process.isRunning, "the run ended before it was interrupted")
        kill(process.processIdentifier, signal)
        return ChildProcess.finish(process)
    }

    /// Checks the end of an interrupted run: the exit status, and `seedkit: cancelled` as the
    /// last line of standard error.
    static func expectCancelled(_ result: CLIResult, status: Int32) {
        #expect(result.status == status, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.last == "seedkit: cancelled", "\(result.stderr)")
    }

    /// The batches an import has committed into the store at `path` so far (its checkpoint).
    static func importedBatches(_ path: String) -> Int {
        guard let metadata = try? PersistentStore.metadata(at: path), let checkpoint = metadata["import.checkpoint"],
            let object = try? JSONSerialization.jsonObject(with: Data(checkpoint.utf8)) as? [String: Any]
        else { return 0 }
        return object["batches"] as? Int ?? 0
    }

    /// The objects of `entity` in the store at `path` (0 when it cannot be read yet).
    static func objects(of entity: String, in path: String) -> Int {
        guard FileManager.default.fileExists(atPath: path),
            let store = try? PersistentStore.open(at: path, options: readOnly)
        else { return 0 }
        return (try? store.objectCounts()[entity]) ?? 0
    }

    static var readOnly: StoreOptions {
        var options = StoreOptions()
        options.readOnly = true
        return options
    }

    /// The files of the store at `path` (itself and its side files) that exist.
    static func storeFiles(_ path: String) -> [String] {
        ([path] + StoreFiles.sideFiles(of: path)).filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// A copy of the store at `path` in a folder of its own, to compare with afterwards.
    static func snapshot(of path: String) throws -> String {
        let folder = try ScratchFolder.make("seedkit-before")
        _ = try DeepCopier.copy(from: try PersistentStore.open(at: path), toNewStoreAt: folder + "/Before.sqlite")
        return folder + "/Before.sqlite"
    }

    /// Checks that the store at `path` is as `snapshot` was, whole, with no run active and no side files.
    static func expectUnchanged(_ path: String, since snapshot: String) throws {
        #expect(storeFiles(path) == [path])
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let integrity = try connection.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.string(0) == "ok")
        connection.close()
        let store = try PersistentStore.open(at: path, options: readOnly)
        #expect(try store.metadata()["run.active"] == nil)
        #expect(try store.metadata()["import.checkpoint"] == nil)
        #expect(
            try StoreDiff(try PersistentStore.open(at: snapshot, options: readOnly), store).differences(limit: 5) == [])
    }

    @Test func ctrlCDuringAnImportIntoANewStoreLeavesNoStore() throws {
        let folder = try ImportKillResumeTests.fixture()
        let store = folder + "/Catalog.sqlite"
        let result = try Self.interrupt(["import", "plan.yaml"], in: folder, with: SIGINT) {
            Self.importedBatches(store) >= 1
        }
        Self.expectCancelled(result, status: 130)
        #expect(result.stderr.contains("reading items.csv"), "no progress before the cancellation: \(result.stderr)")
        #expect(Self.storeFiles(store) == [])
    }

    @Test func sigtermDuringAnImportIntoAStoreLeavesItAsItWas() throws {
        let folder = try ImportKillResumeTests.fixture()
        let store = folder + "/Catalog.sqlite"
        let first = try CLIProcess.run(["import", "plan.yaml", "--quiet"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        // The same items renamed: the second run updates every one of them, batch by batch.
        let csv = try String(contentsOfFile: folder + "/items.csv", encoding: .utf8)
        try Data(csv.replacingOccurrences(of: ",Item ", with: ",Renamed ").utf8)
            .write(to: URL(fileURLWithPath: folder + "/items.csv"))
        let before = try Self.snapshot(of: store)
        let result = try Self.interrupt(["import", "plan.yaml", "--quiet"], in: folder, with: SIGTERM) {
            Self.importedBatches(store) >= 1
        }
        Self.expectCancelled(result, status: 143)
        try Self.expectUnchanged(store, since: before)
    }

    @Test func ctrlCDuringACopyIntoAStoreLeavesItAsItWas() throws {
        let folder = try CopyKillRerunTests.fixture()
        let target = folder + "/User.sqlite"
        let before = try Self.snapshot(of: target)
        let arguments = ["copy", "--from", "Source.sqlite", "--to", "User.sqlite", "--batch-size", "50"]
        let result = try Self.interrupt(arguments, in: folder, with: SIGINT) {
            Self.objects(of: "Item", in: target) > 3
        }
        Self.expectCancelled(result, status: 130)
        #expect(result.stdout.isEmpty)
        try Self.expectUnchanged(target, since: before)
    }

    @Test func sigtermDuringACopyIntoANewStoreLeavesNoStore() throws {
        let folder = try CopyKillRerunTests.fixture()
        let target = folder + "/New.sqlite"
        // A filter (that keeps every item) makes it a copy batch by batch, not one whole-table transfer.
        let arguments = [
            "copy", "--from", "Source.sqlite", "--to", "New.sqlite", "--where", "Item: quantity >= 0", "--batch-size",
            "50", "--quiet",
        ]
        let result = try Self.interrupt(arguments, in: folder, with: SIGTERM) {
            Self.objects(of: "Item", in: target) > 0
        }
        Self.expectCancelled(result, status: 143)
        #expect(Self.storeFiles(target) == [])
    }

    @Test func ctrlCDuringABuildLeavesNoOutput() throws {
        let folder = try ImportKillResumeTests.fixture()
        let result = try Self.interrupt(["build", "plan.yaml", "-o", "Seed.sqlite"], in: folder, with: SIGINT) {
            Self.importedBatches(folder + "/Seed.sqlite.building") >= 1
        }
        Self.expectCancelled(result, status: 130)
        #expect(Self.storeFiles(folder + "/Seed.sqlite") == [])
        #expect(Self.storeFiles(folder + "/Seed.sqlite.building") == [])
    }

    /// The size of the file at `path` (0 when there is none).
    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The names of the migration's own files in `folder` (its new files, its leftovers).
    static func migrationFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".seedkit-migrate") }
    }

    /// A store at V1 with 20 003 items, migrated 10 rows per batch: 2 000 batches, so the
    /// signal sent once the new file holds some of them comes long before the last one.
    static func migrationFolder() throws -> String {
        try MigrateCommandTests.folder(moreItems: 20_000)
    }

    @Test func ctrlCDuringAMigrationLeavesTheStoreByteForByteAndTheNextRunFinishes() throws {
        let folder = try Self.migrationFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/Store.sqlite"
        let before = try MigrateCommandTests.bytes(store)
        let arguments = [
            "migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--batch-size", "10",
        ]
        let result = try Self.interrupt(arguments, in: folder, with: SIGINT) {
            Self.size(store + ".seedkit-migrate") > 64 * 1024
        }
        Self.expectCancelled(result, status: 130)
        #expect(result.stdout.isEmpty)
        #expect(try MigrateCommandTests.bytes(store) == before)
        #expect(Self.storeFiles(store) == [store])
        #expect(try Self.migrationFiles(in: folder) == [])

        let again = try CLIProcess.run(arguments + ["--quiet"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare("SELECT count(*), min(rating), max(rating) FROM Item")
        #expect(try statement.step())
        #expect([statement.int64(0), statement.int64(1), statement.int64(2)] == [20_003, 3, 3])
        #expect(try Self.migrationFiles(in: folder) == [])
    }

    @Test func sigtermDuringAMigrationIntoAnOutputLeavesNoOutput() throws {
        let folder = try Self.migrationFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/Store.sqlite"
        let before = try MigrateCommandTests.bytes(store)
        let arguments = [
            "migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--batch-size", "10",
            "--output", "Out.sqlite", "--json",
        ]
        let result = try Self.interrupt(arguments, in: folder, with: SIGTERM) {
            Self.size(folder + "/Out.sqlite.seedkit-migrate") > 64 * 1024
        }
        Self.expectCancelled(result, status: 143)
        #expect(result.stdout.isEmpty)
        #expect(Self.storeFiles(folder + "/Out.sqlite") == [])
        #expect(try Self.migrationFiles(in: folder) == [])
        #expect(try MigrateCommandTests.bytes(store) == before)
    }

    @Test func ctrlCDuringAnExportLeavesTheFileAsItWas() throws {
        let folder = try CopyKillRerunTests.fixture()
        let output = folder + "/items.json"
        try Data("previous export".utf8).write(to: URL(fileURLWithPath: output))
        let arguments = ["export", "Source.sqlite", "--entity", "Item", "-o", "items.json"]
        let result = try Self.interrupt(arguments, in: folder, with: SIGINT) {
            ((try? FileManager.default.attributesOfItem(atPath: output + ".seedkit-export")[.size] as? Int) ?? 0) > 0
        }
        Self.expectCancelled(result, status: 130)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous export")
        #expect(!FileManager.default.fileExists(atPath: output + ".seedkit-export"))
    }
}
