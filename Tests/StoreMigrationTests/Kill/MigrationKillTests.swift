// Kill -9 during a migration (docs/Migration.md, "Crash safety"; T-KILL-1…4): the probe
// (Tests/Probes/MigrationProbe) migrates the store in a child process, stops at a named point and
// is killed there. Afterwards the store opens at the old version with exactly its old objects or
// at the new version with exactly a clean migration's objects, never anything else, and the next
// migration finishes and leaves no files of its own. The store starts with committed transactions
// still in its write-ahead log, so a kill cannot lose what was never checkpointed. Each point is
// run on a store in SeedKit's layout and on one in Core Data's.
import Foundation
import GraphStore
import ModelFiles
import Testing
import TestSupport

@testable import StoreMigration

@Suite(.serialized) struct MigrationKillTests {
    typealias Support = MigrationTestSupport
    typealias Run = MigrationRunTests

    /// Item's table and its name column in `layout`.
    static func itemNames(_ layout: StoreLayoutKind) throws -> (table: String, column: String) {
        let names = StoreLayout(model: try Run.version1(), rules: layout.rules)
        let item = try #require(names.model.entity(named: "Item"))
        let name = try #require(item.attribute(named: "name"))
        return (SQLiteIdentifier.quote(names.table(of: item)), SQLiteIdentifier.quote(names.column(of: name)))
    }

    /// A store of MigrationRunTests's version 1 in `layout` at `name` whose last transaction
    /// (every item renamed) is still in its write-ahead log: the store file and its log copied
    /// while the writing connection was open.
    static func storeWithLog(_ scratch: Scratch, _ name: String, layout: StoreLayoutKind) throws -> String {
        let built = try Run.store(scratch, "Built.sqlite", layout: layout)
        let connection = try SQLiteConnection(path: built, mode: .readWrite)
        let (table, column) = try itemNames(layout)
        try connection.execute("PRAGMA wal_autocheckpoint=0")
        try connection.execute("UPDATE \(table) SET \(column) = 'logged ' || \(column)")
        let path = scratch.file(name)
        try FileManager.default.copyItem(atPath: built, toPath: path)
        try FileManager.default.copyItem(atPath: built + "-wal", toPath: path + "-wal")
        connection.close()
        try FileManager.default.removeItem(atPath: built)
        return path
    }

    /// In either layout (a Core Data store is rebuilt in Core Data's layout, docs/CoreDataStores.md).
    @Test(arguments: ["prepared", "batch:1:2", "built", "renamed"], [StoreLayoutKind.seedKit, .coreData])
    func killedAtAStopPointLeavesTheOldOrTheNewStoreAndTheNextRunFinishes(
        _ point: String, _ layout: StoreLayoutKind
    ) async throws {
        let scratch = try Scratch()
        let path = try Self.storeWithLog(scratch, "Shop.sqlite", layout: layout)
        #expect((try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0) > 0)
        let original = scratch.file("Original.sqlite")
        let clean = scratch.file("Clean.sqlite")
        for copy in [original, clean] {
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        }
        var options = MigrationOptions()
        options.batchSize = 5
        try await Support.migrate(clean, versions: try Run.versions(), options: options)
        let versionsFile = try Support.versionsFile(
            scratch, [("Shop", try Run.version1()), ("Shop 2", try Run.version2())])

        let probe = Process()
        probe.executableURL = ChildProcess.executable("seedkit-migration-probe")
        probe.arguments = [path, versionsFile, "--batch-size", "5", "--pause", point]
        let output = Pipe()
        probe.standardOutput = output
        probe.standardError = Pipe()
        try probe.run()
        var printed = ""
        while !printed.contains("paused") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        #expect(printed == "paused \(point)\n")
        kill(probe.processIdentifier, SIGKILL)
        probe.waitUntilExit()

        let (old, new) = (try Run.version1(), try Run.version2())
        let metadata = try Support.metadata(path)
        if point == "renamed" {
            #expect(metadata.isAt(new))
            #expect(try Support.differences(path, clean, model: new) == [])
        } else {
            #expect(metadata.isAt(old))
            #expect(try Support.differences(path, original, model: old) == [])
        }
        try await Support.migrate(path, versions: try Run.versions(), options: options)
        #expect(try Support.differences(path, clean, model: new) == [])
        let (table, column) = try Self.itemNames(layout)
        #expect(
            try Support.rows("SELECT count(*) FROM \(table) WHERE \(column) LIKE 'logged Item %'", in: path) == [["40"]]
        )
        #expect(Support.leftovers(beside: path) == [])
    }
}
