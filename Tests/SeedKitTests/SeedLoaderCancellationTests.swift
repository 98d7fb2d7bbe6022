// Cancelling a first launch half-way (docs/FirstLaunch.md, "Cancellation"): the task running
// prepare() is cancelled from its own progress callback at a known point — during the seed's
// copy, after a committed batch of a merge, during a plan import into a new store and into the
// user's store. Each time prepare() throws CancellationError and the target is as it was: no
// store (and no file at all beside it) when there was none; otherwise the user's store holds
// exactly the objects of a copy taken before (StoreDiff) and the same seed record, passes
// SQLite's integrity check, has no run left active and keeps its seed version. A later prepare() then completes, so the
// comparison is one that can fail.
import DeepCopy
import Foundation
import GraphStore
import Testing

@testable import SeedKit

@Suite struct SeedLoaderCancellationTests {
    /// Runs `loader.prepare()` in a task that `canceller` cancels, and expects CancellationError.
    static func expectCancelled(_ loader: SeedLoader, by canceller: TaskCanceller) async {
        let task = Task { try await loader.prepare() }
        canceller.watch(task)
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(canceller.requested, "the progress callback never cancelled the task")
    }

    /// A copy of the store at `path`, made in a folder of its own, to compare with afterwards.
    static func snapshot(of path: String) throws -> String {
        let copy = try LoaderFixtures.folder("snapshot") + "/Before.sqlite"
        _ = try DeepCopier.copy(from: try PersistentStore.open(at: path), toNewStoreAt: copy)
        return copy
    }

    /// Checks that the user's store at `path` is as `snapshot` was: nothing but the store in its
    /// folder, the same objects, intact, no run active, the seed version `version`.
    static func expectUnchanged(_ path: String, since snapshot: String, version: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["App.sqlite"])
        #expect(try LoaderFixtures.value("PRAGMA integrity_check", in: path) == "ok")
        let metadata = try PersistentStore.metadata(at: path)
        #expect(metadata["seed.version"] == version)
        #expect(metadata["run.active"] == nil && metadata["import.checkpoint"] == nil)
        let differences = try StoreDiff(try PersistentStore.open(at: snapshot), try PersistentStore.open(at: path))
            .differences(limit: 5)
        #expect(differences == [])
    }

    /// Every base row of the seed record of the store at `path`, as `table: values`.
    static func seedRecord(of path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let tables = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'seedkit\\_seed\\_%' ESCAPE '\\' ORDER BY name"
        )
        var names: [String] = []
        while try tables.step() { names.append(tables.string(0)) }
        var lines: [String] = []
        for name in names {
            let rows = try connection.prepare("SELECT * FROM \(name) ORDER BY 1")
            while try rows.step() {
                let values = (0..<rows.columnCount).map { rows.isNull($0) ? "nil" : rows.string($0) }
                lines.append("\(name): " + values.joined(separator: " "))
            }
        }
        return lines
    }

    @Test func aCancelledCopyLeavesNoStore() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("cancel-copy") + "/data"
        let store = folder + "/App.sqlite"
        let canceller = TaskCanceller()
        var options = SeedLoaderOptions()
        options.onProgress = { update in
            if update.phase == .copying { canceller.cancel() }
        }
        await Self.expectCancelled(SeedLoader(seed: .store(seeds.v1), store: store, options: options), by: canceller)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        #expect(try await SeedLoader(seed: .store(seeds.v1), store: store).prepare() == .copiedSeed(version: "2026.1"))
    }

    @Test func aCancelledMergeLeavesTheStoreAsItWasAndALaterCallCompletes() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("cancel-merge") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        let before = try Self.snapshot(of: store)
        let record = try Self.seedRecord(of: store)
        let canceller = TaskCanceller()
        var options = SeedLoaderOptions()
        options.batchSize = 50
        options.onProgress = { update in
            // After the second committed batch: the merge has written objects, and stops before the third.
            if update.phase == .merging && update.step == 2 { canceller.cancel() }
        }
        await Self.expectCancelled(SeedLoader(seed: .store(seeds.v2), store: store, options: options), by: canceller)
        try Self.expectUnchanged(store, since: before, version: LoaderSeeds.v1Version)
        #expect(try Self.seedRecord(of: store) == record && record.count == 312)  // 5 units, 7 tags, 300 items
        _ = try await SeedLoader(seed: .store(seeds.v2), store: store).prepare()
        try LoaderFixtures.expectMergedUserStore(store)
        #expect(try Self.seedRecord(of: store).count == 522)  // and 200 items, 10 lists
    }

    @Test func aCancelledPlanImportIntoANewStoreLeavesNoStore() async throws {
        let paths = try SeedLoaderPlanKillTests.planFolder("cancel-plan-new", version: "1", items: 2000)
        let canceller = TaskCanceller()
        var options = SeedLoaderOptions()
        options.batchSize = 25
        options.onProgress = { update in
            if update.phase == .importing && update.completed > 0 { canceller.cancel() }
        }
        await Self.expectCancelled(
            SeedLoader(seed: .plan(paths.plan), store: paths.store, options: options), by: canceller)
        let folder = (paths.store as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        guard case .imported("1", _) = try await SeedLoader(seed: .plan(paths.plan), store: paths.store).prepare()
        else {
            Issue.record("expected an import")
            return
        }
    }

    /// 15,000 items in batches of 25: hundreds of commits, so the cancellation lands mid-run even
    /// when progress reaches the callback late on a loaded machine.
    @Test func aCancelledPlanImportIntoTheUsersStoreLeavesItAsItWas() async throws {
        let paths = try await SeedLoaderPlanKillTests.userStoreAndNewerPlan("cancel-plan-user", newItems: 15_000)
        let before = try Self.snapshot(of: paths.store)
        let canceller = TaskCanceller()
        var options = SeedLoaderOptions()
        options.batchSize = 25
        options.onProgress = { update in
            if update.phase == .importing && update.completed > SeedLoaderPlanKillTests.oldItems { canceller.cancel() }
        }
        await Self.expectCancelled(
            SeedLoader(seed: .plan(paths.plan), store: paths.store, options: options), by: canceller)
        try Self.expectUnchanged(paths.store, since: before, version: "1")
        guard case .imported("2", _) = try await SeedLoader(seed: .plan(paths.plan), store: paths.store).prepare()
        else {
            Issue.record("expected an import of version 2")
            return
        }
        try SeedLoaderPlanKillTests.expectImported(paths.store, items: 15_000, version: "2", userEdit: true)
    }
}
