// Kill -9 at several points of a first launch (docs/Architecture.md "Runs"): during the seed's copy, between the
// batches of a merge, after its last batch (before the run ends), and after the marker is
// written (the probe stops at the named point and the test kills it). Each time the store that is left passes SQLite's integrity check, and the next
// prepare() ends in exactly the expected state: the seed byte for byte, or the complete merge
// with the user's edits, no duplicates, the marker set and no leftovers.
import Foundation
import GraphStore
import Synchronization
import Testing

@testable import SeedKit

@Suite(.serialized) struct SeedLoaderKillTests {
    @Test func killedDuringTheCopyLeavesNoStoreAndTheNextLaunchCopies() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("kill-copy") + "/App.sqlite"
        #expect(try LoaderProbe.killAt("copying:1", seed: seeds.v1, store: store) == "paused copying 1\n")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(FileManager.default.fileExists(atPath: store + ".seedkit-copy"))
        #expect(try await SeedLoader(seed: .store(seeds.v1), store: store).prepare() == .copiedSeed(version: "2026.1"))
        #expect(try LoaderFixtures.bytes(store) == LoaderFixtures.bytes(seeds.v1))
        try LoaderFixtures.expectNoLeftovers(besides: store)
    }

    /// The number of batches of the v2 merge into a user store made from v1 (batches of 25).
    static func mergeBatches() async throws -> Int {
        let store = try LoaderFixtures.folder("count") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: try LoaderSeeds.get().v1)
        let batches = Mutex(0)
        var options = SeedLoaderOptions()
        options.batchSize = 25
        options.onProgress = { update in
            if update.phase == .merging { batches.withLock { $0 = update.step } }
        }
        try await SeedLoader(seed: .store(try LoaderSeeds.get().v2), store: store, options: options).prepare()
        return batches.withLock { $0 }
    }

    /// Kills a merge after its 2nd batch, its middle one, and its last two (every object and link
    /// committed; the run ended or not, depending on whether the copier reports its finishing
    /// transaction as a batch): the next launch undoes a partial run and merges again, or finds
    /// the merge done.
    @Test(arguments: ["first", "middle", "penultimate", "last"])
    func killedDuringTheMergeIsUndoneAndTheNextLaunchMerges(batch: String) async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("kill-merge") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        let count = try await Self.mergeBatches()
        #expect(count > 4)
        let step = ["first": 2, "middle": count / 2, "penultimate": count - 1, "last": count][batch] ?? count
        #expect(
            try LoaderProbe.killAt("merging:\(step)", seed: seeds.v2, store: store, batchSize: 25)
                == "paused merging \(step)\n")
        #expect(try LoaderFixtures.value("PRAGMA integrity_check", in: store) == "ok")
        // Whole batches only: either the run is still active (the marker not yet written) or the
        // last batch also ended the run with the new marker (when the copier reports that batch).
        let metadata = try PersistentStore.metadata(at: store)
        let ended = metadata["run.active"] == nil
        #expect(metadata["seed.version"] == (ended ? LoaderSeeds.v2Version : LoaderSeeds.v1Version))
        #expect(!ended || batch == "last")
        let items = Int(try LoaderFixtures.value("SELECT count(*) FROM Item", in: store)) ?? 0
        #expect((301...501).contains(items))
        if batch == "last" || batch == "penultimate" { #expect(items == 501) }
        let outcome = try await SeedLoader(seed: .store(seeds.v2), store: store).prepare()
        if ended {
            #expect(outcome == .upToDate(version: LoaderSeeds.v2Version))
        } else if case .merged(_, let report) = outcome {
            #expect(report.entities["Item"]?.added == 200)
        } else {
            Issue.record("expected a merge, got \(outcome)")
        }
        try LoaderFixtures.expectMergedUserStore(store)
    }

    @Test func killedAfterTheMarkerTheNextLaunchDoesNothing() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("kill-done") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        #expect(try LoaderProbe.killAt("finished", seed: seeds.v2, store: store) == "paused finished 1\n")
        #expect(
            try await SeedLoader(seed: .store(seeds.v2), store: store).prepare()
                == .upToDate(version: LoaderSeeds.v2Version))
        try LoaderFixtures.expectMergedUserStore(store)
    }
}
