// Bad input: exact error positions, abort leaves nothing, skip refuses exactly the bad
// records (and writes them to the rejects file), dry runs write nothing.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct ImportErrorTests {
    static let plan = """
        model: Catalog.yaml
        store: Catalog.sqlite
        rejects: rejects.jsonl
        batchSize: 2
        sources:
          - file: items.csv
            entity: Item
            key: [sku]
            attributes: {sku: sku, name: name, price: price, quantity: quantity}
        """

    static func fixture(items: String) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("items.csv", items)
        try fixture.write("plan.yaml", plan)
        return fixture
    }

    static let badItems =
        "sku,name,price,quantity\nC-1,One,1.5,1\nC-2,Two,1.5,2\nC-3,Three,12x,3\nC-4,Four,2,99999999999\nC-5,Five,3,5\n"

    @Test func aMissingColumnIsNamedAtTheHeader() async throws {
        let fixture = try Self.fixture(items: "sku,name,cost\nC-1,One,1.5\n")
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        #expect(
            failure.reason.hasSuffix(
                "items.csv:1:1 (byte 0, record 0): no column named \"price\" in the header (its columns: \"sku\", \"name\", \"cost\")"
            ))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Catalog.sqlite")))
    }

    @Test func abortNamesThePositionAndLeavesNoStore() async throws {
        let fixture = try Self.fixture(items: Self.badItems)
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        let error = try #require(failure.report.errors.first)
        #expect(error.file.hasSuffix("items.csv"))
        #expect(error.line == 4 && error.column == 11 && error.record == 3)
        #expect(error.field == "price" && error.value == "12x")
        #expect(failure.reason.contains("items.csv:4:11 (byte 62, record 3) field price: \"12x\" is not a number"))
        #expect(!failure.report.committed)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Catalog.sqlite")))
    }

    @Test func abortOnAnExistingStoreRestoresIt() async throws {
        let fixture = try Self.fixture(items: "sku,name,price,quantity\nC-1,One,1.5,1\n")
        _ = try await fixture.run("plan.yaml")
        let store = fixture.path("Catalog.sqlite")
        let before = try ImportFixture.rows(store, "SELECT pk, sku, name, price, opt FROM Item")
        try fixture.write(
            "items.csv", "sku,name,price,quantity\nC-1,Changed,9,1\nC-2,Two,1,1\nC-3,Three,1,1\nC-4,Bad,x,1\n")
        _ = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        #expect(try ImportFixture.rows(store, "SELECT pk, sku, name, price, opt FROM Item") == before)
        #expect(try PersistentStore.metadata(at: store)["run.active"] == nil)
    }

    @Test func skipRefusesExactlyTheBadRecords() async throws {
        let fixture = try Self.fixture(items: Self.badItems)
        var options = ImportOptions()
        options.onError = .skip
        let report = try await fixture.run("plan.yaml", options: options)
        #expect(report.entities["Item"]?.inserted == 3)
        #expect(report.entities["Item"]?.rejected == 2)
        #expect(report.errors.map(\.record) == [3, 4])
        #expect(report.errors[1].message.contains("out of range"))
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT sku FROM Item ORDER BY sku") == [
                "C-1", "C-2", "C-5",
            ])
        let lines = try String(contentsOfFile: fixture.path("rejects.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("\"line\":4") && lines[0].contains("\"sku\":\"C-3\""))
    }

    @Test func tooManyRejectsRollBack() async throws {
        let fixture = try Self.fixture(items: Self.badItems)
        var options = ImportOptions()
        options.onError = .skip
        options.maxErrors = 1
        let failure = try await #require(throws: ImportFailure.self) {
            try await fixture.run("plan.yaml", options: options)
        }
        #expect(failure.reason.contains("maxErrors"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Catalog.sqlite")))
    }

    @Test func dryRunWritesNothing() async throws {
        let fixture = try Self.fixture(items: "sku,name,price,quantity\nC-1,One,1.5,1\n")
        _ = try await fixture.run("plan.yaml")
        let store = fixture.path("Catalog.sqlite")
        try fixture.write("items.csv", "sku,name,price,quantity\nC-1,One,2.5,1\nC-2,Two,1,1\n")
        var options = ImportOptions()
        options.dryRun = true
        let report = try await fixture.run("plan.yaml", options: options)
        #expect(!report.committed)
        #expect(report.entities["Item"]?.inserted == 1 && report.entities["Item"]?.updated == 1)
        #expect(try ImportFixture.rows(store, "SELECT sku, price FROM Item") == ["C-1|1.5"])
    }

    @Test func malformedCSVStopsWithItsPosition() async throws {
        let fixture = try Self.fixture(items: "sku,name,price,quantity\nC-1,One,1.5,1\nC-2,\"Two,1.5,2\n")
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        #expect(failure.reason.contains("items.csv:3:"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Catalog.sqlite")))
    }
}
