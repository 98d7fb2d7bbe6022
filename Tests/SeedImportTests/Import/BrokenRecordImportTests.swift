// Broken CSV rows in an import: with `skip` each is a rejected record (in the report and the
// rejects file with its line, byte offset, reason and raw text) and every row after it is
// imported; with `abort` the first stops the run; `csv: {strict: true}` refuses quotes inside
// unquoted fields; gzip sources import like their plain files.
import Foundation
import GraphStore
import Testing

@testable import SeedImport
import TestSupport

@Suite struct BrokenRecordImportTests {
    /// Rows 1, 3, 5 and 7 are broken: too many fields, an unterminated quote (which swallows the
    /// rest of the file until the reader ends it at its line end), a byte that is not UTF-8, too
    /// few fields.
    static let items: [UInt8] =
        Array("sku,name,price,quantity\nC-1,One,1.5,1,extra\nC-2,12\" pizza,2,2\nC-3,\"Three,3,3\n".utf8)
        + Array("C-4,Four,4,4\nC-5,F".utf8) + [0xFF] + Array("ve,5,5\nC-6,Six,6,6\nC-7,Seven\nC-8,Eight,8,8\n".utf8)

    static func fixture(plan: String = ImportErrorTests.plan) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try Data(items).write(to: URL(fileURLWithPath: fixture.path("items.csv")))
        try fixture.write("plan.yaml", plan)
        return fixture
    }

    @Test func skipRejectsEachBrokenRowAndImportsEveryRowAfterIt() async throws {
        let fixture = try Self.fixture()
        var options = ImportOptions()
        options.onError = .skip
        let report = try await fixture.run("plan.yaml", options: options)
        #expect(report.records == 8)
        #expect(report.entities["Item"]?.inserted == 4)
        #expect(report.entities["Item"]?.rejected == 4)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT sku, name FROM Item ORDER BY sku") == [
                "C-2|12\" pizza", "C-4|Four", "C-6|Six", "C-8|Eight",
            ])
        let positions = report.errors.map { "\($0.line):\($0.column) @\($0.byteOffset) #\($0.record) \($0.message)" }
        #expect(
            positions == [
                "2:15 @38 #1 too many fields: 5, expected 4",
                "4:5 @66 #3 unterminated quoted field",
                "6:6 @95 #5 invalid UTF-8",
                "8:10 @124 #7 too few fields: 2, expected 4",
            ])
        #expect(
            report.errors.map(\.raw) == ["C-1,One,1.5,1,extra", "C-3,\"Three,3,3", "C-5,F\u{FFFD}ve,5,5", "C-7,Seven"])
        let lines = try String(contentsOfFile: fixture.path("rejects.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["line"] as? Int == 4)
        #expect(second["byteOffset"] as? Int == 66)
        #expect(second["message"] as? String == "unterminated quoted field")
        #expect(second["raw"] as? String == "C-3,\"Three,3,3")
        #expect(second["record"] as? Int == 3)  // the record number: a broken row has no fields
    }

    @Test func abortStopsAtTheFirstBrokenRowAndLeavesNoStore() async throws {
        let fixture = try Self.fixture()
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        #expect(failure.reason.hasSuffix("items.csv:2:15 (byte 38, record 1): too many fields: 5, expected 4"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Catalog.sqlite")))
    }

    @Test func strictRefusesAQuoteInAnUnquotedField() async throws {
        let strictPlan = ImportErrorTests.plan.replacingOccurrences(
            of: "    key: [sku]", with: "    key: [sku]\n    csv: {strict: true}")
        let fixture = try Self.fixture(plan: strictPlan)
        try fixture.write("items.csv", "sku,name,price,quantity\nC-1,One,1,1\nC-2,12\" pizza,2,2\nC-3,Three,3,3\n")
        var options = ImportOptions()
        options.onError = .skip
        let report = try await fixture.run("plan.yaml", options: options)
        #expect(
            report.errors.map(\.description).map {
                $0.hasSuffix("items.csv:3:7 (byte 42, record 2): quote in unquoted field")
            } == [true])
        #expect(report.errors.first?.raw == "C-2,12\" pizza,2,2")
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT sku FROM Item ORDER BY sku") == [
                "C-1", "C-3",
            ])
    }

    @Test(arguments: ["catalog-csv.yaml", "catalog-json.yaml", "catalog-xml.yaml"])
    func gzipSourcesImportLikeTheirPlainFiles(plan: String) async throws {
        let fixture = try CatalogImportTests.catalogFixture()
        let compressed = try ChildProcess.runTool(
            "gzip", ["items.csv", "lists.csv", "catalog.json", "catalog.xml"], in: fixture.folder)
        #expect(compressed.status == 0, "\(compressed.stderr)")
        var text = try String(contentsOfFile: fixture.path(plan), encoding: .utf8)
        for name in ["items.csv", "lists.csv", "catalog.json", "catalog.xml"] {
            text = text.replacingOccurrences(of: "file: \(name)", with: "file: \(name).gz")
        }
        try fixture.write(plan, text)
        let report = try await fixture.run(plan)
        #expect(report.errors.isEmpty)
        #expect(try ImportFixture.catalogContents(fixture.path("Catalog.sqlite")) == CatalogImportTests.expected)
    }
}
