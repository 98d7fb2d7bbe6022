// Seeds in Core Data's layout through the Swift API: SeedBuilder(layout: .coreData) builds the
// Grocery Dude seed as one reproducible file that opens with its Xcode model; SeedLoader copies a
// Core Data seed on first launch and merges a newer one into the user's Core Data store (the
// user's objects kept, keys above Z_MAX, seed.version in the metadata property list), and refuses
// a seed whose model is not the app's; the import refuses a Core Data store without its model.
import DeepCopy
import Foundation
import GraphStore
import ModelFiles
import SeedImport
import SeedKit
import Testing

@Suite struct CoreDataSeedTests {
    @Test func seedBuilderWritesAReproducibleCoreDataSeed() async throws {
        let folder = try CoreDataFixtures.scratch()
        let plan = CoreDataFixtures.groceryDude("GroceryDude.yaml")
        let first = try await SeedBuilder(planFile: plan, layout: .coreData).build(to: folder + "/A.sqlite")
        let second = try await SeedBuilder(planFile: plan, layout: .coreData).build(to: folder + "/B.sqlite")
        #expect(first.checksum == second.checksum)
        #expect(!FileManager.default.fileExists(atPath: folder + "/A.sqlite-wal"))
        let model = try ModelLoader.load(from: CoreDataFixtures.groceryDude("GroceryDude.xcdatamodeld"))
        var readOnly = StoreOptions()
        readOnly.readOnly = true
        let store = try PersistentStore.open(at: first.path, model: model, options: readOnly)
        #expect(store.layout.rules.name == "core-data")
        let counts = try store.objectCounts()
        #expect(counts["Item"] == 14 && counts["LocationAtHome"] == 5 && counts["LocationAtShop"] == 7)
        #expect(counts["Unit"] == 8)
        #expect(try store.metadata()["seed.version"] == "1.0")
        #expect(try store.metadata()["seed.generator"] == SeedBuilder.generator)
        let summary = try PersistentStore.summary(at: first.path)
        #expect(summary.metadata.coreDataEntityHashes == model.coreDataVersionHashes.entityHashes)
    }

    /// A single-file Core Data–layout seed of the garden model at `path`, at `version`, with the
    /// garden's objects and, with `west`, one more bed.
    static func makeSeed(at path: String, version: String, west: Bool) throws {
        var options = CoreDataFixtures.coreData
        options.writeAheadLog = false
        let store = try PersistentStore.open(at: path, model: CoreDataReadWriteTests.model(), options: options)
        try CoreDataReadWriteTests.fill(store)
        if west {
            let context = try ObjectContext(store: store)
            let bed = try context.insert("Bed")
            try bed.set("name", "West")
            try context.save()
        }
        try store.setMetadata(["seed.version": version])
    }

    @Test func seedLoaderCopiesThenMergesCoreDataSeedsIntoACoreDataStore() async throws {
        let folder = try CoreDataFixtures.scratch()
        try Self.makeSeed(at: folder + "/v1.sqlite", version: "1", west: false)
        try Self.makeSeed(at: folder + "/v2.sqlite", version: "2", west: true)
        let user = folder + "/App/App.sqlite"
        var options = SeedLoaderOptions()
        options.model = try CoreDataReadWriteTests.model()

        #expect(
            try await SeedLoader(seed: .store(folder + "/v1.sqlite"), store: user, options: options).prepare()
                == .copiedSeed(version: "1"))
        // The user adds a bed of their own, which the app's Core Data would key from Z_MAX.
        let store = try PersistentStore.open(at: user, model: CoreDataReadWriteTests.model())
        let context = try ObjectContext(store: store)
        let mine = try context.insert("Bed")
        try mine.set("name", "Balcony")
        try context.save()

        let outcome = try await SeedLoader(seed: .store(folder + "/v2.sqlite"), store: user, options: options).prepare()
        guard case .merged(let version, let report) = outcome else {
            Issue.record("not merged: \(outcome)")
            return
        }
        #expect(version == "2")
        #expect(report.entities["Bed"]?.added == 1)
        #expect(
            try CoreDataFixtures.column("SELECT ZNAME FROM ZBED ORDER BY Z_PK", in: user) == [
                "North", "South", "Balcony", "West",
            ])
        #expect(try CoreDataFixtures.column("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1", in: user) == ["4"])
        #expect(try CoreDataSchemaTests.metadataDictionary(user)["seed.version"] == "2")
        #expect(
            try CoreDataFixtures.column("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: user) == [])

        // A Core Data seed of another model than the app's is refused before any file is made.
        var other = SeedLoaderOptions()
        other.model = try CoreDataFixtures.sampleModel()
        let elsewhere = folder + "/Other/App.sqlite"
        await #expect {
            _ = try await SeedLoader(seed: .store(folder + "/v2.sqlite"), store: elsewhere, options: other).prepare()
        } throws: { error in
            (error as? SeedLoadError)?.kind == .incompatibleModel && "\(error)".contains("Core Data checksum")
        }
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
    }

    @Test func anImportIntoACoreDataStoreNeedsThePlansModel() async throws {
        let folder = try CoreDataFixtures.scratch()
        try Self.makeSeed(at: folder + "/Garden.sqlite", version: "1", west: false)
        try "name\nEast\n".write(toFile: folder + "/beds.csv", atomically: true, encoding: .utf8)
        var source = SourcePlan(file: "beds.csv", entity: "Bed", key: ["name"])
        source.attributes = ["name": AttributeMapping(field: "name")]
        let plan = ImportPlan(store: "Garden.sqlite", sources: [source], baseDirectory: folder)
        await #expect {
            _ = try await Importer(plan: plan).run()
        } throws: { error in
            "\(error)".contains("is a Core Data store, which holds no model: name its Xcode model in the plan (model:)")
        }
        let report = try await Importer(plan: plan, model: CoreDataReadWriteTests.model()).run()
        #expect(report.entities["Bed"]?.inserted == 1)
        #expect(
            try CoreDataFixtures.column("SELECT ZNAME FROM ZBED ORDER BY Z_PK", in: folder + "/Garden.sqlite") == [
                "North", "South", "East",
            ])
        #expect(
            try CoreDataFixtures.column("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1", in: folder + "/Garden.sqlite")
                == ["3"])
    }
}
