// First launch from bundled sources: a plan imported into a new store that appears only when
// complete, then into the user's store when the plan's version is newer (the user's edits kept
// by the plan's `onConflict: keep`), then nothing when the version is the same.
import Foundation
import GraphStore
import Testing

@testable import SeedKit

@Suite struct SeedLoaderPlanTests {
    /// Writes `plan.yaml` (the catalog model's items, upserted by sku, the user's edits kept)
    /// and `items.csv` with `items` records P-1… into `folder`; `batchSize` records per batch
    /// when given, else the plan's default.
    static func writePlan(in folder: String, version: String, items: Int, batchSize: Int? = nil) throws {
        let plan = """
            model: Catalog.yaml
            seed: {version: "\(version)"}\(batchSize.map { "\nbatchSize: \($0)" } ?? "")
            sources:
              - file: items.csv
                entity: Item
                key: [sku]
                onConflict: keep
                attributes: {sku: sku, name: name}
            """
        try Data(plan.utf8).write(to: URL(fileURLWithPath: folder + "/plan.yaml"))
        let csv = "sku,name\n" + (1...items).map { "P-\($0),Product \($0)\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/items.csv"))
    }

    @Test func importsIntoANewStoreThenMergesANewerPlan() async throws {
        let seeds = try LoaderSeeds.get()
        let folder = try LoaderFixtures.folder("plan")
        try FileManager.default.copyItem(atPath: seeds.catalogModel, toPath: folder + "/Catalog.yaml")
        try Self.writePlan(in: folder, version: "1", items: 3)
        let store = folder + "/data/App.sqlite"
        let loader = SeedLoader(seed: .plan(folder + "/plan.yaml"), store: store)
        let phases = Task { await LoaderFixtures.collect(loader.progress).map(\.phase) }
        guard case .imported(let version, let report) = try await loader.prepare() else {
            Issue.record("expected an import")
            return
        }
        #expect(version == "1" && report.entities["Item"]?.inserted == 3)
        #expect(await phases.value.last == .finished)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/data") == ["App.sqlite"])
        #expect(try PersistentStore.metadata(at: store)["seed.version"] == "1")

        let context = try ObjectContext(store: try PersistentStore.open(at: store))
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "sku == %@", "P-1"))
        try context.fetch(request).first?.set("name", "Mine")
        try context.save()
        try Self.writePlan(in: folder, version: "2", items: 5)
        guard
            case .imported("2", let update) = try await SeedLoader(seed: .plan(folder + "/plan.yaml"), store: store)
                .prepare()
        else {
            Issue.record("expected an import of version 2")
            return
        }
        #expect(update.entities["Item"]?.inserted == 2)
        #expect(try LoaderFixtures.value("SELECT count(*) || '/' || count(DISTINCT sku) FROM Item", in: store) == "5/5")
        #expect(try LoaderFixtures.value("SELECT name FROM Item WHERE sku = 'P-1'", in: store) == "Mine")
        #expect(try PersistentStore.metadata(at: store)["seed.version"] == "2")
        #expect(
            try await SeedLoader(seed: .plan(folder + "/plan.yaml"), store: store).prepare() == .upToDate(version: "2"))
    }
}
