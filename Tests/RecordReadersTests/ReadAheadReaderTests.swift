// Reading ahead on a thread of its own changes nothing a caller sees: the same records,
// positions, progress counters, recoverable and final errors, in the same order, across many
// blocks; and a reader dropped before its end stops its thread and releases its input.
import Synchronization
import Testing

@testable import RecordReaders

@Suite("Read-ahead reader")
struct ReadAheadReaderTests {
    /// One line per call to `next()` until it returns `nil`: the record (position and values)
    /// or the error, with `recordsRead` and `bytesConsumed` after the call.
    private func steps(_ reader: inout some RecordReader, limit: Int = 100_000) -> [String] {
        var lines: [String] = []
        while lines.count < limit {
            do throws(RecordReaderError) {
                guard let record = try reader.next() else {
                    lines.append("end \(reader.recordsRead) \(reader.bytesConsumed)")
                    break
                }
                lines.append(
                    "\(record.position) \(dump(record.value)) \(reader.recordsRead) \(reader.bytesConsumed)")
            } catch {
                lines.append("error \(error) recoverable=\(error.isRecoverable) \(reader.recordsRead)")
            }
        }
        return lines
    }

    /// The steps of `bytes` read by the factory with and without reading ahead.
    private func bothWays(_ bytes: [UInt8], _ format: RecordFormat, records: String? = nil) throws -> (
        ahead: [String], direct: [String]
    ) {
        let source = InputSource.bytes(bytes, name: "data.\(format)")
        var ahead = try RecordReaderFactory.open(source, format: format, options: ReaderOptions(records: records))
        var direct = try RecordReaderFactory.open(
            source, format: format, options: ReaderOptions(records: records, readAhead: false))
        #expect(
            ahead is ReadAheadReader<JSONReader> || ahead is ReadAheadReader<NDJSONReader>
                || ahead is ReadAheadReader<XMLReader>)
        return (steps(&ahead), steps(&direct))
    }

    /// Reads `text` at `path` both ways, expecting `records` records, then an error starting with
    /// `error`, then the end.
    private func expectSameRecordsThenError(
        _ text: String, _ format: RecordFormat, path: String, count records: Int, error: String
    ) throws {
        let (ahead, direct) = try bothWays(Array(text.utf8), format, records: path)
        #expect(ahead == direct)
        #expect(ahead.count == records + 2)
        #expect(ahead.dropLast().last?.hasPrefix(error) == true)
        #expect(ahead.last?.hasPrefix("end \(records) ") == true)
    }

    @Test func recordsAcrossBlocksThenTheErrorThatEndsThem() throws {
        var json = "{\"items\": ["
        var xml = "<catalog>"
        for index in 0..<1_000 {
            json += "{\"sku\": \"S\(index)\", \"tags\": [\(index), true, null]},\n"
            if index < 300 { xml += "<item n=\"\(index)\"/>" }
        }
        json += "{\"sku\": \"bad\" \"x\": 1}]}"
        xml += "<item n=\"x\"></catalog>"
        try expectSameRecordsThenError(json, .json, path: "items[*]", count: 1_000, error: "error data.json:1001:")
        try expectSameRecordsThenError(xml, .xml, path: "catalog/item", count: 300, error: "error data.xml:1:")
    }

    @Test func ndjsonAndXMLWholeFiles() throws {
        var lines = ""
        var xml = "<catalog>\n"
        for index in 0..<700 {
            lines += "{\"n\": \(index), \"name\": \"é \(index)\"}\n"
            xml += "  <item n=\"\(index)\"><name>é &amp; \(index)</name><tag>a</tag><tag>b</tag></item>\n"
        }
        xml += "</catalog>\n"
        let ndjson = try bothWays(Array(lines.utf8), .ndjson)
        #expect(ndjson.ahead == ndjson.direct)
        #expect(ndjson.ahead.last == "end 700 \(lines.utf8.count)")
        let items = try bothWays(Array(xml.utf8), .xml, records: "catalog/item")
        #expect(items.ahead == items.direct)
        #expect(items.ahead.last == "end 700 \(xml.utf8.count)")
    }

    @Test func recoverableErrorsLetReadingGoOn() throws {
        var text = "a,b\n"
        for index in 0..<600 { text += index % 97 == 5 ? "broken\n" : "\(index),x\n" }
        let source = InputSource.bytes(Array(text.utf8), name: "rows.csv")
        var ahead = ReadAheadReader(try CSVReader(source))
        var direct = try CSVReader(source)
        let aheadSteps = steps(&ahead)
        #expect(aheadSteps == steps(&direct))
        #expect(aheadSteps.filter { $0.contains("recoverable=true") }.count == 7)
        #expect(aheadSteps.last == "end 593 \(text.utf8.count)")
        #expect(try ahead.next() == nil)
    }

    @Test func resolvesBeforeReading() throws {
        let source = InputSource.bytes(Array("id,name\n1,x\n".utf8), name: "r.csv")
        var reader = ReadAheadReader(try CSVReader(source))
        let name = try reader.resolve(FieldPath(parsing: "name"))
        #expect(name.columnIndex == 1)
        #expect(try reader.next()?[name]?.string == "x")
    }

    @Test func droppingTheReaderStopsItsThread() async throws {
        let released = Flag()
        do {
            var reader = ReadAheadReader(try EndlessReader(token: Token(released)))
            for _ in 0..<10 { _ = try reader.next() }
        }
        // The thread stops at its next block and drops the reader, which frees its token.
        for _ in 0..<500 where !released.isSet { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(released.isSet)
    }
}

/// Set once, read from any thread.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// Sets its flag when freed.
private final class Token {
    let flag: Flag
    init(_ flag: Flag) { self.flag = flag }
    deinit { flag.set() }
}

/// A reader that never ends: the same one-field record forever.
private struct EndlessReader: RecordReader {
    let token: Token
    var recordsRead = 0
    var bytesConsumed: Int { recordsRead * 4 }
    var fileName: String { "endless.csv" }
    private var inner: CSVReader

    init(token: Token) throws(RecordReaderError) {
        self.token = token
        inner = try CSVReader(.bytes(Array("a\n1\n".utf8), name: "endless.csv"))
    }

    mutating func next() throws(RecordReaderError) -> SourceRecord? {
        recordsRead += 1
        if let record = try inner.next() { return record }
        inner = try CSVReader(.bytes(Array("a\n1\n".utf8), name: "endless.csv"))
        return try inner.next()
    }
}
