// CSV fast path (CSVWindowRow) against the byte-exact scanner (CSVRowScanner): rows that lie
// wholly in the input window are read in one pass, every other row the byte-exact way, so
// reading the same bytes at different chunk sizes mixes the two paths differently — and must
// give the same fields, quoting, positions, consumed bytes and errors. Records are dropped as
// they are rendered, so the builder refills one storage throughout.
import Testing

@testable import RecordReaders

@Suite("CSV reader: in-window fast path")
struct CSVWindowRowTests {
    /// Small chunks keep most rows out of the window's whole words (byte-exact path); the
    /// large one reads nearly every row in one pass.
    private let sizes = [1, 2, 9, 16, 50, 64 * 1024]

    /// Every record with each field's bytes, quoting and position, and every broken row with
    /// its error and bytes, then the end state or the error that ended reading.
    private func render(_ bytes: [UInt8], options: ReaderOptions) -> String {
        var lines: [String] = []
        do {
            var reader = try CSVReader(.bytes(bytes, name: "w.csv"), options: options)
            while let result = try reader.nextResult() {
                let record: SourceRecord
                switch result {
                case .success(let read):
                    record = read
                case .failure(let broken):
                    let row = broken.brokenRecord
                    lines.append(
                        "broken: \(broken) at \(row?.position.description ?? "") \(row?.bytes ?? []) "
                            + "consumed \(reader.bytesConsumed)")
                    continue
                }
                let fields = record.fields.map { field in
                    let position = field.position
                    return "\(field.withUTF8 { Array($0) }) q\(field.isQuoted) "
                        + "\(position.line):\(position.column)@\(position.byteOffset)"
                }
                lines.append("\(record.position) \(fields) consumed \(reader.bytesConsumed)")
            }
            lines.append("end \(reader.recordsRead) \(reader.bytesConsumed)")
        } catch {
            lines.append("error: \(error)")
        }
        return lines.joined(separator: "\n")
    }

    /// Checks that every chunk size renders `bytes` like the first; returns that rendering.
    @discardableResult
    private func expectSameAtEveryChunkSize(
        _ bytes: [UInt8], options: ReaderOptions = ReaderOptions(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        var options = options
        var reference = ""
        for size in sizes {
            options.chunkSize = size
            let rendered = render(bytes, options: options)
            if size == sizes[0] {
                reference = rendered
            } else {
                #expect(
                    rendered == reference,
                    "chunk size \(size) differs for \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                    sourceLocation: sourceLocation)
            }
        }
        return reference
    }

    @Test func readsWholeRowsInOnePassAndLeavesTheWindowsEnd() throws {
        let text = "h1,h2\n1,\"x\"\"y\"\n22,3\n4,5\n6,7\n"
        var reader = try CSVReader(.bytes(Array(text.utf8), name: "w.csv"))
        var rows: [[String]] = []
        while let storage = reader.readRowInWindow() {
            rows.append(SourceRecord(storage: storage).fields.map(\.string))
        }
        #expect(rows == [["1", "x\"y"], ["22", "3"], ["4", "5"]])
        // The last row ends in the window's last partial word: the byte-exact path reads it.
        #expect(try reader.next()?.fields.map(\.string) == ["6", "7"])
        #expect(try reader.next() == nil)
    }

    @Test func quotedFieldsLineEndsAndUnescapedValues() {
        let padding = String(repeating: "pad,pad\n", count: 4)
        let text =
            "a,b\n\"x,\"\"y\"\"\",\"1\r\n2\"\n\"\"\"\",\"é\"\"日本\"\"\"\r\n,\"\"\r\r\n\n\"p\rq\",z\n" + padding
        let rendered = expectSameAtEveryChunkSize(Array(text.utf8))
        #expect(rendered.contains("\(Array("x,\"y\"".utf8)) qtrue 2:1@4"))
        #expect(rendered.contains("\(Array("é\"日本\"".utf8)) qtrue 4:6@26"))
    }

    @Test func errorsInsideTheWindowMatchTheByteExactPath() {
        let padding = String(repeating: "pad,pad\n", count: 4)
        let strict = ReaderOptions(csv: CSVOptions(strict: true))
        for row in ["1,x\"y", "1,\"x\"y", "1,2,3", "1", "\"a\nb\",c\"", "1,\"open"] {
            let rendered = expectSameAtEveryChunkSize(
                Array(("a,b\n0,0\n" + row + "\n" + padding).utf8), options: strict)
            #expect(rendered.contains("broken: "), "\(row.debugDescription)")
        }
        // Lenient (the default): a quote inside an unquoted field is data on both paths.
        for row in ["1,x\"y", "1,12\" pizza", "5'10\",\"\"", "\"a\nb\",c\""] {
            let rendered = expectSameAtEveryChunkSize(Array(("a,b\n0,0\n" + row + "\n" + padding).utf8))
            #expect(!rendered.contains("broken: "), "\(row.debugDescription)")
        }
        let limits = ReaderOptions(limits: ReaderLimits(maxFieldSize: 3, maxRecordSize: 8, maxValuesPerRecord: 3))
        for row in ["1234,1", "123,123,12", "\"1\"\"23\",3"] {
            let rendered = expectSameAtEveryChunkSize(
                Array(("a,b\n0,0\n" + row + "\n" + padding).utf8), options: limits)
            #expect(rendered.contains("error: ") || rendered.contains("broken: "), "\(row.debugDescription)")
        }
    }

    @Test func sequenceSplitByADelimiterIsInvalidUTF8() {
        // 0xC3 0xA9 is "é": split across two fields, each half is ill-formed on its own.
        let bytes = Array("a,b\n".utf8) + [0x78, 0xC3, 0x2C, 0xA9, 0x79, 0x0A] + Array("pad,pad\npad,pad\n".utf8)
        let rendered = expectSameAtEveryChunkSize(bytes)
        #expect(
            rendered.hasPrefix("broken: w.csv:2:2 (byte 5, record 1): invalid UTF-8 at w.csv:2:1 (byte 4, record 1) "))
    }

    @Test func randomInputsReadAlikeAtEveryChunkSize() {
        var random = SeededGenerator(seed: 4180)
        for _ in 0..<300 {
            var options = ReaderOptions()
            var dialect = CSVOptions()
            if Bool.random(using: &random) { dialect.delimiter = UInt8(ascii: "\t") }
            if Int.random(in: 0..<8, using: &random) == 0 { dialect.quote = nil }
            dialect.hasHeader = Bool.random(using: &random)
            dialect.allowRagged = Int.random(in: 0..<4, using: &random) == 0
            dialect.strict = Bool.random(using: &random)
            options.csv = dialect
            if Int.random(in: 0..<6, using: &random) == 0 {
                options.limits = ReaderLimits(maxFieldSize: 12, maxRecordSize: 40, maxValuesPerRecord: 5)
            }
            expectSameAtEveryChunkSize(randomCSV(delimiter: dialect.delimiter, using: &random), options: options)
        }
    }

    /// Rows of quoted and unquoted fields over text that stresses both paths, with rare
    /// malformed bytes, ragged rows, blank lines and all three line ends.
    private func randomCSV(delimiter: UInt8, using random: inout SeededGenerator) -> [UInt8] {
        let plain: [[UInt8]] = ["a", "Zz", "12345678", " ", "é", "日本", "😀", "-", ";"].map { Array($0.utf8) }
        let quotedOnly: [[UInt8]] = [",", "\t", "\"\"", "\n", "\r\n", "\r"].map { Array($0.utf8) }
        let malformed: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], Array("\"".utf8)]
        let lineEnds: [[UInt8]] = ["\n", "\r\n", "\r"].map { Array($0.utf8) }
        func pick(_ choices: [[UInt8]]) -> [UInt8] { choices[Int.random(in: 0..<choices.count, using: &random)] }
        var bytes: [UInt8] = Int.random(in: 0..<10, using: &random) == 0 ? [0xEF, 0xBB, 0xBF] : []
        let columns = Int.random(in: 1...6, using: &random)
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            if Int.random(in: 0..<12, using: &random) == 0 { bytes += pick(lineEnds) }
            var count = columns
            if Int.random(in: 0..<25, using: &random) == 0 { count += Int.random(in: -1...1, using: &random) }
            for column in 0..<max(count, 1) {
                if column > 0 { bytes.append(delimiter) }
                let quoted = Bool.random(using: &random)
                if quoted { bytes += Array("\"".utf8) }
                for _ in 0..<Int.random(in: 0...5, using: &random) {
                    switch Int.random(in: 0..<40, using: &random) {
                    case 0: bytes += pick(malformed)
                    case 1...12 where quoted: bytes += pick(quotedOnly)
                    default: bytes += pick(plain)
                    }
                }
                if quoted, Int.random(in: 0..<60, using: &random) != 0 { bytes += Array("\"".utf8) }
            }
            bytes += pick(lineEnds)
        }
        if Bool.random(using: &random) { bytes.removeLast() }
        return bytes
    }
}
