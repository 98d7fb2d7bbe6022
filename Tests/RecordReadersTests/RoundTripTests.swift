// Round-trip properties: random records from a seeded generator, written as CSV, JSON,
// NDJSON and XML by small reference writers, read back and compared value by value.
import Testing

@testable import RecordReaders

/// A JSON value model for generating and comparing documents.
private indirect enum Value: Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([Value])
    case object([(String, Value)])

    static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// The value a reader gave, as a model.
    init(_ value: FieldValue) {
        switch value.kind {
        case .text: self = .string(value.string)
        case .number: self = .number(value.string)
        case .bool: self = .bool(value.string == "true")
        case .null: self = .null
        case .list: self = .array(value.elements.map(Value.init))
        case .record: self = .object(value.record?.fields.map { ($0.name ?? "", Value($0)) } ?? [])
        }
    }
}

private struct Generator {
    var random: SeededGenerator

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// Text with the characters that stress each format: delimiters, quotes, newlines,
    /// markup, escapes, non-ASCII, astral characters.
    mutating func text(maxLength: Int = 12) -> String {
        let alphabet: [String] = [
            "a", "b", "Z", "0", " ", ",", ";", "\t", "\"", "'", "\n", "\r\n", "\r", "<", ">", "&",
            "\\", "/", "é", "€", "😀", "\u{7F}", "]]>", "|", "#", "\u{1}",
        ]
        return (0..<int(0...maxLength)).map { _ in alphabet[int(0...alphabet.count - 1)] }.joined()
    }

    mutating func number() -> String {
        switch int(0...4) {
        case 0: return String(int(-1000...1000))
        case 1: return "9007199254740993"
        case 2: return "-\(int(0...99)).\(int(0...9999))"
        case 3: return "\(int(1...9)).\(int(0...99))e\(["", "+", "-"][int(0...2)])\(int(0...300))"
        default: return "0"
        }
    }

    mutating func value(depth: Int) -> Value {
        switch int(0...(depth > 3 ? 3 : 7)) {
        case 0: return .string(text())
        case 1: return .number(number())
        case 2: return .bool(int(0...1) == 1)
        case 3: return .null
        case 4, 5: return .array((0..<int(0...4)).map { _ in value(depth: depth + 1) })
        default:
            let keys = Set((0..<int(0...4)).map { _ in text(maxLength: 5) })
            return .object(keys.sorted().map { ($0, value(depth: depth + 1)) })
        }
    }
}

// MARK: Reference writers

private func csvField(_ text: String, delimiter: Character, force: Bool) -> String {
    let special = text.contains(where: { $0 == delimiter || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    guard special || force || text.isEmpty && force else { return text }
    return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
}

private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "/": out += "\\/"
        case "😀": out += "\\ud83d\\ude00"
        case _ where scalar.value < 0x20:
            out +=
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

private func json(_ value: Value, spacing: String) -> String {
    switch value {
    case .string(let text): return jsonString(text)
    case .number(let text): return text
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array(let items):
        return "[" + spacing + items.map { json($0, spacing: spacing) }.joined(separator: "," + spacing) + "]"
    case .object(let members):
        let body = members.map { jsonString($0.0) + spacing + ":" + json($0.1, spacing: spacing) }
        return "{" + body.joined(separator: "," + spacing) + spacing + "}"
    }
}

private func xmlEscape(_ text: String, cdata: Bool) -> String {
    if cdata, !text.contains("]]>"), !text.contains("\r") { return "<![CDATA[" + text + "]]>" }
    var out = ""
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "\r": out += "&#13;"
        case "\r\n": out += "&#13;&#10;"
        case "\t": out += "&#9;"
        case "\n": out += "&#10;"
        default: out.append(character)
        }
    }
    return out
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }

    /// XML text with characters XML cannot hold dropped (controls other than tab, LF, CR).
    fileprivate var xmlSafe: String {
        String(
            String.UnicodeScalarView(
                unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r" }))
    }
}

@Suite("Round trips")
struct RoundTripTests {
    @Test(arguments: [1, 2, 3, 4, 5])
    func csvRoundTrip(seed: UInt64) throws {
        var generator = Generator(random: SeededGenerator(seed: seed))
        let delimiter: Character = [",", ";", "\t", "|"][generator.int(0...3)]
        let columns = generator.int(1...6)
        let header = (0..<columns).map { "col\($0)" }
        let rows = (0..<generator.int(1...40)).map { _ in (0..<columns).map { _ in generator.text() } }
        let newline = ["\n", "\r\n", "\r"][generator.int(0...2)]
        var text = header.joined(separator: String(delimiter)) + newline
        for row in rows {
            // A lone empty field on a one-column row must be quoted, or the line would be blank.
            let fields = row.map {
                csvField($0, delimiter: delimiter, force: columns == 1 || generator.int(0...5) == 0)
            }
            text += fields.joined(separator: String(delimiter)) + newline
        }
        let options = ReaderOptions(csv: CSVOptions(delimiter: UInt8(ascii: delimiter.unicodeScalars.first!)))
        let records = try readAll(text, format: .csv, options: options)
        #expect(records.map { $0.fields.map(\.string) } == rows)
        let last = try FieldPath(parsing: "col\(columns - 1)")
        #expect(records.map { $0[last]?.string } == rows.map(\.last))
    }

    @Test(arguments: [11, 12, 13, 14, 15])
    func jsonRoundTrip(seed: UInt64) throws {
        var generator = Generator(random: SeededGenerator(seed: seed))
        let values = (0..<generator.int(1...20)).map { _ in generator.value(depth: 0) }
        let spacing = ["", " ", "\n  "][generator.int(0...2)]
        let text = json(.array(values), spacing: spacing)
        let records = try readAll(text, format: .json)
        #expect(records.map { Value($0.value) } == values)
        let wrapped = "{\"meta\": \(json(.array(values), spacing: spacing)), \"items\": \(text)}"
        #expect(
            try readAll(wrapped, format: .json, options: ReaderOptions(records: "items[*]")).map { Value($0.value) }
                == values)
    }

    @Test(arguments: [21, 22, 23])
    func ndjsonRoundTrip(seed: UInt64) throws {
        var generator = Generator(random: SeededGenerator(seed: seed))
        let values = (0..<generator.int(1...30)).map { _ in generator.value(depth: 0) }
        let text = values.map { json($0, spacing: " ") }.joined(
            separator: ["\n", "\r\n", "\n\n"][generator.int(0...2)])
        let records = try readAll(text, format: .ndjson)
        #expect(records.map { Value($0.value) } == values)
    }

    @Test(arguments: [31, 32, 33, 34, 35])
    func xmlRoundTrip(seed: UInt64) throws {
        var generator = Generator(random: SeededGenerator(seed: seed))
        struct Item {
            var attributes: [(String, String)]
            var name: String
            var tags: [String]
            var nested: String?
        }
        let items = (0..<generator.int(1...25)).map { _ in
            Item(
                attributes: (0..<generator.int(0...3)).map { ("a\($0)", generator.text().xmlSafe) },
                name: generator.text().xmlSafe, tags: (0..<generator.int(0...3)).map { _ in generator.text().xmlSafe },
                nested: generator.int(0...1) == 0 ? nil : generator.text().xmlSafe)
        }
        var text = "<?xml version=\"1.0\"?>\n<catalog xmlns:t=\"urn:t\">\n"
        for item in items {
            let attributes = item.attributes.map { " \($0.0)=\"\(xmlEscape($0.1, cdata: false))\"" }.joined()
            text += "<item\(attributes)><name>\(xmlEscape(item.name, cdata: generator.int(0...1) == 0))</name>"
            for tag in item.tags { text += "<t:tag>\(xmlEscape(tag, cdata: generator.int(0...1) == 0))</t:tag>" }
            if let nested = item.nested {
                text += "<location><aisle>\(xmlEscape(nested, cdata: false))</aisle></location>"
            }
            text += "</item>\n"
        }
        text += "</catalog>\n"
        let records = try readAll(text, format: .xml, options: ReaderOptions(records: "catalog/item"))
        #expect(records.count == items.count)
        for (record, item) in zip(records, items) {
            for (name, value) in item.attributes {
                #expect(record[try FieldPath(parsing: "@\(name)")]?.string == value)
            }
            #expect(record[path("name")]?.string == item.name)
            let tags = record[path("tag")]
            #expect((tags?.elements.map(\.string) ?? []) == item.tags)
            #expect(record[path("location/aisle")]?.string == item.nested)
            #expect(record[path("location")]?.record?[path("aisle")]?.string == item.nested)
        }
    }
}
