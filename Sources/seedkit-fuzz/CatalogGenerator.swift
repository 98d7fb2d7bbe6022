// CatalogGenerator: writes the docs/Performance.md catalog items (sku, name, price, quantity, listed,
// added, notes, unit, location, 0–3 tags) as CSV, TSV, JSON (`items` array), NDJSON or XML
// (attributes, <name>/<notes>/<tag> children). About 3 % of names carry quotes, commas,
// newlines, non-ASCII or XML-special characters. Seeded: the same arguments give the same file.

import RecordReaders

enum CatalogGenerator {
    /// Writes `items` catalog items as `format` to `path`; `false` if the file cannot be created.
    static func write(format: RecordFormat, items: Int, to path: String, seed: UInt64 = 1) -> Bool {
        write(format: format, items: items, minBytes: 0, to: path, seed: seed) != nil
    }

    /// Writes at least `items` catalog items as `format` to `path`, and more until the file
    /// holds at least `minBytes` bytes; returns the number of items written, or `nil` if the
    /// file cannot be created.
    static func write(format: RecordFormat, items: Int, minBytes: Int, to path: String, seed: UInt64 = 1) -> Int? {
        guard var out = FileWriter(path: path) else { return nil }
        var random = SeededGenerator(seed: seed)
        let delimiter = format == .tsv ? "\t" : ","
        switch format {
        case .csv, .tsv:
            out.write(
                ["sku", "name", "price", "quantity", "listed", "added", "notes", "unit", "location", "tags"].joined(
                    separator: delimiter) + "\n")
        case .json: out.write("{\"items\": [\n")
        case .xml: out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n")
        case .ndjson: break
        }
        // The closing bytes written after the items count towards `minBytes`.
        let closing = format == .json ? 4 : format == .xml ? 11 : 0
        var index = 0
        while index < items || out.bytesWritten + closing < minBytes {
            defer { index += 1 }
            let item = Item(index: index, random: &random)
            switch format {
            case .csv, .tsv: out.write(item.csvLine(delimiter: delimiter))
            case .json: out.write((index == 0 ? "" : ",\n") + item.json)
            case .ndjson: out.write(item.json + "\n")
            case .xml: out.write(item.xml)
            }
        }
        switch format {
        case .json: out.write("\n]}\n")
        case .xml: out.write("</catalog>\n")
        default: break
        }
        out.close()
        return index
    }
}

/// One generated catalog item.
private struct Item {
    var sku: String
    var name: String
    var price: String
    var quantity: Int
    var listed: Bool
    var added: String
    var notes: String
    var unit: String
    var location: String
    var tags: [String]

    init(index: Int, random: inout SeededGenerator) {
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        sku = "SKU" + String(index).leftPadded(to: 8)
        switch below(100) {
        case 0: name = "Item \"\(index)\", special"
        case 1: name = "Item \(index)\nmultiline"
        case 2: name = "Ítém \(index) <&> ünïcode"
        default: name = "Item number \(index)"
        }
        price = "\(below(1000)).\(String(below(100)).leftPadded(to: 2))"
        quantity = below(10000)
        listed = below(2) == 0
        added = "2024-\(String(1 + below(12)).leftPadded(to: 2))-\(String(1 + below(28)).leftPadded(to: 2))T10:20:30Z"
        notes = below(2) == 0 ? "" : "some notes about item \(index)"
        unit = "unit\(below(20))"
        location = "A\(below(100))"
        tags = (0..<below(4)).map { _ in "tag\(below(500))" }
    }

    func csvLine(delimiter: String) -> String {
        func field(_ text: String) -> String {
            guard text.contains(where: { $0 == "\"" || $0 == "," || $0 == "\t" || $0 == "\n" }) else { return text }
            return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
        }
        let fields = [
            sku, name, price, String(quantity), String(listed), added, notes, unit, location,
            tags.joined(separator: ";"),
        ]
        return fields.map(field).joined(separator: delimiter) + "\n"
    }

    var json: String {
        func string(_ text: String) -> String {
            "\"" + text.replacing(["\"": "\\\"", "\\": "\\\\", "\n": "\\n"]) + "\""
        }
        let tagList = tags.map(string).joined(separator: ", ")
        return "{\"sku\": \(string(sku)), \"name\": \(string(name)), \"price\": \(price), \"quantity\": \(quantity), "
            + "\"listed\": \(listed), \"added\": \(string(added)), \"notes\": \(string(notes)), \"unit\": \(string(unit)), "
            + "\"location\": \(string(location)), \"tags\": [\(tagList)]}"
    }

    var xml: String {
        func escape(_ text: String) -> String {
            text.replacing(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"])
        }
        let tagElements = tags.map { "<tag>\($0)</tag>" }.joined()
        return
            "  <item sku=\"\(sku)\" price=\"\(price)\" quantity=\"\(quantity)\" listed=\"\(listed)\" added=\"\(added)\" "
            + "unit=\"\(unit)\" location=\"\(location)\"><name>\(escape(name))</name><notes>\(escape(notes))</notes>\(tagElements)</item>\n"
    }
}

extension String {
    /// The string with each character found in `replacements` replaced by its value.
    fileprivate func replacing(_ replacements: [Character: String]) -> String {
        var out = ""
        for character in self {
            if let replacement = replacements[character] { out += replacement } else { out.append(character) }
        }
        return out
    }

    /// The string padded on the left with zeros to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
