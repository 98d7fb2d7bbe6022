// Exports re-import through plans that name only the entity and its key, in every format,
// giving the same object graph (ordered relationships in order).
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct ExportRoundTripTests {
    @Test(arguments: [ExportFormat.csv, .json, .ndjson, .xml])
    func exportThenImportGivesTheSameGraph(format: ExportFormat) async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        _ = try await fixture.run("catalog-csv.yaml")
        let source = try PersistentStore.open(at: fixture.path("Catalog.sqlite"))
        let entities = [
            ("Unit", "name"), ("Location", "aisle"), ("Tag", "name"), ("Item", "sku"), ("ShoppingList", "code"),
        ]
        var sources: [String] = []
        for (entity, key) in entities {
            let file = "\(entity).\(format.rawValue)"
            try Exporter(store: source, entity: entity, format: format).export(to: fixture.path(file))
            sources.append("  - {file: \(file), entity: \(entity), key: [\(key)]}")
        }
        try fixture.write(
            "roundtrip.yaml",
            "model: Catalog.yaml\nstore: Copy.sqlite\nsources:\n" + sources.joined(separator: "\n") + "\n")
        let report = try await fixture.run("roundtrip.yaml")
        #expect(report.entities["Item"]?.inserted == 5)
        #expect(try ImportFixture.catalogContents(fixture.path("Copy.sqlite")) == CatalogImportTests.expected)
    }
}
