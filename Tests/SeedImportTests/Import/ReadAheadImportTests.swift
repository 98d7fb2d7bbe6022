// Sources parsed on a thread of their own (ImportOptions.readsAhead) or on the thread that
// prepares their records give the same store, counts and rejects with their positions: the XML
// and JSON catalogs, each with a record that does not coerce.
import Foundation
import Testing

@testable import SeedImport

@Suite struct ReadAheadImportTests {
    /// `plan` over `file`, whose first `find` is replaced by `bad`, imported both ways.
    func importBothWays(plan: String, file: String, find: String, bad: String) async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        let text = try String(contentsOfFile: fixture.path(file), encoding: .utf8)
        let broken = text.replacingOccurrences(of: find, with: bad)
        #expect(broken != text)
        try fixture.write(file, broken)
        var reports: [ImportReport] = []
        var tables: [[String]] = []
        for (index, readsAhead) in [true, false].enumerated() {
            var options = ImportOptions()
            options.readsAhead = readsAhead
            options.onError = .skip
            options.store = fixture.path("Store\(index).sqlite")
            reports.append(try await fixture.run(plan, options: options))
            tables.append(try SharedPassTests.tables(fixture.path("Store\(index).sqlite")))
        }
        #expect(tables[0] == tables[1])
        #expect(tables[0].count > 10)
        #expect(reports[0].entities == reports[1].entities)
        #expect(reports[0].sources.map(\.records) == reports[1].sources.map(\.records))
        #expect(reports[0].sources.map(\.rejected) == [1, 0])
        #expect(reports[1].sources.map(\.rejected) == [1, 0])
        #expect(SharedPassTests.positions(reports[0]) == SharedPassTests.positions(reports[1]))
    }

    @Test func xmlCatalogIsTheSameParsedAheadOrNot() async throws {
        try await importBothWays(
            plan: "catalog-xml.yaml", file: "catalog.xml", find: "quantity=\"80\"", bad: "quantity=\"eighty\"")
    }

    @Test func jsonCatalogIsTheSameParsedAheadOrNot() async throws {
        try await importBothWays(
            plan: "catalog-json.yaml", file: "catalog.json", find: "\"quantity\": 80", bad: "\"quantity\": \"eighty\"")
    }
}
