// Kill -9 during the first launch of an app's second release (docs/FirstLaunch.md, "A new model
// version"): the loader migrates the user's store (made from seed v1 with the catalog model, then
// edited) to the catalog model + Item.rating and merges seed v2, built with that model. The probe
// stops at a stop point of the migration inside the loader — the store prepared, a batch of the
// new file committed, the new file built but not installed, the new file just installed — or
// during the merge that follows, and is killed there. Each time the store is SQLite-consistent
// and either at the old version with exactly its old objects or at the new version, and the
// next launch finishes with exactly the objects of a launch that was never killed.
import Foundation
import GraphStore
import ModelFiles
import StoreMigration
import Testing

@testable import SeedKit

@Suite(.serialized) struct SeedLoaderMigrationKillTests {
    /// The loader's options of the app's second release: migrate with the versions file, batches of 25.
    static func options() throws -> SeedLoaderOptions {
        var options = SeedLoaderOptions()
        options.migration = MigrationSource(versions: try ModelVersionSet.load(from: try MigrationSeeds.get().versions))
        options.batchSize = 25
        return options
    }

    /// A user store made from seed v1 (S-1 renamed "Mine", U-1 added) in a new folder.
    static func userStore(_ name: String) throws -> String {
        let store = try LoaderFixtures.folder(name) + "/App.sqlite"
        try LoaderFixtures.makeUserStore(at: store, from: try LoaderSeeds.get().v1)
        return store
    }

    /// The store's objects by their natural keys, one line each: items (sku, name, price, rating
    /// when the model has it, unit, tags), units, tags, lists with their items in order.
    static func objects(in path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let rated = try connection.prepare("SELECT count(*) FROM pragma_table_info('Item') WHERE name = 'rating'")
        let hasRating = try rated.step() && rated.int(0) == 1
        let queries = [
            """
            SELECT 'item ' || i.sku || '|' || i.name || '|' || i.price || '|' || \(hasRating ? "i.rating" : "'-'")
              || '|' || coalesce(u.name, '') || '|' || coalesce((SELECT group_concat(name, ',') FROM
              (SELECT t.name FROM Item_tags j JOIN Tag t ON t.pk = j.dst WHERE j.src = i.pk ORDER BY t.name)), '')
            FROM Item i LEFT JOIN Unit u ON u.pk = i.unit ORDER BY i.sku
            """,
            "SELECT 'unit ' || name FROM Unit ORDER BY name",
            "SELECT 'tag ' || name FROM Tag ORDER BY name",
            """
            SELECT 'list ' || l.code || ' ' || coalesce((SELECT group_concat(sku, ',') FROM (SELECT i.sku FROM
              ShoppingList_items j JOIN Item i ON i.pk = j.dst WHERE j.src = l.pk ORDER BY j.position)), '')
            FROM ShoppingList l ORDER BY l.code
            """,
        ]
        var lines: [String] = []
        for sql in queries {
            let statement = try connection.prepare(sql)
            while try statement.step() { lines.append(statement.string(0)) }
        }
        return lines
    }

    /// The objects of a launch that is never killed: a user store migrated and seed v2 merged.
    static func cleanLaunch() async throws -> [String] {
        let store = try userStore("migrate-kill-clean")
        let report = try await SeedLoader(
            seed: .store(try MigrationSeeds.get().seedV2), store: store, options: try options()
        ).prepareReport()
        #expect(report.migration?.changed == true)
        return try objects(in: store)
    }

    /// Stop points of the migration inside the loader, and where the store must stand after a
    /// kill there: at the old version (not installed yet) or at the new one.
    @Test(arguments: [
        ("migration:prepared", false), ("migration:batch:1:2", false), ("migration:built", false),
        ("migration:renamed", true), ("merging:2", true),
    ])
    func killedWhileMigratingOrMergingLeavesTheOldOrTheNewStoreAndTheNextLaunchFinishes(
        point: String, installed: Bool
    ) async throws {
        let seeds = try MigrationSeeds.get()
        let store = try Self.userStore("migrate-kill")
        let before = try Self.objects(in: store)
        #expect(before.contains { $0.hasPrefix("item S-1|Mine|") } && before.contains { $0.hasPrefix("item U-1|") })
        let paused = try LoaderProbe.killAt(
            point, seed: seeds.seedV2, store: store, options: ["--versions", seeds.versions])
        #expect(paused == "paused \(point.replacingOccurrences(of: ":", with: " ", range: point.range(of: ":")))\n")

        #expect(try LoaderFixtures.value("PRAGMA integrity_check", in: store) == "ok")
        let metadata = try PersistentStore.metadata(at: store)
        if installed {
            #expect(metadata.isAt(seeds.v2))
        } else {
            #expect(metadata.isAt(seeds.v1))
            #expect(metadata["seed.version"] == LoaderSeeds.v1Version)
            #expect(try Self.objects(in: store) == before)
        }
        if point == "migration:renamed" {
            // Installed, nothing merged yet: the user's objects, each with the new attribute's default.
            #expect(metadata["seed.version"] == LoaderSeeds.v1Version)
            #expect(
                try Self.objects(in: store)
                    == before.map { line in
                        guard line.hasPrefix("item ") else { return line }
                        return line.replacingOccurrences(of: "|-|", with: "|3|")
                    })
        }

        let report = try await SeedLoader(seed: .store(seeds.seedV2), store: store, options: try Self.options())
            .prepareReport()
        guard case .merged(let version, _) = report.outcome else {
            Issue.record("expected a merge, got \(report.outcome)")
            return
        }
        #expect(version == LoaderSeeds.v2Version)
        #expect((report.migration != nil) == !installed)
        #expect(try PersistentStore.metadata(at: store).isAt(seeds.v2))
        #expect(try Self.objects(in: store) == (try await Self.cleanLaunch()))
        try LoaderFixtures.expectMergedUserStore(store)
        #expect(try LoaderFixtures.value("SELECT count(*) FROM Item WHERE rating = 3", in: store) == "501")
    }
}
