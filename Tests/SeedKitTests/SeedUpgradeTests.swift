// Seed upgrades that respect the user (docs/FirstLaunch.md, "Seed upgrades"): a user store made
// from seed v1 and changed by the user (SeedUpgradeFixtures) is merged with seed v2 under each
// policy, and every object comes out exactly as the policy says — per property: the user's
// changed values kept and the seed's other changes taken, deleted seed objects left out, keyless
// objects matched once (unchanged ones by content, a reworded one by its place in the seed), new
// ones added — with the report's counts per entity. Then: merging the same seed again changes
// nothing; a keyless record inserted in the middle of a seed is added once; a seed without a
// record gets one when copied; a seed build and a plan's first import carry one.
import DeepCopy
import Foundation
import GraphStore
import Testing

@testable import SeedKit

@Suite struct SeedUpgradeTests {
    /// Merges seed v2 into a user store made from v1 under `policy`; returns the store and the report.
    static func upgrade(_ name: String, policy: SeedUpgradePolicy) async throws -> (
        store: String, report: SeedMergeReport
    ) {
        let seeds = try SeedUpgradeFixtures.seeds(name)
        try await SeedUpgradeFixtures.makeUserStore(at: seeds.store, from: seeds.v1)
        var options = SeedLoaderOptions()
        options.upgradePolicy = policy
        let outcome = try await SeedLoader(seed: .store(seeds.v2), store: seeds.store, options: options).prepare()
        let report = try #require(Self.mergeReport(of: outcome, version: "2"), "expected a merge of 2, got \(outcome)")
        #expect(try LoaderFixtures.value("PRAGMA integrity_check", in: seeds.store) == "ok")
        return (seeds.store, report)
    }

    /// The report of `outcome` when it is a merge of `version`.
    static func mergeReport(of outcome: SeedLoader.Outcome, version: String) -> SeedMergeReport? {
        guard case .merged(version, let report) = outcome else { return nil }
        return report
    }

    /// `added/updated/keptUserChange/notRestored` of `entity` in `report`.
    static func counts(_ report: SeedMergeReport, _ entity: String) -> [Int] {
        let counts = report.entities[entity] ?? SeedMergeReport.Counts()
        return [counts.added, counts.updated, counts.keptUserChange, counts.notRestored]
    }

    @Test func respectingTheUserKeepsTheirChangesAndDeletionsAndTakesTheSeedsOthers() async throws {
        let (store, report) = try await Self.upgrade("upgrade-respect", policy: .respectUserChanges)
        #expect(
            try SeedUpgradeFixtures.products(in: store) == [
                "P1: My apple 1.5 - Fruit",  // the user's name kept over the seed's, the seed's new price taken
                "P2: Sourdough 2.0 favourite Bakery",  // the seed's new name, the user's favourite mark
                "P4: Dates 4.0 - Treats",  // the user's category kept (the seed did not change it)
                "P5: Eggs 2.5 - Dairy",  // new in v2
                "U1: Honey 5.0 - Treats",  // the user's own
            ])  // P3, deleted by the user, stays deleted
        #expect(
            try SeedUpgradeFixtures.tips(in: store) == [
                "Cheese likes wax paper 3 -",  // reworded by the seed; its product is the user's deleted P3
                "Eggs keep longer cold 4 P5",  // new in v2
                "My tip 9 -",  // the user's own
                "Wash all fruit 1 P1",  // the user's rewording kept (the seed did not change it)
            ])  // "Keep bread dry", deleted by the user, stays deleted; no tip twice
        #expect(Self.counts(report, "Product") == [1, 2, 1, 1])
        #expect(Self.counts(report, "Tip") == [1, 1, 0, 1])
        #expect(Self.counts(report, "Category") == [0, 0, 0, 0])
        #expect(report.summary.contains("Product: 1 added, 2 updated, 1 kept as the user changed it, 1 not restored"))
        let metadata = try PersistentStore.metadata(at: store)
        #expect(metadata["seed.version"] == "2" && metadata["run.active"] == nil)
        try LoaderFixtures.expectNoLeftovers(besides: store)
    }

    @Test func theSeedWinsOverwritesTheUsersChangesAndRestoresDeletions() async throws {
        let (store, report) = try await Self.upgrade("upgrade-seed-wins", policy: .seedWins)
        #expect(
            try SeedUpgradeFixtures.products(in: store) == [
                "P1: Red apple 1.5 - Fruit", "P2: Sourdough 2.0 - Bakery", "P3: Cheese 3.0 - Dairy",
                "P4: Dates 4.0 - Fruit", "P5: Eggs 2.5 - Dairy", "U1: Honey 5.0 - Treats",
            ])
        #expect(
            try SeedUpgradeFixtures.tips(in: store) == [
                "Cheese likes wax paper 3 P3", "Eggs keep longer cold 4 P5", "Keep bread dry 2 P2", "My tip 9 -",
                "Wash fruit 1 P1",
            ])
        #expect(Self.counts(report, "Product") == [2, 2, 0, 0])
        #expect(Self.counts(report, "Tip") == [2, 2, 0, 0])
        #expect(Self.counts(report, "Category") == [0, 0, 0, 0])
    }

    @Test func mergingTheSameSeedAgainChangesNothing() async throws {
        let (store, _) = try await Self.upgrade("upgrade-again", policy: .respectUserChanges)
        let before = try SeedLoaderCancellationTests.snapshot(of: store)
        let folder = (store as NSString).deletingLastPathComponent
        let again = folder + "/v2-again.sqlite"
        try SeedUpgradeFixtures.makeSeed(
            at: again, version: "3", products: SeedUpgradeFixtures.v2Products, tips: SeedUpgradeFixtures.v2Tips)
        let outcome = try await SeedLoader(seed: .store(again), store: store).prepare()
        let report = try #require(Self.mergeReport(of: outcome, version: "3"), "expected a merge of 3, got \(outcome)")
        #expect(Self.counts(report, "Product") == [0, 0, 0, 1])
        #expect(Self.counts(report, "Tip") == [0, 0, 0, 1])
        #expect(
            try StoreDiff(try PersistentStore.open(at: before), try PersistentStore.open(at: store)).differences() == []
        )
    }

    @Test func aKeylessRecordInsertedInTheMiddleIsAddedOnceAndTheOthersMatch() async throws {
        let folder = try LoaderFixtures.folder("upgrade-insert")
        let tips = SeedUpgradeFixtures.v1Tips
        try SeedUpgradeFixtures.makeSeed(
            at: folder + "/v1.sqlite", version: "1", products: SeedUpgradeFixtures.v1Products, tips: tips)
        let inserted = [tips[0], SeedTip(text: "Fresh bread first", rank: 5, product: "P2"), tips[1], tips[2]]
        try SeedUpgradeFixtures.makeSeed(
            at: folder + "/v2.sqlite", version: "2", products: SeedUpgradeFixtures.v1Products, tips: inserted)
        let store = folder + "/App.sqlite"
        _ = try await SeedLoader(seed: .store(folder + "/v1.sqlite"), store: store).prepare()
        let outcome = try await SeedLoader(seed: .store(folder + "/v2.sqlite"), store: store).prepare()
        let report = try #require(Self.mergeReport(of: outcome, version: "2"), "expected a merge of 2, got \(outcome)")
        #expect(Self.counts(report, "Tip") == [1, 0, 0, 0])
        #expect(
            try SeedUpgradeFixtures.tips(in: store) == [
                "Cheese likes paper 3 P3", "Fresh bread first 5 P2", "Keep bread dry 2 P2", "Wash fruit 1 P1",
            ])
    }

    /// The user deletes the last product and the last tip of seed v1, whose keys the store then
    /// gives to objects the user adds (SeedKit's layout takes keys above the highest in use).
    /// Merging a seed that still has them never takes the user's new objects for them: they
    /// stay as the user made them, and the seed's come back only when the seed wins.
    @Test(arguments: SeedUpgradePolicy.allCases) func aDeletedObjectsReusedKeyIsNotTakenForIt(policy: SeedUpgradePolicy)
        async throws
    {
        let seeds = try SeedUpgradeFixtures.seeds("upgrade-reuse-\(policy)")
        _ = try await SeedLoader(seed: .store(seeds.v1), store: seeds.store).prepare()
        let context = try ObjectContext(store: try PersistentStore.open(at: seeds.store))
        try context.delete(try SeedUpgradeFixtures.object("Product", "code", "P4", in: context))
        try context.delete(try SeedUpgradeFixtures.object("Tip", "text", "Cheese likes paper", in: context))
        try context.save()
        let product = try context.insert("Product")
        try product.set("code", "U1")
        let tip = try context.insert("Tip")
        try tip.set("text", "My tip")
        try context.save()
        #expect(try LoaderFixtures.value("SELECT pk FROM Product WHERE code = 'U1'", in: seeds.store) == "4")
        #expect(try LoaderFixtures.value("SELECT pk FROM Tip WHERE text = 'My tip'", in: seeds.store) == "3")

        let again = (seeds.store as NSString).deletingLastPathComponent + "/v1-again.sqlite"
        try SeedUpgradeFixtures.makeSeed(
            at: again, version: "2", products: SeedUpgradeFixtures.v1Products, tips: SeedUpgradeFixtures.v1Tips)
        var options = SeedLoaderOptions()
        options.upgradePolicy = policy
        let outcome = try await SeedLoader(seed: .store(again), store: seeds.store, options: options).prepare()
        let report = try #require(Self.mergeReport(of: outcome, version: "2"), "expected a merge, got \(outcome)")
        let restored = policy == .seedWins
        #expect(Self.counts(report, "Product") == (restored ? [1, 0, 0, 0] : [0, 0, 0, 1]))
        #expect(Self.counts(report, "Tip") == (restored ? [1, 0, 0, 0] : [0, 0, 0, 1]))
        #expect(try LoaderFixtures.value("SELECT name IS NULL FROM Product WHERE code = 'U1'", in: seeds.store) == "1")
        #expect(try LoaderFixtures.value("SELECT rank IS NULL FROM Tip WHERE text = 'My tip'", in: seeds.store) == "1")
        #expect(
            try LoaderFixtures.value("SELECT count(*) FROM Product WHERE code = 'P4'", in: seeds.store)
                == (restored ? "1" : "0"))
        #expect(
            try LoaderFixtures.value("SELECT count(*) FROM Tip WHERE text = 'Cheese likes paper'", in: seeds.store)
                == (restored ? "1" : "0"))
    }

    @Test func aSeedWithoutARecordGetsOneWhenCopied() async throws {
        let folder = try LoaderFixtures.folder("upgrade-record")
        let seed = folder + "/Seed.sqlite"
        try SeedUpgradeFixtures.makeSeed(
            at: seed, version: "1", products: SeedUpgradeFixtures.v1Products, tips: SeedUpgradeFixtures.v1Tips)
        for table in ["Category", "Product", "Tip"] {
            try SQLiteConnection(path: seed).execute("DROP TABLE seedkit_seed_\(table)")
        }
        #expect(try !PersistentStore.open(at: seed).hasSeedRecord())
        let store = folder + "/data/App.sqlite"
        #expect(try await SeedLoader(seed: .store(seed), store: store).prepare() == .copiedSeed(version: "1"))
        #expect(try PersistentStore.open(at: store).hasSeedRecord())
        // A base row per object, equal to its row, its seed key its key.
        for (table, count) in [("Category", 3), ("Product", 4), ("Tip", 3)] {
            #expect(
                try LoaderFixtures.value(
                    """
                    SELECT count(*) FROM seedkit_seed_\(table) AS b JOIN \(table) AS t USING (pk, ent, opt)
                    WHERE b.seedkit_seed_key = t.pk
                    """, in: store) == "\(count)")
        }
        #expect(
            try LoaderFixtures.value(
                "SELECT count(*) FROM seedkit_seed_Product b JOIN Product p USING (pk, code, name, price, favorite, category)",
                in: store) == "4")
        try LoaderFixtures.expectNoLeftovers(besides: store)
    }

    @Test func aPlanSeedingANewStoreRecordsItsObjects() async throws {
        let paths = try SeedLoaderPlanKillTests.planFolder("upgrade-plan", version: "1", items: 20)
        guard case .imported = try await SeedLoader(seed: .plan(paths.plan), store: paths.store).prepare() else {
            Issue.record("expected an import")
            return
        }
        #expect(
            try LoaderFixtures.value(
                "SELECT count(*) FROM seedkit_seed_Item JOIN Item USING (pk, sku, name)", in: paths.store) == "20")
    }
}
