// CSV and TSV conformance: RFC 4180 rules, dialect options, header and positional columns,
// and every malformed-input error with its exact position.
import Testing

@testable import RecordReaders

@Suite("CSV reader")
struct CSVReaderTests {
    private func strings(_ records: [SourceRecord]) -> [[String]] {
        records.map { $0.fields.map(\.string) }
    }

    @Test func readsHeaderAndRows() throws {
        let records = try readAll("sku,name,price\nA1,Apple,1.50\nB2,Pear,2\n", format: .csv)
        #expect(strings(records) == [["A1", "Apple", "1.50"], ["B2", "Pear", "2"]])
        #expect(records[0][path("name")]?.string == "Apple")
        #expect(records[1][path("#3")]?.string == "2")
        #expect(records[1][path("missing")] == nil)
        #expect(records[0].fields.map(\.name) == ["sku", "name", "price"])
        #expect(
            records[1].position == SourcePosition(file: "test.csv", line: 3, column: 1, byteOffset: 29, recordNumber: 2)
        )
        #expect(records[1][path("price")]?.position.column == 9)
    }

    @Test func quotedFieldsDoubledQuotesAndEmbeddedNewlines() throws {
        let text = "a,b\n\"x, \"\"y\"\"\",\"line1\nline2\r\nline3\"\nlast,\"\"\n"
        let records = try readAll(text, format: .csv)
        #expect(strings(records) == [["x, \"y\"", "line1\nline2\r\nline3"], ["last", ""]])
        #expect(records[1].position.line == 5)
        #expect(records[1].fields[1].isQuoted)
        #expect(!records[1].fields[0].isQuoted)
    }

    @Test func lineEndingsCRLFLFAndCR() throws {
        for newline in ["\n", "\r\n", "\r"] {
            let text = ["h1,h2", "1,2", "3,4"].joined(separator: newline) + newline
            let records = try readAll(text, format: .csv)
            #expect(strings(records) == [["1", "2"], ["3", "4"]])
            #expect(records.map(\.position.line) == [2, 3])
        }
    }

    @Test func emptyFieldsVersusEmptyQuotedFields() throws {
        let records = try readAll("a,b,c\n,\"\",\n", format: .csv)
        #expect(strings(records) == [["", "", ""]])
        #expect(records[0].fields.map(\.isQuoted) == [false, true, false])
    }

    @Test func lastLineWithoutNewlineAndBlankLines() throws {
        let records = try readAll("a\n\n1\n\r\n2", format: .csv)
        #expect(strings(records) == [["1"], ["2"]])
        #expect(records.map(\.position.line) == [3, 5])
    }

    @Test func skipsByteOrderMark() throws {
        let records = try readAll([0xEF, 0xBB, 0xBF] + Array("id\n7\n".utf8), format: .csv)
        #expect(records[0][path("id")]?.string == "7")
        let error = readError(
            [0xEF, 0xBB, 0xBF] + Array("a\"b\n".utf8), format: .csv,
            options: ReaderOptions(csv: CSVOptions(hasHeader: false, strict: true)))
        #expect(error.lineColumnOffset == "1:2 @4")
    }

    @Test func positionalColumnsWithoutHeader() throws {
        let options = ReaderOptions(csv: CSVOptions(hasHeader: false))
        let records = try readAll("1,2\n3,4\n", format: .csv, options: options)
        #expect(strings(records) == [["1", "2"], ["3", "4"]])
        #expect(records[0][FieldPath.column(2)]?.string == "2")
        #expect(records[0][path("#3")] == nil)
        #expect(records[0].fields[0].name == nil)
    }

    @Test func customDelimiterQuoteAndTSV() throws {
        let semicolon = ReaderOptions(csv: CSVOptions(delimiter: UInt8(ascii: ";"), quote: UInt8(ascii: "'")))
        let records = try readAll("a;b\n'x;y';'it''s'\n", format: .csv, options: semicolon)
        #expect(strings(records) == [["x;y", "it's"]])
        let tsv = try readAll("a\tb\n1,5\t\"q\tr\"\n", format: .tsv)
        #expect(strings(tsv) == [["1,5", "q\tr"]])
        let unquoted = ReaderOptions(csv: CSVOptions(quote: nil))
        #expect(strings(try readAll("a,b\n\"x,y\"\"\n", format: .csv, options: unquoted)) == [["\"x", "y\"\""]])
    }

    @Test func raggedRowsWhenAllowed() throws {
        let options = ReaderOptions(csv: CSVOptions(allowRagged: true))
        let records = try readAll("a,b\n1\n1,2,3\n", format: .csv, options: options)
        #expect(strings(records) == [["1"], ["1", "2", "3"]])
        #expect(records[0][path("b")] == nil)
        #expect(records[1][path("#3")]?.string == "3")
        #expect(records[1].fields[2].name == nil)
    }

    @Test func resolvesHeaderNamesToColumns() throws {
        var reader = try CSVReader(.bytes(Array("sku,unit.price\nA,3\n".utf8), name: "r.csv"))
        #expect(reader.columnNames == ["sku", "unit.price"])
        let price = try reader.resolve(path("unit.price"))
        #expect(price.columnIndex == 1)
        #expect(try reader.resolve(path("#1")).columnIndex == 0)
        #expect(throws: RecordReaderError.self) { try reader.resolve(path("nope")) }
        let record = try #require(try reader.next())
        #expect(record[price]?.string == "3")
        #expect(record[path("unit.price")]?.string == "3")
        let noHeader = try CSVReader(
            .bytes([], name: "e.csv"), options: ReaderOptions(csv: CSVOptions(hasHeader: false)))
        #expect(throws: RecordReaderError.self) { try noHeader.resolve(path("sku")) }
    }

    @Test func resolvesQuotedHeaderNamesWithPathCharacters() throws {
        var reader = try CSVReader(
            .bytes(Array("sku,price [EUR],@tag,\"say \"\"hi\"\"\"\nA,3,x,y\n".utf8), name: "q.csv"))
        #expect(try reader.resolve(path("\"price [EUR]\"")).columnIndex == 1)
        #expect(try reader.resolve(path("\"@tag\"")).columnIndex == 2)
        #expect(try reader.resolve(path("\"say \\\"hi\\\"\"")).columnIndex == 3)
        let missing = #expect(throws: RecordReaderError.self) { try reader.resolve(path("\"price\"")) }
        #expect(missing?.line == 1)
        #expect(missing?.reason.hasPrefix("no column named \"price\" in the header") == true)
        let record = try #require(try reader.next())
        #expect(record[try reader.resolve(path("\"price [EUR]\""))]?.string == "3")
    }

    @Test func emptyInputs() throws {
        #expect(try readAll("", format: .csv).isEmpty)
        #expect(try readAll("a,b\n", format: .csv).isEmpty)
        #expect(try readAll("\n\n", format: .csv, options: ReaderOptions(csv: CSVOptions(hasHeader: false))).isEmpty)
    }

    // MARK: Errors

    @Test func quotesInsideUnquotedFieldsAreCharacters() throws {
        let records = try readAll("h,w,d\n5'10\" tall,12\" pizza,a\"\"b\"\n", format: .csv)
        #expect(strings(records) == [["5'10\" tall", "12\" pizza", "a\"\"b\""]])
        #expect(records[0].fields.map(\.isQuoted) == [false, false, false])
        // A field that starts with a quote is a quoted field, as in Python's csv module.
        #expect(strings(try readAll("h\n\"12\"\" pizza\"\n", format: .csv)) == [["12\" pizza"]])
    }

    @Test func strictRefusesAQuoteInAnUnquotedField() {
        let error = readError("a,b\n1,x\"y\n", format: .csv, options: ReaderOptions(csv: CSVOptions(strict: true)))
        #expect(error?.kind == .syntax)
        #expect(error?.reason == "quote in unquoted field")
        #expect(error.position == "2:4 @7 #1")
        #expect(error?.description == "test.csv:2:4 (byte 7, record 1): quote in unquoted field")
        #expect(error?.brokenRecord?.text == "1,x\"y")
        let tsv = readError(
            "a\tb\n1\t12\" pizza\n", format: .tsv, options: ReaderOptions(csv: CSVOptions(delimiter: 9, strict: true)))
        #expect(tsv.position == "2:5 @8 #1")
    }

    @Test func textAfterClosingQuote() {
        let error = readError("a,b\n1,\"x\"y\n", format: .csv)
        #expect(error?.reason == "text after closing quote")
        #expect(error.lineColumnOffset == "2:6 @9")
    }

    @Test func unterminatedQuoteAtEndOfFile() {
        let error = readError("a,b\n1,2\n3,\"open\nmore", format: .csv)
        #expect(error?.reason == "unterminated quoted field")
        #expect(error.position == "3:3 @10 #2")
    }

    @Test func wrongFieldCount() {
        let tooMany = readError("a,b\n1,2\n3,4,5\n", format: .csv)
        #expect(tooMany?.kind == .structure)
        #expect(tooMany?.reason == "too many fields: 3, expected 2")
        #expect(tooMany.lineColumnOffset == "3:5 @12")
        let tooFew = readError("a,b\n1,2\n3\n", format: .csv)
        #expect(tooFew?.reason == "too few fields: 1, expected 2")
        #expect(tooFew.lineColumn == "3:2")
        let noHeader = readError("1,2\n3\n", format: .csv, options: ReaderOptions(csv: CSVOptions(hasHeader: false)))
        #expect(noHeader.lineColumn == "2:2")
    }

    @Test func quotedNewlinesMoveErrorLines() {
        let error = readError(
            "a,b\n\"1\n2\",x\"\n", format: .csv, options: ReaderOptions(csv: CSVOptions(strict: true)))
        #expect(error?.reason == "quote in unquoted field")
        #expect(error.lineColumn == "3:5")
    }

    @Test func invalidUTF8() {
        let bytes = Array("a,b\nok,x".utf8) + [0xFF] + Array("y\n".utf8)
        let error = readError(bytes, format: .csv)
        #expect(error?.kind == .encoding)
        #expect(error.lineColumnOffset == "2:5 @8")
        let overlong = readError(Array("a\n\"".utf8) + [0xC0, 0xAF] + Array("\"\n".utf8), format: .csv)
        #expect(overlong.lineColumn == "2:1")
    }

    @Test func fieldAndRecordLimits() throws {
        let small = ReaderOptions(limits: ReaderLimits(maxFieldSize: 4, maxRecordSize: 8))
        // A field too long: at the field's first byte; a row too long: at the row's first byte.
        let field = readError("a,b\n12345,1\n", format: .csv, options: small)
        #expect(field?.kind == .limit)
        #expect(field?.reason == "field longer than 4 bytes")
        #expect(field.position == "2:1 @4 #1")
        let record = readError("a,b,c\n1234,1234,1\n", format: .csv, options: small)
        #expect(record?.kind == .limit)
        #expect(record?.reason == "row longer than 8 bytes")
        #expect(record.position == "2:1 @6 #1")
        // Too many fields for the limit: at the row's first byte.
        let fewer = ReaderOptions(csv: CSVOptions(hasHeader: false), limits: ReaderLimits(maxValuesPerRecord: 3))
        let values = readError("1,2,3,4\n", format: .csv, options: fewer)
        #expect(values?.kind == .limit)
        #expect(values?.reason == "more than 3 fields in a row")
        #expect(values.position == "1:1 @0 #1")
        #expect(try readAll("1,2,3\n", format: .csv, options: fewer).count == 1)
    }

    @Test func limitPositionsInLaterRows() {
        // A field after a quoted line break: its line and column count from that break.
        let wide = ReaderOptions(limits: ReaderLimits(maxFieldSize: 4, maxRecordSize: 64))
        let field = readError("a,b,c\n1,2,3\n3,\"x\ny\",\"12\"\"45\"\n", format: .csv, options: wide)
        #expect(field?.reason == "field longer than 4 bytes")
        #expect(field.position == "4:4 @20 #2")
        // A row after a blank line, with a line break inside it: at its first byte.
        let small = ReaderOptions(limits: ReaderLimits(maxFieldSize: 4, maxRecordSize: 8))
        let record = readError("a,b,c\n1,2,3\r\n\r\n é,\"1\n2\",345\n", format: .csv, options: small)
        #expect(record?.reason == "row longer than 8 bytes")
        #expect(record.position == "4:1 @15 #2")
        let ragged = ReaderOptions(
            csv: CSVOptions(hasHeader: false, allowRagged: true), limits: ReaderLimits(maxValuesPerRecord: 3))
        let values = readError("1\n2,3,4\n\"5\n6\",7,8,9\n", format: .csv, options: ragged)
        #expect(values?.reason == "more than 3 fields in a row")
        #expect(values.position == "3:1 @8 #3")
    }

    @Test func invalidDialect() {
        #expect(throws: RecordReaderError.self) {
            try CSVReader(.bytes([], name: "x"), options: ReaderOptions(csv: CSVOptions(delimiter: UInt8(ascii: "\n"))))
        }
        #expect(throws: RecordReaderError.self) {
            try CSVReader(.bytes([], name: "x"), options: ReaderOptions(csv: CSVOptions(delimiter: UInt8(ascii: "\""))))
        }
    }

    @Test func readerStopsAfterAnErrorItCannotReadOn() throws {
        var reader = try CSVReader(
            .bytes(Array("a\n1\n12345\n2\n".utf8), name: "s.csv"),
            options: ReaderOptions(limits: ReaderLimits(maxFieldSize: 4)))
        #expect(try reader.next() != nil)
        let error = #expect(throws: RecordReaderError.self) { try reader.next() }
        #expect(error?.isRecoverable == false)
        #expect(try reader.next() == nil)
    }
}
