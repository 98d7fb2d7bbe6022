// JSON conformance: strict RFC 8259 parsing, exact numbers, escapes and surrogates, UTF-8
// validation, records paths, nested values, limits, and error positions.
import Testing

@testable import RecordReaders

@Suite("JSON reader")
struct JSONReaderTests {
    private func json(_ text: String, records: String? = nil) throws -> [SourceRecord] {
        try readAll(text, format: .json, options: ReaderOptions(records: records))
    }

    private func error(_ text: String, records: String? = nil, limits: ReaderLimits = ReaderLimits())
        -> RecordReaderError?
    {
        readError(text, format: .json, options: ReaderOptions(records: records, limits: limits))
    }

    @Test func rootArrayElementsByDefault() throws {
        let records = try json(" [ {\"a\": 1}, {\"a\": 2} ] ")
        #expect(records.map { $0[path("a")]?.string } == ["1", "2"])
        #expect(records.map(\.position.path) == ["[0]", "[1]"])
        #expect(records[1].position.column == 14)
    }

    @Test func rootObjectAsOneRecordByDefault() throws {
        let records = try json("{\"name\": \"x\", \"n\": [1, 2]}")
        #expect(records.count == 1)
        #expect(records[0][path("name")]?.string == "x")
        #expect(records[0].position.path == "")
    }

    @Test func recordsPathSelectsNestedArrays() throws {
        let text = """
            {"meta": {"skip": [1, {"x": "y"}]}, "data": {"rows": [{"id": 1}, {"id": 2}], "other": 3},
             "items": [{"id": 9}]}
            """
        let rows = try json(text, records: "data.rows[*]")
        #expect(rows.map { $0[path("id")]?.string } == ["1", "2"])
        #expect(rows.map(\.position.path) == ["data.rows[0]", "data.rows[1]"])
        #expect(rows[0].position.recordNumber == 1)
        #expect(try json(text, records: "items[*]").count == 1)
        #expect(try json(text, records: "$.items[*]").count == 1)
        #expect(try json(text, records: "items").count == 1)  // a selected array expands
        #expect(try json(text, records: "data.rows[1]").map { $0[path("id")]?.string } == ["2"])
        let whole = try json(text, records: "$")
        #expect(whole.count == 1 && whole[0][path("data.other")]?.string == "3")
        #expect(try json("[[1, 2], [3]]", records: "[*]").map(\.kind) == [.list, .list])
        #expect(
            try json("{\"a\": [{\"b\": [{\"c\": 1}, {\"c\": 2}]}, {\"b\": [{\"c\": 3}]}]}", records: "a[*].b[*]").count
                == 3)
        #expect(try json("{\"items\": []}", records: "items[*]").isEmpty)
    }

    @Test func recordsPathThatReachesNothingIsAnError() {
        let failure = error("{\"items\": []}", records: "itemz[*]")
        #expect(failure?.kind == .structure)
        #expect(failure?.reason == "the records path itemz[*] matches nothing")
        #expect(throws: RecordReaderError.self) {
            try JSONReader(.bytes([], name: "x"), options: ReaderOptions(records: "a["))
        }
    }

    @Test func valuesKindsAndExactNumbers() throws {
        let text = """
            [{"s": "t", "i": 9007199254740993, "d": 0.1000000000000000055511151231257827, "e": -1.5E+300,
              "z": -0, "t": true, "f": false, "n": null, "o": {"k": "v"}, "l": [1, "2"], "empty": {}, "none": []}]
            """
        let record = try #require(try json(text).first)
        #expect(record[path("s")]?.kind == .text)
        #expect(record[path("i")]?.string == "9007199254740993")
        #expect(record[path("i")]?.kind == .number)
        #expect(record[path("d")]?.string == "0.1000000000000000055511151231257827")
        #expect(record[path("e")]?.string == "-1.5E+300")
        #expect(record[path("z")]?.string == "-0")
        #expect(record[path("t")]?.kind == .bool && record[path("t")]?.string == "true")
        #expect(record[path("f")]?.string == "false")
        #expect(record[path("n")]?.kind == .null && record[path("n")]?.isNull == true)
        #expect(record[path("n")]?.byteCount == 0)
        #expect(record[path("o")]?.kind == .record)
        #expect(record[path("o")]?.record?[path("k")]?.string == "v")
        #expect(record[path("o.k")]?.position.path == "[0].o.k")
        #expect(record[path("l")]?.kind == .list)
        #expect(record[path("l")]?.elements.map(\.string) == ["1", "2"])
        #expect(record[path("l")]?.count == 2)
        #expect(record[path("l[1]")]?.string == "2")
        #expect(record[path("l[2]")] == nil)
        #expect(record[path("empty")]?.record?.fieldCount == 0)
        #expect(record[path("none")]?.elements.isEmpty == true)
    }

    @Test func withUTF8GivesTheRawBytes() throws {
        let record = try #require(try json("[{\"price\": 12.50}]").first)
        let bytes = record[path("price")]?.withUTF8 { Array($0) }
        #expect(bytes == Array("12.50".utf8))
    }

    @Test func pathsThroughArraysAndNestedRecords() throws {
        let text = "[{\"tags\": [{\"name\": \"a\"}, {\"name\": \"b\"}], \"loc\": {\"aisle\": 4, \"bins\": [7, 8]}}]"
        let record = try #require(try json(text).first)
        #expect(record[path("tags.name")]?.elements.map(\.string) == ["a", "b"])
        #expect(record[path("tags[*].name")]?.elements.map(\.string) == ["a", "b"])
        #expect(record[path("tags[1].name")]?.string == "b")
        #expect(record[path("loc.bins[0]")]?.string == "7")
        let tags = try #require(record[path("tags")])
        #expect(tags.records.map { $0[path("name")]?.string } == ["a", "b"])
        #expect(tags.records[1].position.path == "[0].tags[1]")
        let location = try #require(record[path("loc")]?.record)
        #expect(location[path("aisle")]?.string == "4")
        #expect(location.position.column == 50)
        #expect(location.name == "loc")
    }

    @Test func stringEscapesAndSurrogatePairs() throws {
        let text = #"[{"s": "q\" b\\ s\/ \b\f\n\r\t \u00e9 \u20AC \ud83d\ude00 \u0000"}]"#
        let record = try #require(try json(text).first)
        #expect(record[path("s")]?.string == "q\" b\\ s/ \u{8}\u{c}\n\r\t é € 😀 \u{0}")
        let keys = try #require(try json(#"[{"k\u00e9y": 1, "a.b": 2}]"#).first)
        #expect(keys[path("kéy")]?.string == "1")
        #expect(keys[path("\"a.b\"")]?.string == "2")
        #expect(try json("[\"naïve ☃\"]").first?.value.string == "naïve ☃")
    }

    @Test func byteOrderMarkAndLinePositions() throws {
        let text = [0xEF, 0xBB, 0xBF] + Array("[\n  {\"a\": 1},\n  {\"a\": 2}\n]".utf8)
        let records = try readAll(text, format: .json)
        #expect(records.map(\.position.line) == [2, 3])
        #expect(records.map(\.position.column) == [3, 3])
        #expect(records[1].position.byteOffset == 19)
    }

    // MARK: Errors

    @Test func rejectsNonStandardSyntax() {
        let cases: [(String, String, String)] = [
            ("[1, 2,]", "1:7", "trailing comma"),
            ("{\"a\": 1,}", "1:9", "trailing comma"),
            ("[1] // c", "1:5", "unexpected '/', expected the end of the document"),
            ("[NaN]", "1:2", "unexpected 'N', expected a value"),
            ("[Infinity]", "1:2", "unexpected 'I', expected a value"),
            ("[-Infinity]", "1:3", "expected a digit"),
            ("[01]", "1:3", "leading zeros are not allowed"),
            ("[1.]", "1:4", "expected a digit after '.'"),
            ("[1e+]", "1:5", "expected a digit in the exponent"),
            ("[.5]", "1:2", "unexpected '.', expected a value"),
            ("['a']", "1:2", "unexpected ''', expected a value"),
            ("[\"a\tb\"]", "1:4", "unescaped control character in string"),
            ("[\"a\nb\"]", "1:4", "unescaped control character in string"),
            ("[\"\\x\"]", "1:3", "invalid escape sequence"),
            ("[\"\\u12G4\"]", "1:3", "invalid \\u escape: expected 4 hex digits"),
            ("[\"\\ud83d\"]", "1:3", "unpaired high surrogate in \\u escape"),
            ("[\"\\ude00\"]", "1:3", "unpaired low surrogate in \\u escape"),
            ("[\"\\ud83d\\u0041\"]", "1:3", "unpaired high surrogate in \\u escape"),
            ("[tru]", "1:2", "invalid literal, expected true"),
            ("[nul", "1:2", "invalid literal, expected null"),
            ("{\"a\" 1}", "1:6", "unexpected '1', expected ':'"),
            ("{a: 1}", "1:2", "unexpected 'a', expected a string key"),
            ("[1 2]", "1:4", "unexpected '2', expected ',' or ']'"),
            ("{\"a\": 1]", "1:8", "unexpected ']', expected ',' or '}'"),
            ("[1]]", "1:4", "unexpected ']', expected the end of the document"),
            ("[\"abc", "1:2", "unterminated string"),
            ("[1,\n 2", "2:3", "unexpected end of input, expected ',' or ']'"),
            ("", "1:1", "empty document"),
            ("  \n ", "2:2", "empty document"),
        ]
        for (text, position, reason) in cases {
            let failure = error(text)
            #expect(failure?.reason == reason, "\(text)")
            #expect(failure.lineColumn == position, "\(text)")
        }
    }

    @Test func errorsInSkippedValuesAreFound() {
        let failure = error("{\"skip\": [1, {\"x\": 01}], \"items\": []}", records: "items[*]")
        #expect(failure?.reason == "leading zeros are not allowed")
        #expect(failure.lineColumn == "1:21")
    }

    @Test func rejectsInvalidUTF8() {
        let bytes = Array("[\"ab".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8)
        let failure = readError(bytes, format: .json)
        #expect(failure?.kind == .encoding)
        #expect(failure?.reason == "invalid UTF-8 in string")
        #expect(failure.lineColumn == "1:2")
        let outside = readError(Array("[1,".utf8) + [0xC3, 0xA9] + Array("]".utf8), format: .json)
        #expect(outside?.reason == "unexpected byte 0xC3, expected a value")
    }

    @Test func depthLimit() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let failure = error(deep)
        #expect(failure?.kind == .limit)
        #expect(failure?.reason == "nesting deeper than 256")
        #expect(failure.lineColumn == "1:257")
        #expect(error("[[[[1]]]]", limits: ReaderLimits(maxDepth: 3))?.kind == .limit)
        #expect(error("{\"a\":{\"b\":[[1]]}}", records: "a.b", limits: ReaderLimits(maxDepth: 3))?.kind == .limit)
        let veryDeep = String(repeating: "[", count: 20_000)
        #expect(
            error(veryDeep, limits: ReaderLimits(maxDepth: 200_000))?.reason
                == "unexpected end of input, expected a value")
    }

    @Test func sizeLimits() {
        let limits = ReaderLimits(maxFieldSize: 4, maxRecordSize: 10, maxValuesPerRecord: 3)
        // A string or number too long: at its first byte (the opening quote of a string).
        let string = error("[\"abcde\"]", limits: limits)
        #expect(string?.kind == .limit)
        #expect(string?.reason == "string longer than 4 bytes")
        #expect(string.lineColumnOffset == "1:2 @1")
        let number = error("[123456]", limits: limits)
        #expect(number?.reason == "number longer than 4 bytes")
        #expect(number.lineColumnOffset == "1:2 @1")
        // A record too long or with too many values: at the record's first byte.
        let record = error("[[\"abcd\", \"abcd\", \"abc\"]]", limits: limits)
        #expect(record?.reason == "record longer than 10 bytes")
        #expect(record.lineColumnOffset == "1:2 @1")
        let values = error("[[1, 2, 3, 4]]", limits: limits)
        #expect(values?.reason == "more than 3 values in a record")
        #expect(values.position == "1:2 @1 #1")
        // The record itself is not one of its values: three elements fit a limit of three.
        #expect(error("[[1, 2, 3], {\"a\": 1, \"b\": 2, \"c\": 3}]", limits: limits) == nil)
    }

    @Test func sizeLimitPositionsInLaterRecords() {
        let limits = ReaderLimits(maxFieldSize: 4, maxRecordSize: 10, maxValuesPerRecord: 3)
        let string = error("[\"ab\",\n  \"abcd\", \"é€abc\"]", limits: limits)
        #expect(string?.reason == "string longer than 4 bytes")
        #expect(string.position == "2:11 @17 #3")
        let number = error("{\"it\": [1,\n  -12.5]}", records: "it[*]", limits: limits)
        #expect(number?.reason == "number longer than 4 bytes")
        #expect(number.position == "2:3 @13 #2")
        let record = error("[{\"a\": 1},\n {\"kk\": \"abcd\",\n  \"ll\": \"abcd\"}]", limits: limits)
        #expect(record?.reason == "record longer than 10 bytes")
        #expect(record.position == "2:2 @12 #2")
        let values = error("[[1],\n  {\"a\": [1, 2, 3]}]", limits: limits)
        #expect(values?.reason == "more than 3 values in a record")
        #expect(values.position == "2:3 @8 #2")
    }
}
