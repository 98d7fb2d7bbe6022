// Seeds: the starting corpus and the token dictionary of each reader's fuzzing, chosen to
// reach every construct (quotes, escapes, nesting, namespaces, CDATA, entities, BOMs).

import RecordReaders

enum Seeds {
    /// Seed documents for `format`.
    static func corpus(for format: RecordFormat) -> [[UInt8]] {
        let texts: [String]
        switch format {
        case .csv, .tsv:
            let separator = format == .tsv ? "\t" : ","
            texts = [
                "sku,name,price\nA1,Apple,1.5\nB2,\"Pear, \"\"green\"\"\",2\n",
                "a,b\r\n\"multi\r\nline\",x\r\n,\"\"\r\n",
                "\u{FEFF}id\n1\n\n2",
                "x,y,z\n1,2,3\n4,5\n6,7,8,9\n",
                "h\r\"q\"\r\"\"\r",
            ].map { $0.replacingOccurrences(of: ",", with: separator) }
        case .json:
            texts = [
                "[{\"a\": 1, \"b\": [true, false, null], \"c\": {\"d\": \"e\\u00e9\\ud83d\\ude00\"}}]",
                "{\"items\": [{\"sku\": \"A\", \"n\": -1.5e10}, {\"sku\": \"B\", \"n\": 9007199254740993}], \"x\": {}}",
                " [ [ ], { }, \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", 0, -0.0, 1E+2 ] ",
                "\u{FEFF}{\"deep\": [[[[{\"a\": [[]]}]]]]}",
            ]
        case .ndjson:
            texts = [
                "{\"a\": 1}\n{\"a\": [2, {\"b\": null}]}\n\n\"s\"\r\n",
                "1\n2.5\ntrue\n[]\n{}\n",
            ]
        case .xml:
            texts = [
                "<?xml version=\"1.0\"?><catalog><item sku=\"A\" p=\"1\"><name>n &amp; m</name><tag>a</tag><tag>b</tag></item></catalog>",
                "<c:catalog xmlns:c=\"urn:c\" xmlns:x=\"urn:x\"><c:item x:id=\"1\"><![CDATA[<raw>]]>&#233;<sub a=\"&#38;\">t</sub></c:item></c:catalog>",
                "\u{FEFF}<catalog>\n  <item>text<b/>more</item>\n  <item/>\n</catalog>\n",
                "<!DOCTYPE catalog [<!ELEMENT catalog ANY>]><catalog><item>&lt;&gt;&apos;&quot;</item></catalog>",
            ]
        }
        return texts.map { Array($0.utf8) }
    }

    /// Fragments worth inserting into `format` inputs.
    static func tokens(for format: RecordFormat) -> [[UInt8]] {
        let texts: [String]
        switch format {
        case .csv, .tsv:
            texts = ["\"", "\"\"", ",", "\t", "\r", "\n", "\r\n", "\u{FEFF}", "é", "\u{FFFF}"]
        case .json, .ndjson:
            texts = [
                "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud83d", "\\udc00", "true", "null", "-",
                "0", "1e", ".", "\n", "{\"a\":", "[[[[", "]]]]", "é",
            ]
        case .xml:
            texts = [
                "<", ">", "</", "/>", "&", "&amp;", "&#", "&#x", ";", "\"", "<![CDATA[", "]]>", "<item>",
                "</item>", "xmlns:p=\"u\"", "p:", "<!ENTITY e \"x\">", "<!DOCTYPE c [", "]>", "&e;", "<?", "?>",
            ]
        }
        return texts.map { Array($0.utf8) }
    }

    /// The records path the fuzzer uses for `format`.
    static func recordsPath(for format: RecordFormat, variant: Int) -> String? {
        switch format {
        case .json: return [nil, "items[*]", "$", "[*]", "a.b[*]"][variant % 5]
        case .xml: return [nil, "catalog/item", "*/item", "catalog"][variant % 4]
        default: return nil
        }
    }
}

extension String {
    /// The string with every `target` replaced by `replacement`.
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }

    /// The string with every `target` string (one character long) replaced.
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard let character = target.first, target.count == 1 else { return self }
        return replacingOccurrences(of: character, with: replacement)
    }
}
