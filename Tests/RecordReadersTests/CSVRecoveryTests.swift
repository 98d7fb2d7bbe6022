// Broken CSV rows are records the reader skips, not the end of the file: wrong field counts,
// bad UTF-8 and unpaired quotes each give one recoverable error carrying the row's position
// and raw text, and the rows after it are read intact — at every chunk size, on the fast and
// the byte-exact path alike.
import Testing

@testable import RecordReaders

@Suite("CSV reader: broken rows")
struct CSVRecoveryTests {
    /// One line per outcome: `record #N line:column @offset [fields]`, or
    /// `broken line:column @offset #N: reason | start line:column @offset | raw text`.
    private func outcomes(
        _ bytes: [UInt8], options: ReaderOptions = ReaderOptions(), sizes: [Int] = chunkSizes + [5, 11],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        var renderings: [[String]] = []
        for size in sizes {
            var options = options
            options.chunkSize = size
            var lines: [String] = []
            do {
                var reader = try CSVReader(.bytes(bytes, name: "r.csv"), options: options)
                while let result = try reader.nextResult() {
                    switch result {
                    case .success(let record):
                        let position = record.position
                        lines.append(
                            "record #\(position.recordNumber) \(position.line):\(position.column) "
                                + "@\(position.byteOffset) \(record.fields.map(\.string))")
                    case .failure(let error):
                        let start = error.brokenRecord?.position
                        lines.append(
                            "broken \(Optional(error).position): \(error.reason) | "
                                + "\(start?.line ?? 0):\(start?.column ?? 0) @\(start?.byteOffset ?? -1) | "
                                + (error.brokenRecord?.text ?? ""))
                    }
                }
                #expect(reader.bytesConsumed == bytes.count, sourceLocation: sourceLocation)
                #expect(try reader.next() == nil, sourceLocation: sourceLocation)
            } catch {
                lines.append("error: \(error)")
            }
            renderings.append(lines)
        }
        for (index, other) in renderings.enumerated().dropFirst() {
            #expect(other == renderings[0], "chunk size \(sizes[index]) differs", sourceLocation: sourceLocation)
        }
        return renderings[0]
    }

    private func outcomes(
        _ text: String, options: ReaderOptions = ReaderOptions(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        outcomes(Array(text.utf8), options: options, sourceLocation: sourceLocation)
    }

    // MARK: Rows that read to their end

    @Test func tooManyAndTooFewFieldsAreSkippedRows() {
        #expect(
            outcomes("a,b\n1,2\n3,4,5\n6\n7,8\n") == [
                "record #1 2:1 @4 [\"1\", \"2\"]",
                "broken 3:5 @12 #2: too many fields: 3, expected 2 | 3:1 @8 | 3,4,5",
                "broken 4:2 @15 #3: too few fields: 1, expected 2 | 4:1 @14 | 6",
                "record #4 5:1 @16 [\"7\", \"8\"]",
            ])
    }

    @Test func invalidUTF8IsASkippedRow() {
        let bytes = Array("a,b\nok,x".utf8) + [0xFF] + Array("y\n\"q\",\"".utf8) + [0xC3] + Array("\"\n2,z".utf8)
        #expect(
            outcomes(bytes) == [
                "broken 2:5 @8 #1: invalid UTF-8 | 2:1 @4 | ok,x\u{FFFD}y",
                "broken 3:5 @15 #2: invalid UTF-8 | 3:1 @11 | \"q\",\"\u{FFFD}\"",
                "record #3 4:1 @19 [\"2\", \"z\"]",
            ])
    }

    @Test func aRowWithQuotedLineBreaksIsOneBrokenRecord() {
        // The quotes pair up, so the row ends at its own line end, after the quoted break.
        #expect(
            outcomes("a,b\n\"x\r\ny\",2,3\r\n4,5\r\n") == [
                "broken 3:6 @13 #1: too many fields: 3, expected 2 | 2:1 @4 | \"x\r\ny\",2,3",
                "record #2 4:1 @16 [\"4\", \"5\"]",
            ])
    }

    @Test func strictRefusesAQuoteInAnUnquotedFieldAsOneRow() {
        let strict = ReaderOptions(csv: CSVOptions(strict: true))
        #expect(
            outcomes("h,w\n\"a\nb\",5'10\" tall\n2,x\n", options: strict) == [
                "broken 3:8 @14 #1: quote in unquoted field | 2:1 @4 | \"a\nb\",5'10\" tall",
                "record #2 4:1 @21 [\"2\", \"x\"]",
            ])
        // The first error of the row is reported, the row's extent is the same.
        #expect(
            outcomes("h,w\n1,x\"y,3\n2,x\n", options: strict) == [
                "broken 2:4 @7 #1: quote in unquoted field | 2:1 @4 | 1,x\"y,3",
                "record #2 3:1 @12 [\"2\", \"x\"]",
            ])
    }

    // MARK: Rows whose quotes do not pair up

    @Test func anUnterminatedQuoteEndsItsRowAtItsLineEnd() {
        // The quoted field swallows the rest of the file; the rows it swallowed are read again.
        #expect(
            outcomes("a,b\n1,\"open\n2,x\r\n3,y\n") == [
                "broken 2:3 @6 #1: unterminated quoted field | 2:1 @4 | 1,\"open",
                "record #2 3:1 @12 [\"2\", \"x\"]",
                "record #3 4:1 @17 [\"3\", \"y\"]",
            ])
        #expect(
            outcomes("a,b\n1,2\n3,\"open") == [
                "record #1 2:1 @4 [\"1\", \"2\"]",
                "broken 3:3 @10 #2: unterminated quoted field | 3:1 @8 | 3,\"open",
            ])
    }

    @Test func aStrayQuotePairedWithALaterRowsQuoteLosesNoRow() {
        // `"abc⏎2,` closes at the quote of `"def"`, and `d` follows it: the broken row is line 2
        // alone, broken at its quote, and line 3 reads as the record it is.
        #expect(
            outcomes("a,b\n1,\"abc\r\n2,\"def\"\n3,x\n") == [
                "broken 2:3 @6 #1: unterminated quoted field | 2:1 @4 | 1,\"abc",
                "record #2 3:1 @12 [\"2\", \"def\"]",
                "record #3 4:1 @20 [\"3\", \"x\"]",
            ])
    }

    @Test func aRowBrokenByQuotesEndsOnTheLineWhereTheFailingQuoteOpens() {
        // A later field fails after a quoted line break that paired up: the row reaches that line.
        #expect(
            outcomes("a,b,c\n1,\"x\ny\",\"c\"d\n2,3,4\n") == [
                "broken 3:7 @17 #1: text after closing quote | 2:1 @6 | 1,\"x\ny\",\"c\"d",
                "record #2 4:1 @19 [\"2\", \"3\", \"4\"]",
            ])
        // The field that fails spans lines: the row breaks at its quote, and the error is there
        // (or at the row's first error under strict), inside the row's text.
        let strict = ReaderOptions(csv: CSVOptions(strict: true))
        #expect(
            outcomes("a,b,c\n1,\"x\ny\"z,w\"v\n2,3,4\n", options: strict) == [
                "broken 2:3 @8 #1: unterminated quoted field | 2:1 @6 | 1,\"x",
                "broken 3:2 @12 #2: quote in unquoted field | 3:1 @11 | y\"z,w\"v",
                "record #3 4:1 @19 [\"2\", \"3\", \"4\"]",
            ])
        #expect(
            outcomes("a,b\n1\"2,\"x\ny\"z\n", options: strict) == [
                "broken 2:2 @5 #1: quote in unquoted field | 2:1 @4 | 1\"2,\"x",
                "broken 3:2 @12 #2: quote in unquoted field | 3:1 @11 | y\"z",
            ])
    }

    @Test func textAfterAClosingQuoteEndsTheRowAtItsLineEnd() {
        #expect(
            outcomes("a,b\n1,\"Big\" Tony\n2,\"x\"\"y\"\n") == [
                "broken 2:8 @11 #1: text after closing quote | 2:1 @4 | 1,\"Big\" Tony",
                "record #2 3:1 @17 [\"2\", \"x\\\"y\"]",
            ])
    }

    @Test func aQuotedFieldTooLongAfterALineBreakIsAnUnpairedQuote() {
        // Without the limit it would be unterminated; with it, it is broken at its line end too.
        let small = ReaderOptions(limits: ReaderLimits(maxFieldSize: 6))
        #expect(
            outcomes("a,b\n1,\"open\n2,x\n3,y\n4,z\n", options: small) == [
                "broken 2:3 @6 #1: field longer than 6 bytes | 2:1 @4 | 1,\"open",
                "record #2 3:1 @12 [\"2\", \"x\"]",
                "record #3 4:1 @16 [\"3\", \"y\"]",
                "record #4 5:1 @20 [\"4\", \"z\"]",
            ])
    }

    // MARK: What ends reading

    @Test func limitsOnTheFirstLineIOAndTheHeaderEndReading() throws {
        let small = ReaderOptions(limits: ReaderLimits(maxFieldSize: 4))
        #expect(
            outcomes("a,b\n1,2\n12345,6\n7,8\n", options: small) == [
                "record #1 2:1 @4 [\"1\", \"2\"]",
                "error: r.csv:3:1 (byte 8, record 2): field longer than 4 bytes",
            ])
        let header = #expect(throws: RecordReaderError.self) {
            try CSVReader(.bytes(Array("a,\"b\n1,2\n".utf8), name: "h.csv"))
        }
        #expect(header?.reason == "unterminated quoted field")
        #expect(header?.brokenRecord == nil)
    }

    @Test func recordNumbersCountBrokenRowsAndRecordsReadDoesNot() throws {
        var reader = try CSVReader(.bytes(Array("a,b\n1\n2,3\n4,5,6\n7,8\n".utf8), name: "n.csv"))
        var numbers: [Int] = []
        var broken: [Int] = []
        while let result = try reader.nextResult() {
            switch result {
            case .success(let record): numbers.append(record.position.recordNumber)
            case .failure(let error): broken.append(error.recordNumber)
            }
        }
        #expect(numbers == [2, 4])
        #expect(broken == [1, 3])
        #expect(reader.recordsRead == 2)
    }

    @Test func nextThrowsTheBrokenRowAndReadsOnAtTheNextCall() throws {
        var reader = try CSVReader(.bytes(Array("a\n1\n\"x\n".utf8), name: "s.csv"))
        #expect(try reader.next()?.fields.map(\.string) == ["1"])
        let error = #expect(throws: RecordReaderError.self) { try reader.next() }
        #expect(error?.isRecoverable == true)
        #expect(error?.brokenRecord?.bytes == Array("\"x".utf8))
        #expect(try reader.next() == nil)
    }

    // MARK: No valid row is lost

    @Test func everyValidRowSurvivesTheBrokenRowsAroundIt() throws {
        var random = SeededGenerator(seed: 18)
        for round in 0..<200 {
            var bytes = Array("h1,h2,h3\n".utf8)
            var expected: [String] = []
            var line = 2
            for row in 1...Int.random(in: 1...25, using: &random) {
                let lineEnd = Array(["\n", "\r\n", "\r"][Int.random(in: 0..<3, using: &random)].utf8)
                if Int.random(in: 0..<3, using: &random) == 0 {
                    let broken = Self.brokenLine(row: row, using: &random)
                    bytes += broken + lineEnd
                    expected.append("broken \(line) \(String(decoding: broken, as: UTF8.self))")
                    line += 1
                } else {
                    let (text, values) = Self.validRow(row: row, lineEnd: lineEnd, using: &random)
                    bytes += text + lineEnd
                    expected.append("record \(line) \(values)")
                    line += values.filter { $0.contains("\n") || $0.contains("\r") }.count + 1
                }
            }
            for size in [1, 3, 7, 64 * 1024] {
                var reader = try CSVReader(.bytes(bytes, name: "p.csv"), options: ReaderOptions(chunkSize: size))
                var seen: [String] = []
                while let result = try reader.nextResult() {
                    switch result {
                    case .success(let record):
                        seen.append("record \(record.position.line) \(record.fields.map(\.string))")
                    case .failure(let error):
                        let broken = try #require(error.brokenRecord)
                        seen.append("broken \(broken.position.line) \(broken.text)")
                    }
                }
                #expect(
                    seen == expected,
                    "round \(round), chunk size \(size): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
    }

    /// A row of three fields that always reads — plain text with quotes inside (`12" pizza`),
    /// or quoted text starting with a letter, with commas, line breaks and doubled quotes — and
    /// the values it gives.
    private static func validRow(row: Int, lineEnd: [UInt8], using random: inout SeededGenerator)
        -> ([UInt8], [String])
    {
        var text: [UInt8] = []
        var values: [String] = []
        let end = String(decoding: lineEnd, as: UTF8.self)
        for column in 0..<3 {
            if column > 0 { text.append(UInt8(ascii: ",")) }
            let value: String
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                value = "r\(row)\(end)c\(column)\"q"
                text += Array("\"r\(row)\(end)c\(column)\"\"q\"".utf8)
            case 1:
                value = "r\(row), c\(column)"
                text += Array("\"\(value)\"".utf8)
            case 2:
                value = "\(row)2\" pizza"
                text += Array(value.utf8)
            default:
                value = "v\(row)-\(column)"
                text += Array(value.utf8)
            }
            values.append(value)
        }
        return (text, values)
    }

    /// One line that is a broken row: the wrong field count, an unterminated quote, text after
    /// a closing quote, or a byte that is not UTF-8.
    private static func brokenLine(row: Int, using random: inout SeededGenerator) -> [UInt8] {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return Array("x\(row),y".utf8)
        case 1: return Array("x\(row),y,z,w".utf8)
        case 2: return Array("x\(row),\"open \(row),z".utf8)
        case 3: return Array("\"ab\"cd\(row),y,z".utf8)
        default: return Array("x\(row),".utf8) + [0xE9] + Array(",z".utf8)
        }
    }
}
