// First launch of an app's second release (docs/FirstLaunch.md, "A new model version"; T-LOAD-1,
// 2 and 4): with SeedLoaderOptions.migration, a user store at the old model version is migrated
// to the app's version and the newer seed merged into it; a store already at the seed's version
// is only migrated; a seed built with another model is refused before the store changes; a
// store already migrated (a launch killed after the migration's install) is merged without a
// second migration; the migration carries the store's seed record, so the merge after it still
// respects what the user changed and deleted.
import Foundation
import GraphStore
import ModelFiles
import StoreMigration
import Testing

@testable import SeedKit

@Suite struct SeedLoaderMigrationTests {
    /// Item(name, unique) at v1; v2 adds `rating` (default 3).
    static func model(_ version: Int) throws -> ObjectModel {
        try ModelBuilder("Shop")
            .entity("Item") { item in
                item.attribute("name", .string, optional: false)
                if version >= 2 { item.attribute("rating", .integer16, optional: false, default: .integer(3)) }
                item.unique("name")
            }
            .build()
    }

    static func source() throws -> MigrationSource {
        MigrationSource(
            versions: try ModelVersionSet(versions: [("v1", try model(1)), ("v2", try model(2))], current: "v2"))
    }

    /// A store at `path` of model `version` holding `names`, at seed version `seedVersion`.
    static func store(_ path: String, version: Int, seedVersion: String, names: [String]) throws {
        let store = try PersistentStore.open(at: path, model: try model(version))
        let context = try ObjectContext(store: store)
        for name in names { try context.insert("Item").set("name", name) }
        try context.save(metadata: ["seed.version": seedVersion])
    }

    static func names(in path: String) throws -> [String] {
        let store = try PersistentStore.open(at: path, model: try model(2))
        let context = try ObjectContext(store: store)
        return try context.fetch(FetchRequest(entityName: "Item")).map {
            try $0.get("name", as: String.self) ?? ""
        }.sorted()
    }

    static func loader(_ folder: String, options: SeedLoaderOptions? = nil) throws -> SeedLoader {
        var loaderOptions = options ?? SeedLoaderOptions()
        if options == nil { loaderOptions.migration = try source() }
        return SeedLoader(seed: .store(folder + "/Seed.sqlite"), store: folder + "/App.sqlite", options: loaderOptions)
    }

    @Test func anOldModelStoreIsMigratedThenTheNewerSeedMerged() async throws {
        let folder = try LoaderFixtures.folder("migrate-merge")
        try Self.store(folder + "/App.sqlite", version: 1, seedVersion: "1", names: ["Apples", "Bread", "Mine"])
        try Self.store(folder + "/Seed.sqlite", version: 2, seedVersion: "2", names: ["Apples", "Bread", "Cherries"])
        let loader = try Self.loader(folder)
        let phases = Task { await LoaderFixtures.collect(loader.progress).map(\.phase) }
        let report = try await loader.prepareReport()
        guard case .merged(let version, _) = report.outcome else {
            Issue.record("expected a merge, got \(report.outcome)")
            return
        }
        #expect(version == "2")
        #expect(report.migration?.from == "v1" && report.migration?.to == "v2")
        #expect(report.migration?.entities["Item"]?.kept == 3)
        let seen = await phases.value
        #expect(seen.first == .migrating && seen.contains(.merging) && seen.last == .finished)
        #expect(try Self.names(in: folder + "/App.sqlite") == ["Apples", "Bread", "Cherries", "Mine"])
        let metadata = try PersistentStore.metadata(at: folder + "/App.sqlite")
        #expect(metadata.modelHash == (try Self.model(2)).versionHash && metadata["seed.version"] == "2")
        try LoaderFixtures.expectNoLeftovers(besides: folder + "/App.sqlite")
    }

    @Test func theSameSeedVersionOnlyMigrates() async throws {
        let folder = try LoaderFixtures.folder("migrate-only")
        try Self.store(folder + "/App.sqlite", version: 1, seedVersion: "1", names: ["Apples", "Mine"])
        try Self.store(folder + "/Seed.sqlite", version: 2, seedVersion: "1", names: ["Apples", "Bread"])
        let report = try await Self.loader(folder).prepareReport()
        #expect(report.outcome == .upToDate(version: "1"))
        #expect(report.migration?.changed == true)
        #expect(try Self.names(in: folder + "/App.sqlite") == ["Apples", "Mine"])
        #expect(try PersistentStore.metadata(at: folder + "/App.sqlite")["seed.version"] == "1")
    }

    @Test func aSeedBuiltWithAnotherModelIsRefusedBeforeTheStoreChanges() async throws {
        let folder = try LoaderFixtures.folder("migrate-stale-seed")
        try Self.store(folder + "/App.sqlite", version: 1, seedVersion: "1", names: ["Apples"])
        try Self.store(folder + "/Seed.sqlite", version: 1, seedVersion: "2", names: ["Apples", "Bread"])
        let before = try LoaderFixtures.bytes(folder + "/App.sqlite")
        let error = try await #require(throws: SeedLoadError.self) { try await Self.loader(folder).prepare() }
        #expect(error.kind == .incompatibleModel)
        #expect(try LoaderFixtures.bytes(folder + "/App.sqlite") == before)
    }

    @Test func aStoreAlreadyMigratedIsMergedWithoutASecondMigration() async throws {
        let folder = try LoaderFixtures.folder("migrate-installed")
        try Self.store(folder + "/App.sqlite", version: 1, seedVersion: "1", names: ["Apples", "Mine"])
        try Self.store(folder + "/Seed.sqlite", version: 2, seedVersion: "2", names: ["Apples", "Bread"])
        // What a launch killed after the migration's install leaves: the store at v2, seed 1.
        try await StoreMigrator.migrate(store: folder + "/App.sqlite", source: try Self.source())
        let report = try await Self.loader(folder).prepareReport()
        #expect(report.migration == nil)
        guard case .merged(let version, _) = report.outcome else {
            Issue.record("expected a merge, got \(report.outcome)")
            return
        }
        #expect(version == "2")
        #expect(try Self.names(in: folder + "/App.sqlite") == ["Apples", "Bread", "Mine"])
    }

    /// A user store from seed v1 (catalog model) in which the user renamed S-1 and deleted S-2,
    /// migrated to v1 + Item.rating and merged with seed v2: S-2 stays deleted and S-1 keeps
    /// the user's name, as in a merge without a migration (docs/FirstLaunch.md, "Seed upgrades").
    @Test func theSeedRecordSurvivesTheMigrationSoTheMergeRespectsTheUser() async throws {
        let seeds = try MigrationSeeds.get()
        let store = try LoaderFixtures.folder("migrate-record") + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: try LoaderSeeds.get().v1)
        do {
            let context = try ObjectContext(store: try PersistentStore.open(at: store))
            let deleted = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "sku == %@", "S-2"))
            for item in try context.fetch(deleted) { try context.delete(item) }
            try context.save()
        }
        let records = try LoaderFixtures.value("SELECT count(*) FROM seedkit_seed_Item", in: store)
        #expect(records == "300")

        let twin = store.replacingOccurrences(of: "App.sqlite", with: "Twin.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.copyItem(atPath: store + suffix, toPath: twin + suffix)
        }
        var migration = MigrationOptions()
        migration.batchSize = 25
        for path in [store, twin] {
            let migrated = try await StoreMigrator.migrate(
                store: path, source: MigrationSource(versions: try ModelVersionSet.load(from: seeds.versions)),
                options: migration)
            #expect(migrated.changed)
        }
        #expect(try LoaderFixtures.bytes(store) == LoaderFixtures.bytes(twin))
        // The base rows went through the pass as the objects did: S-0 is as the seed gave it.
        #expect(try LoaderFixtures.value("SELECT count(*) FROM seedkit_seed_Item", in: store) == records)
        #expect(
            try LoaderFixtures.value(
                "SELECT count(*) FROM seedkit_seed_Item r JOIN Item i ON i.pk = r.pk WHERE i.sku = 'S-0'"
                    + " AND r.name IS i.name AND r.price IS i.price AND r.rating IS i.rating AND r.unit IS i.unit"
                    + " AND r.ent IS i.ent AND r.opt IS i.opt",
                in: store) == "1")

        var options = SeedLoaderOptions()
        options.migration = MigrationSource(versions: try ModelVersionSet.load(from: seeds.versions))
        let outcome = try await SeedLoader(seed: .store(seeds.seedV2), store: store, options: options).prepare()
        guard case .merged(_, let report) = outcome else {
            Issue.record("expected a merge, got \(outcome)")
            return
        }
        #expect(report.entities["Item"]?.notRestored == 1)
        #expect(report.entities["Item"]?.added == 200)
        #expect(try LoaderFixtures.value("SELECT count(*) FROM Item WHERE sku = 'S-2'", in: store) == "0")
        #expect(try LoaderFixtures.value("SELECT name FROM Item WHERE sku = 'S-1'", in: store) == "Mine")
        #expect(try LoaderFixtures.value("SELECT count(*) FROM Item", in: store) == "500")
    }
}
