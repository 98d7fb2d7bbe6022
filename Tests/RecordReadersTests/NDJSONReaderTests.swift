// NDJSON conformance: one value per line, blank lines, and errors that name the line.
import Testing

@testable import RecordReaders

@Suite("NDJSON reader")
struct NDJSONReaderTests {
    @Test func oneRecordPerLine() throws {
        let records = try readAll("{\"a\": 1}\n\n  \n[2]\r\n\"x\"\n{\"a\": {\"b\": true}}", format: .ndjson)
        #expect(records.count == 4)
        #expect(records.map(\.position.line) == [1, 4, 5, 6])
        #expect(records.map(\.position.recordNumber) == [1, 2, 3, 4])
        #expect(records[0][path("a")]?.string == "1")
        #expect(records[1].kind == .list)
        #expect(records[2].value.string == "x")
        #expect(records[3][path("a.b")]?.kind == .bool)
        #expect(records[3].position.path == "")
    }

    @Test func emptyInput() throws {
        #expect(try readAll("", format: .ndjson).isEmpty)
        #expect(try readAll("\n\n", format: .ndjson).isEmpty)
    }

    @Test func errorsNameTheLine() {
        let split = readError("{\"a\": 1}\n{\"a\":\n 2}\n", format: .ndjson)
        #expect(split?.reason == "line ends inside the record, expected a value")
        #expect(split.lineColumn == "2:6")
        #expect(split?.recordNumber == 2)
        let twoValues = readError("{\"a\": 1} {\"b\": 2}\n", format: .ndjson)
        #expect(twoValues?.reason == "unexpected '{', expected the end of the line")
        #expect(twoValues.lineColumn == "1:10")
        let bad = readError("1\n2\n[1,]\n", format: .ndjson)
        #expect(bad?.reason == "trailing comma")
        #expect(bad.lineColumn == "3:4")
        #expect(bad?.description == "test.ndjson:3:4 (byte 7, record 3): trailing comma")
    }
}
