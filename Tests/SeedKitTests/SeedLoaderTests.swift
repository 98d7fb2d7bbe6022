// First launch, every branch of docs/FirstLaunch.md: no store → the seed copied (byte for byte, atomically,
// with stale side files cleared); older or missing version → deep-copy merge that keeps the
// user's objects and adds the seed's; same or newer version → nothing; incompatible model → an
// error with the store untouched; concurrent callers → the work done once. Cancellation has
// tests of its own (SeedLoaderCancellationTests).
import DeepCopy
import Foundation
import GraphStore
import Testing

@testable import SeedKit

@Suite struct SeedLoaderTests {
    @Test func copiesTheSeedByteForByteWhenThereIsNoStore() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("copy") + "/new/folder/App.sqlite"
        let loader = SeedLoader(seed: .store(seeds.v1), store: store)
        let updates = Task { await LoaderFixtures.collect(loader.progress) }
        let outcome = try await loader.prepare()
        #expect(outcome == .copiedSeed(version: LoaderSeeds.v1Version))
        #expect(try LoaderFixtures.bytes(store) == LoaderFixtures.bytes(seeds.v1))
        let folder = (store as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["App.sqlite"])
        let phases = await updates.value.map(\.phase)
        #expect(phases.first == .copying && phases.last == .finished)
    }

    @Test func aStaleWALOfADeletedStoreIsRemovedBeforeTheCopy() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("stale")
        let store = folder + "/App.sqlite"
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: store + "-wal"))
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: store + ".seedkit-copy"))
        try await SeedLoader(seed: .store(seeds.v1), store: store).prepare()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["App.sqlite"])
        #expect(try LoaderFixtures.value("PRAGMA integrity_check", in: store) == "ok")
        #expect(try LoaderFixtures.value("SELECT count(*) FROM Item", in: store) == "300")
    }

    @Test func mergesANewerSeedKeepingTheUsersObjects() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("merge") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        let outcome = try await SeedLoader(seed: .store(seeds.v2), store: store).prepare()
        guard case .merged(let version, let report) = outcome else {
            Issue.record("expected a merge, got \(outcome)")
            return
        }
        #expect(version == LoaderSeeds.v2Version)
        #expect(report.entities["Item"]?.added == 200 && report.copy.entities["Item"]?.matched == 300)
        #expect(report.entities["Item"]?.updated == 0 && report.entities["Item"]?.keptUserChange == 0)
        try LoaderFixtures.expectMergedUserStore(store)
    }

    @Test func aStoreWithoutSeedVersionIsMergedAndTheSeedWinsPolicyOverwrites() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("update") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        try PersistentStore.open(at: store).setMetadata(["seed.version": nil])
        var options = SeedLoaderOptions()
        options.upgradePolicy = .seedWins
        let outcome = try await SeedLoader(seed: .store(seeds.v2), store: store, options: options).prepare()
        guard case .merged(_, let report) = outcome else {
            Issue.record("expected a merge, got \(outcome)")
            return
        }
        #expect(report.entities["Item"]?.updated == 1)
        #expect(try LoaderFixtures.value("SELECT name FROM Item WHERE sku = 'S-1'", in: store) == "Item 1")
        #expect(try LoaderFixtures.value("SELECT count(*) FROM Item", in: store) == "501")
        #expect(try PersistentStore.metadata(at: store)["seed.version"] == LoaderSeeds.v2Version)
    }

    @Test func theSameVersionDoesNothingAndReadsOnlyTheStore() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("same")
        let store = folder + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        let before = try LoaderFixtures.bytes(store)
        #expect(
            try await SeedLoader(seed: .store(seeds.v1), store: store).prepare() == .upToDate(version: "2026.1"))
        var options = SeedLoaderOptions()
        options.seedVersion = "2026.1.0"  // numerically the same
        let absentSeed = SeedLoader(seed: .store(folder + "/no-such-seed.sqlite"), store: store, options: options)
        let started = ContinuousClock.now
        #expect(try await absentSeed.prepare() == .upToDate(version: "2026.1.0"))
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(try LoaderFixtures.bytes(store) == before)
    }

    @Test func aNewerStoreVersionIsLeftAlone() async throws {
        let seeds = try LoaderSeeds.get()
        let store = try LoaderFixtures.folder("newer") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v2)
        let before = try LoaderFixtures.bytes(store)
        let outcome = try await SeedLoader(seed: .store(seeds.v1), store: store).prepare()
        #expect(outcome == .storeIsNewer(store: LoaderSeeds.v2Version, seed: LoaderSeeds.v1Version))
        #expect(try LoaderFixtures.bytes(store) == before)
    }

    @Test func anIncompatibleSeedModelIsAnErrorAndTheStoreIsUntouched() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("incompatible")
        let store = folder + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        let before = try LoaderFixtures.bytes(store)
        let error = await #expect(throws: SeedLoadError.self) {
            try await SeedLoader(seed: .store(seeds.otherModel), store: store).prepare()
        }
        #expect(error?.kind == .incompatibleModel)
        #expect(error?.description.contains("has model Other") == true)
        #expect(try LoaderFixtures.bytes(store) == before)
        // Reading the metadata of a WAL store may leave SQLite's (empty) -wal and -shm; nothing else.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix("App.sqlite-") } == [
                "App.sqlite"
            ])
        #expect((try? LoaderFixtures.bytes(store + "-wal"))?.isEmpty ?? true)
    }

    @Test func aSeedThatIsNotTheAppsModelIsNotCopied() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("app-model")
        var options = SeedLoaderOptions()
        options.model = try ModelLoader.load(from: seeds.catalogModel)
        let error = await #expect(throws: SeedLoadError.self) {
            try await SeedLoader(seed: .store(seeds.otherModel), store: folder + "/App.sqlite", options: options)
                .prepare()
        }
        #expect(error?.kind == .incompatibleModel)
        #expect(error?.description.contains("the app has model Catalog") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        #expect(
            try await SeedLoader(seed: .store(seeds.v1), store: folder + "/App.sqlite", options: options).prepare()
                == .copiedSeed(version: LoaderSeeds.v1Version))
    }

    @Test func concurrentCallersDoTheWorkOnce() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("concurrent")
        let store = folder + "/App.sqlite"
        async let first = SeedLoader(seed: .store(seeds.v1), store: store).prepare()
        async let second = SeedLoader(seed: .store(seeds.v1), store: store).prepare()
        let copies = try await [first, second]
        #expect(copies.contains(.copiedSeed(version: LoaderSeeds.v1Version)))
        #expect(copies.contains(.upToDate(version: LoaderSeeds.v1Version)))
        try FileManager.default.removeItem(atPath: store)
        try LoaderFixtures.makeUserStore(at: store, from: seeds.v1)
        async let third = SeedLoader(seed: .store(seeds.v2), store: store).prepare()
        async let fourth = SeedLoader(seed: .store(seeds.v2), store: store).prepare()
        let merges = try await [third, fourth]
        #expect(merges.contains(.upToDate(version: LoaderSeeds.v2Version)))
        #expect(merges.contains { if case .merged = $0 { true } else { false } })
        try LoaderFixtures.expectMergedUserStore(store)
    }

    @Test(arguments: [
        ("2026.1" as String?, "2026.2", SeedVersionOrder.older), ("2026.9", "2026.11", .older),
        ("2026.11", "2026.9", .newer),
        ("1.2", "1.2.0", .same), ("2026.01", "2026.1", .same), ("spring", "spring", .same),
        ("spring", "summer", .different), ("1.0-beta", "1.0", .different), ("1..2", "1.2", .different),
        (nil, "1", .missing),
    ])
    func versionsCompareAsDottedNumbersElseAsText(store: String?, seed: String, order: SeedVersionOrder) {
        #expect(SeedVersionOrder(store: store, seed: seed) == order)
    }
}
