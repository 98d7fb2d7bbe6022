// Kill -9 during a first launch that imports bundled sources through a plan (`SeedSource.plan`)
// instead of copying a seed store: at an early and at the last batch, both into a new store
// (built beside the user's and renamed into place) and into the user's older store. The probe
// stops the importing thread inside the commit of the chosen batch, so the batches before it
// are committed and that one is written but not. Each time the next prepare() ends in exactly
// the expected state: every record once, the user's edit kept, the plan's version as the marker,
// no run left active, SQLite's integrity check ok, no leftovers.
import Foundation
import GraphStore
import Testing

@testable import SeedKit

@Suite(.serialized) struct SeedLoaderPlanKillTests {
    static let batchSize = 25
    /// Records of the plan the user's store was made from (version 1), and of the newer one.
    static let oldItems = 300
    static let newItems = 500

    /// A folder holding the catalog model, a plan of `items` records at `version`, and the
    /// path of the user's store in it (not created).
    static func planFolder(_ name: String, version: String, items: Int) throws -> (plan: String, store: String) {
        let folder = try LoaderFixtures.folder(name)
        try FileManager.default.copyItem(atPath: try LoaderSeeds.get().catalogModel, toPath: folder + "/Catalog.yaml")
        try SeedLoaderPlanTests.writePlan(in: folder, version: version, items: items)
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        return (folder + "/plan.yaml", folder + "/data/App.sqlite")
    }

    /// A user's store made by a first launch from the version-1 plan, in which the user renamed
    /// P-1 to "Mine"; the plan is then replaced by version 2 with `newItems` records.
    static func userStoreAndNewerPlan(_ name: String, newItems: Int = Self.newItems) async throws -> (
        plan: String, store: String
    ) {
        let paths = try planFolder(name, version: "1", items: oldItems)
        var options = SeedLoaderOptions()
        options.batchSize = batchSize
        _ = try await SeedLoader(seed: .plan(paths.plan), store: paths.store, options: options).prepare()
        let context = try ObjectContext(store: try PersistentStore.open(at: paths.store))
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "sku == %@", "P-1"))
        try context.fetch(request).first?.set("name", "Mine")
        try context.save()
        try SeedLoaderPlanTests.writePlan(
            in: (paths.plan as NSString).deletingLastPathComponent, version: "2", items: newItems)
        return paths
    }

    /// The data commits (batches that write objects) of an uninterrupted probe run.
    static func calibrate(plan: String, store: String) throws -> Int {
        let output = try LoaderProbe.run(seed: plan, store: store, batchSize: batchSize)
        #expect(output.hasPrefix("outcome imported("), "\(output)")
        return try #require(LoaderProbe.commits(in: output), "\(output)")
    }

    /// The number of the batch to stop at: the 2nd, or the last.
    static func step(_ batch: String, of count: Int) -> Int { batch == "early" ? 2 : count }

    /// The committed contents of the store at `path` left by a kill (its hot journal rolled back
    /// on a copy, so the leftover itself is not touched): integrity, item count, metadata.
    static func committedState(of path: String) throws -> (items: Int, metadata: [String: String]) {
        let folder = try LoaderFixtures.folder("committed")
        let copy = folder + "/" + (path as NSString).lastPathComponent
        for suffix in ["", "-journal", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        let connection = try SQLiteConnection(path: copy)
        defer { connection.close() }
        let integrity = try connection.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.string(0) == "ok")
        let count = try connection.prepare("SELECT count(*), count(DISTINCT sku) FROM Item")
        #expect(try count.step())
        #expect(count.int(0) == count.int(1))
        var metadata: [String: String] = [:]
        let rows = try connection.prepare("SELECT key, value FROM seedkit_metadata")
        while try rows.step() { metadata[rows.string(0)] = rows.string(1) }
        return (count.int(0), metadata)
    }

    /// Checks the user's store after a complete first launch from the plan.
    static func expectImported(_ store: String, items: Int, version: String, userEdit: Bool) throws {
        #expect(try LoaderFixtures.value("PRAGMA integrity_check", in: store) == "ok")
        #expect(
            try LoaderFixtures.value("SELECT count(*) || '/' || count(DISTINCT sku) FROM Item", in: store)
                == "\(items)/\(items)")
        #expect(
            try LoaderFixtures.value("SELECT name FROM Item WHERE sku = 'P-1'", in: store)
                == (userEdit ? "Mine" : "Product 1"))
        #expect(
            try LoaderFixtures.value("SELECT name FROM Item WHERE sku = 'P-\(items)'", in: store) == "Product \(items)")
        let metadata = try PersistentStore.metadata(at: store)
        #expect(metadata["seed.version"] == version)
        #expect(metadata["run.active"] == nil)
        #expect(metadata["import.checkpoint"] == nil)
        try LoaderFixtures.expectNoLeftovers(besides: store)
    }

    @Test(arguments: ["early", "last"]) func killedDuringAnImportIntoANewStore(batch: String) async throws {
        let calibration = try Self.planFolder("plan-kill-count", version: "1", items: Self.newItems)
        let count = try Self.calibrate(plan: calibration.plan, store: calibration.store)
        #expect(count == Self.newItems / Self.batchSize)
        let step = Self.step(batch, of: count)

        let paths = try Self.planFolder("plan-kill-new", version: "1", items: Self.newItems)
        #expect(
            try LoaderProbe.killAt("commit:\(step)", seed: paths.plan, store: paths.store, batchSize: Self.batchSize)
                == "paused commit \(step)\n")
        // No store yet: only the temporary one beside it, holding the batches before the killed one.
        #expect(!FileManager.default.fileExists(atPath: paths.store))
        let temporary = paths.store + ".seedkit-copy"
        #expect(FileManager.default.fileExists(atPath: temporary))
        let committed = try Self.committedState(of: temporary)
        #expect(committed.items == (step - 1) * Self.batchSize)
        #expect(committed.metadata["seed.version"] == nil)

        let loader = SeedLoader(seed: .plan(paths.plan), store: paths.store)
        guard case .imported(let version, let report) = try await loader.prepare() else {
            Issue.record("expected an import")
            return
        }
        #expect(version == "1")
        #expect(report.entities["Item"]?.inserted == Self.newItems)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: (paths.store as NSString).deletingLastPathComponent)
                == ["App.sqlite"])
        try Self.expectImported(paths.store, items: Self.newItems, version: "1", userEdit: false)
        #expect(try await SeedLoader(seed: .plan(paths.plan), store: paths.store).prepare() == .upToDate(version: "1"))
    }

    @Test(arguments: ["early", "last"]) func killedDuringAnImportIntoTheUsersStore(batch: String) async throws {
        let calibration = try await Self.userStoreAndNewerPlan("plan-kill-count")
        let count = try Self.calibrate(plan: calibration.plan, store: calibration.store)
        // The batches of records the store already holds change no object: only the new ones count.
        #expect(count == (Self.newItems - Self.oldItems) / Self.batchSize)
        let step = Self.step(batch, of: count)

        let paths = try await Self.userStoreAndNewerPlan("plan-kill-user")
        #expect(
            try LoaderProbe.killAt("commit:\(step)", seed: paths.plan, store: paths.store, batchSize: Self.batchSize)
                == "paused commit \(step)\n")
        // The store holds whole batches: the old records, the new batches before the killed one,
        // the run still active and the old version.
        let committed = try Self.committedState(of: paths.store)
        #expect(committed.items == Self.oldItems + (step - 1) * Self.batchSize)
        #expect(committed.metadata["seed.version"] == "1")
        #expect(committed.metadata["run.active"] != nil)

        guard case .imported("2", _) = try await SeedLoader(seed: .plan(paths.plan), store: paths.store).prepare()
        else {
            Issue.record("expected an import of version 2")
            return
        }
        try Self.expectImported(paths.store, items: Self.newItems, version: "2", userEdit: true)
        #expect(try await SeedLoader(seed: .plan(paths.plan), store: paths.store).prepare() == .upToDate(version: "2"))
    }
}
