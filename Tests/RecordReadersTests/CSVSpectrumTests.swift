// csv-spectrum (Fixtures/csv-spectrum, BSD-2-Clause): twelve CSV files that exercise quoting,
// empty fields, CRLF, line breaks in quotes, non-ASCII text and quotes inside unquoted fields,
// each read with the default dialect and compared with the records its JSON file lists.
import Foundation
import Testing

@testable import RecordReaders

@Suite("CSV reader: csv-spectrum")
struct CSVSpectrumTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/csv-spectrum")

    static let cases = [
        "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "location_coordinates", "newlines",
        "newlines_crlf", "quotes_and_newlines", "simple", "simple_crlf", "utf8",
    ]

    @Test func theSuiteHasTwelveFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("csvs").path)
        #expect(files.sorted() == Self.cases.map { $0 + ".csv" })
    }

    @Test(arguments: cases)
    func readsAsItsJSONSays(_ name: String) throws {
        let csv = try Data(contentsOf: Self.folder.appendingPathComponent("csvs/\(name).csv"))
        let json = try Data(contentsOf: Self.folder.appendingPathComponent("json/\(name).json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: String]])
        let records = try readAll(Array(csv), format: .csv)
        let read = records.map { record in
            Dictionary(uniqueKeysWithValues: record.fields.map { ($0.name ?? "", $0.string) })
        }
        #expect(read == expected)
    }
}
