// Gzip input: every format read through zlib gives the records, positions and errors of the
// plain text (positions count decompressed bytes), progress counts compressed bytes, several
// members are one text, and a corrupt, truncated or non-gzip stream is a `.compression`
// error at its offset in the compressed file — at every chunk size.
import Testing

@testable import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

/// `bytes` as one gzip member.
func gzip(_ bytes: [UInt8], level: Int = 6) -> [UInt8] {
    GzipCompression.compress(bytes, level: level) ?? []
}

@Suite("Gzip input")
struct GzipInputTests {
    /// Each record's position (without the file name) and values, so plain and compressed
    /// readings can be compared.
    private func rendered(_ records: [SourceRecord]) -> [String] {
        records.map { record in
            let position = record.position
            return "\(position.line):\(position.column) @\(position.byteOffset) #\(position.recordNumber) "
                + "\(position.path) \(dump(record.value))"
        }
    }

    /// A document of `count` records in `format`, with quoting, line breaks and non-ASCII text.
    private func document(_ format: RecordFormat, count: Int) -> String {
        let rows = (0..<count).map { index in
            (sku: "S\(index)", name: index % 7 == 0 ? "Pear, \"green\"\nsweet é" : "n\(index)")
        }
        switch format {
        case .csv:
            return "sku,name\n" + rows.map { "\($0.sku),\"\($0.name.replacing("\"", with: "\"\""))\"\n" }.joined()
        case .tsv:
            return "sku\tname\n" + rows.map { "\($0.sku)\t\"\($0.name.replacing("\"", with: "\"\""))\"\n" }.joined()
        case .json:
            let items = rows.map { "{\"sku\": \"\($0.sku)\", \"name\": \(jsonString($0.name))}" }
            return "{\"items\": [\n" + items.joined(separator: ",\n") + "\n]}"
        case .ndjson:
            return rows.map { "{\"sku\": \"\($0.sku)\", \"name\": \(jsonString($0.name))}\n" }.joined()
        case .xml:
            let items = rows.map {
                "<item sku=\"\($0.sku)\"><name>\($0.name.replacing("&", with: "&amp;").replacing("\"", with: "&quot;"))</name></item>\n"
            }
            return "<?xml version=\"1.0\"?>\n<catalog>\n" + items.joined() + "</catalog>\n"
        }
    }

    private func jsonString(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }

    private func options(_ format: RecordFormat) -> ReaderOptions {
        ReaderOptions(records: format == .json ? "items[*]" : format == .xml ? "catalog/item" : nil)
    }

    @Test(arguments: RecordFormat.allCases)
    func everyFormatReadsAsItsPlainText(_ format: RecordFormat) throws {
        let plain = Array(document(format, count: 300).utf8)
        let compressed = gzip(plain)
        #expect(compressed.count < plain.count / 2)
        let sizes = [1, 7, 1000, 64 * 1024]
        let expected = try readAll(plain, format: format, options: options(format), sizes: [64 * 1024])
        #expect(expected.count == 300)
        var reader = try RecordReaderFactory.open(
            .bytes(compressed, name: "items.\(format.rawValue).gz"), options: options(format))
        var records: [SourceRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(rendered(records) == rendered(expected))
        #expect(reader.bytesConsumed == compressed.count)
        // Every chunk size agrees (readAll compares them and checks the compressed byte count).
        let chunked = try readAllCompressed(compressed, format: format, sizes: sizes)
        #expect(rendered(chunked) == rendered(expected))
    }

    /// Reads `compressed` named `items.<format>.gz` at every size in `sizes` (readAll checks they agree).
    private func readAllCompressed(
        _ compressed: [UInt8], format: RecordFormat, sizes: [Int], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [SourceRecord] {
        try readAll(compressed, format: format, options: options(format), sizes: sizes, sourceLocation: sourceLocation)
    }

    @Test func filesAreReadStreamingWithProgressInCompressedBytes() throws {
        let plain = Array(document(.csv, count: 5000).utf8)
        let compressed = gzip(plain)
        let file = "/tmp/seedkit-gzip-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv.gz"
        defer { unlink(file) }
        let handle = try #require(fopen(file, "w"))
        _ = compressed.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        fclose(handle)
        var reader = try RecordReaderFactory.open(.file(file), options: ReaderOptions(chunkSize: 4096))
        var last = 0
        var count = 0
        var progress: Set<Int> = []
        while let record = try reader.next() {
            #expect(reader.bytesConsumed >= last)
            #expect(reader.bytesConsumed <= compressed.count)
            last = reader.bytesConsumed
            progress.insert(last)
            if count == 4999 {
                // Positions count decompressed bytes: the last row starts where the plain text has it.
                let start = plain.count - Array("S4999,\"n4999\"\n".utf8).count
                #expect(record.position.byteOffset == start)
                #expect(record.position.line == 2 + 4999 + 715)  // 715 names before it hold a line break
            }
            count += 1
        }
        #expect(count == 5000)
        #expect(reader.bytesConsumed == compressed.count)
        #expect(progress.count > 3)
    }

    @Test func gzipIsRecognisedByItsFirstBytesWhateverTheName() throws {
        let plain = Array("a,b\n1,2\n".utf8)
        let records = try readAll(gzip(plain), format: .csv)
        #expect(records.map { $0.fields.map(\.string) } == [["1", "2"]])
        #expect(try InputSource.bytes(gzip(plain), name: "plain.csv").prefix(5) == Array("a,b\n1".utf8))
        #expect(try InputSource.bytes(plain, name: "plain.csv").prefix(100) == plain)
    }

    @Test func membersOneAfterTheOtherAreOneText() throws {
        let first = gzip(Array("a,b\n1,2\n".utf8))
        let second = gzip(Array("3,4\n".utf8))
        let records = try readAll(first + second + [0, 0, 0], format: .csv)
        #expect(records.map { $0.fields.map(\.string) } == [["1", "2"], ["3", "4"]])
        #expect(records[1].position.byteOffset == 8)
    }

    @Test func readingErrorsArePositionedInTheDecompressedText() {
        let error = readError(gzip(Array("a,b\n1,2\n3,\"x\"y\n".utf8)), format: .csv)
        #expect(error.position == "3:6 @13 #2")
        #expect(error?.brokenRecord?.text == "3,\"x\"y")
    }

    // MARK: Broken gzip

    @Test func aCorruptBlockIsAnErrorAtItsCompressedOffset() {
        var compressed = gzip(Array("a,b\n1,2\n".utf8))
        compressed[10] |= 0b110  // the first block's type becomes 3, which does not exist
        let error = readError(compressed, format: .csv)
        #expect(error?.kind == .compression)
        #expect(error?.byteOffset == 11)
        #expect(
            error?.description == "test.csv: corrupt gzip data at byte 11 of the compressed file: invalid block type")
    }

    @Test func recordsBeforeCorruptDataAreReadFirst() throws {
        let plain = Array(document(.csv, count: 4000).utf8)
        var compressed = gzip(plain, level: 1)
        for index in stride(from: compressed.count / 2, to: compressed.count / 2 + 64, by: 1) {
            compressed[index] ^= 0x5A
        }
        var readings: [String] = []
        for size in [1, 7, 4096, 64 * 1024] {
            var reader = try CSVReader(.bytes(compressed, name: "c.csv.gz"), options: ReaderOptions(chunkSize: size))
            var count = 0
            var failure: RecordReaderError?
            do {
                while let result = try reader.nextResult() { if case .success = result { count += 1 } }
            } catch {
                failure = error
            }
            #expect(count > 100)
            #expect(failure?.kind == .compression)
            readings.append("\(count) \(failure.map(\.description) ?? "")")
        }
        #expect(Set(readings).count == 1, "\(readings)")
    }

    @Test func aTruncatedStreamEndsInAnErrorAfterItsRecords() throws {
        let compressed = gzip(Array("a,b\n1,2\n3,4\n".utf8))
        let truncated = Array(compressed.dropLast(8))  // no CRC and length trailer
        var reader = try CSVReader(.bytes(truncated, name: "t.csv.gz"))
        #expect(try reader.next()?.fields.map(\.string) == ["1", "2"])
        #expect(try reader.next()?.fields.map(\.string) == ["3", "4"])
        let error = #expect(throws: RecordReaderError.self) { try reader.next() }
        #expect(error?.kind == .compression)
        #expect(error?.reason == "truncated gzip data: the file ends at byte \(truncated.count) inside the gzip stream")
        #expect(try reader.next() == nil)
        #expect(
            throws: RecordReaderError(
                .compression, "truncated gzip data: the file ends at byte 0 inside the gzip stream", file: "e.csv.gz")
        ) { try CSVReader(.bytes([], name: "e.csv.gz")) }
    }

    @Test func aWrongChecksumNotGzipAndTrailingBytesAreErrors() {
        var compressed = gzip(Array("a,b\n1,2\n".utf8))
        compressed[compressed.count - 8] ^= 0xFF  // the CRC-32 of the text
        let checksum = readError(compressed, format: .csv)
        #expect(
            checksum?.reason
                == "corrupt gzip data at byte \(compressed.count - 4) of the compressed file: incorrect data check")
        #expect(
            throws: RecordReaderError(
                .compression, "not gzip data: it does not start with the gzip header (bytes 1f 8b)", file: "p.csv.gz")
        ) { try CSVReader(.bytes(Array("a,b\n1,2\n".utf8), name: "p.csv.gz")) }
        let member = gzip(Array("a,b\n1,2\n".utf8))
        let trailing = readError(member + Array("junk".utf8), format: .csv)
        #expect(trailing?.reason == "unexpected bytes after the gzip stream, at byte \(member.count)")
    }
}
