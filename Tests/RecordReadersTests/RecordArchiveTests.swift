// Records archived and read back (an import keeps records aside on disk this way): every value,
// name, nested record and position comes back the same, for each format; bytes that are not an
// archive — cut short anywhere, or changed — give nil, never a crash. A broken record's error
// comes back the same too.
import Testing

@testable import RecordReaders

@Suite struct RecordArchiveTests {
    static let inputs: [(RecordFormat, String, ReaderOptions)] = [
        (.csv, "sku,name,notes\nA-1,\"Milk, whole\",\"two\nlines\"\nA-2,Crème,\n", ReaderOptions()),
        (
            .json, #"{"items": [{"sku": "A-1", "tags": ["x", "y"], "unit": {"name": "kg"}, "n": 1.50, "ok": null}]}"#,
            ReaderOptions(records: "items[*]")
        ),
        (
            .xml, "<catalog><item sku=\"A-1\"><name>Salt &amp; pepper</name><tag>x</tag><tag>y</tag></item></catalog>",
            ReaderOptions(records: "catalog/item")
        ),
    ]

    /// Values, names, positions and paths, down to nested records.
    static func describe(_ record: SourceRecord) -> String {
        "\(record.position) \(record.name ?? "-") \(dump(record.value)) "
            + record.fields.map { "\($0.position) \($0.isQuoted) \($0.isEmptyCSVField)" }.joined(separator: "; ")
    }

    @Test(arguments: 0..<3)
    func archivedRecordsComeBackTheSame(input: Int) throws {
        let (format, text, options) = Self.inputs[input]
        let records = try readAll(text, format: format, options: options)
        #expect(!records.isEmpty)
        for record in records {
            let restored = try #require(SourceRecord(archive: record.archived()))
            #expect(Self.describe(restored) == Self.describe(record))
            for field in record.fields {
                guard let nested = field.record else { continue }
                let restoredNested = try #require(SourceRecord(archive: nested.archived()))
                #expect(Self.describe(restoredNested) == Self.describe(nested))
            }
        }
    }

    @Test func aCSVRecordKeepsItsHeader() throws {
        let records = try readAll("sku,name\nA-1,Milk\n", format: .csv)
        let record = try #require(records.first)
        let restored = try #require(SourceRecord(archive: record.archived()))
        #expect(restored[path("name")]?.string == "Milk")
    }

    @Test func bytesThatAreNotAnArchiveGiveNil() throws {
        let records = try readAll(Self.inputs[1].1, format: .json, options: Self.inputs[1].2)
        let archive = try #require(records.first).archived()
        for length in 0..<archive.count {
            #expect(SourceRecord(archive: Array(archive.prefix(length))) == nil)
        }
        #expect(SourceRecord(archive: archive + [0]) == nil)
        var random = SeededGenerator(seed: 17)
        for _ in 0..<2000 {
            var changed = archive
            changed[Int.random(in: 0..<changed.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            if let record = SourceRecord(archive: changed) {
                // A change that still makes an archive gives a record whose values can all be read.
                _ = Self.describe(record)
            }
        }
    }
}

@Suite struct ErrorArchiveTests {
    @Test func aBrokenRecordsErrorComesBackTheSame() throws {
        var reader = try RecordReaderFactory.open(.bytes(Array("a,b\n1,2\n3\n4,5\n".utf8), name: "rows.csv"))
        var broken: RecordReaderError?
        while let result = try reader.nextResult() {
            if case .failure(let error) = result { broken = error }
        }
        let error = try #require(broken)
        #expect(error.brokenRecord?.text == "3")
        #expect(RecordReaderError(archive: error.archived()) == error)
        let plain = RecordReaderError(
            .syntax, "bad", file: "x.json", line: 3, column: 4, byteOffset: 99, recordNumber: 7)
        #expect(RecordReaderError(archive: plain.archived()) == plain)
        let archive = error.archived()
        for length in 0..<archive.count {
            #expect(RecordReaderError(archive: Array(archive.prefix(length))) == nil)
        }
    }
}
