// FieldLookup: several paths found in one pass give, for every record and path, exactly what
// SourceRecord.value(at:) gives (kind, text, position, list elements) — in XML, JSON and CSV
// records, with repeated, missing, namespaced and nested names, and one FieldMatches reused
// from record to record and from lookup to lookup.
import Testing

@testable import RecordReaders

@Suite("Field lookup")
struct FieldLookupTests {
    /// Every path of `lookup` in every record, found in one pass and evaluated on its own.
    private func expectSameValues(
        _ records: [SourceRecord], _ lookup: FieldLookup, matches: inout FieldMatches,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (number, record) in records.enumerated() {
            matches.find(lookup, in: record)
            for (index, path) in lookup.paths.enumerated() {
                let found = describe(matches.value(index, of: lookup, in: record))
                let evaluated = describe(record.value(at: path))
                #expect(found == evaluated, "record \(number + 1), \(path.text)", sourceLocation: sourceLocation)
            }
        }
    }

    private func describe(_ value: FieldValue?) -> String {
        guard let value else { return "none" }
        let elements = value.elements.map(\.string).joined(separator: "|")
        return "\(value.kind) \(value.string) \(value.position) [\(elements)] \(value.name ?? "-")"
    }

    private func paths(_ texts: [String]) throws -> FieldLookup {
        FieldLookup(try texts.map { text throws(PathSyntaxError) in try FieldPath(parsing: text) })
    }

    @Test func xmlRecordsGiveWhatEachPathGives() throws {
        let xml = """
            <catalog xmlns:a="urn:a" xmlns:b="urn:b">
              <item sku="A1" price="2.50" a:id="x" b:id="y"><name>Tea</name><tag>hot</tag><tag>leaf</tag>
                <location aisle="B"><shelf>3</shelf></location></item>
              <item price="1.00" sku="A2"><tag>cold</tag><name>Ice</name><name>Cube</name></item>
              <item/>
              <item id="7">text<notes></notes></item>
            </catalog>
            """
        let records = try readAll(xml, format: .xml, options: ReaderOptions(records: "catalog/item"))
        #expect(records.count == 4)
        let lookup = try paths([
            "@sku", "@price", "@id", "name", "tag", "notes", "missing", "@missing", "location/@aisle",
            "location/shelf", "location", ".", "sku",
        ])
        var matches = FieldMatches()
        expectSameValues(records, lookup, matches: &matches)
        // The values themselves, beside their agreement.
        matches.find(lookup, in: records[0])
        #expect(matches.value(0, of: lookup, in: records[0])?.string == "A1")
        #expect(matches.value(4, of: lookup, in: records[0])?.elements.map(\.string) == ["hot", "leaf"])
        #expect(matches.value(2, of: lookup, in: records[0])?.kind == .list)  // a:id and b:id
        #expect(matches.value(12, of: lookup, in: records[0]) == nil)  // an attribute is not a child
        matches.find(lookup, in: records[1])
        #expect(matches.value(3, of: lookup, in: records[1])?.elements.map(\.string) == ["Ice", "Cube"])
        #expect(matches.first(6..<8, of: lookup, in: records[1]) == nil)
        #expect(matches.first(6..<9, of: lookup, in: records[0])?.string == "B")
    }

    @Test func jsonRecordsGiveWhatEachPathGives() throws {
        let json = """
            [{"sku": "A1", "price": 2.5, "tags": ["hot", "leaf"], "location": {"aisle": "B"}, "notes": null},
             {"price": 1, "sku": "A2", "": "empty name", "tags": []},
             {"sku": {"code": "A3"}, "list": [{"name": "x"}, {"name": "y"}]},
             ["not", "an", "object"], 42]
            """
        let records = try readAll(json, format: .json)
        #expect(records.count == 5)
        let lookup = try paths([
            "sku", "price", "tags", "tags[1]", "location.aisle", "notes", "missing", "\"\"", "sku.code",
            "list.name", "list[*].name", "@sku", "[0]", ".",
        ])
        var matches = FieldMatches()
        expectSameValues(records, lookup, matches: &matches)
        matches.find(lookup, in: records[1])
        #expect(matches.value(1, of: lookup, in: records[1])?.string == "1")
        #expect(matches.value(0, of: lookup, in: records[1])?.string == "A2")
    }

    @Test func csvRowsAndReusedMatchesGiveWhatEachPathGives() throws {
        let csv = "sku,name,price\nA1,Tea,2.50\nA2,,1.00\n"
        let rows = try readAll(csv, format: .csv)
        let columns = try paths(["sku", "price", "#2", "missing"])
        let xml = try readAll(
            "<c><i sku=\"X\"><n>1</n></i><i><n>2</n><n>3</n></i></c>", format: .xml,
            options: ReaderOptions(records: "c/i"))
        let elements = try paths(["@sku", "n"])
        // One FieldMatches for lookups of different sizes over records of different formats:
        // nothing found for one record shows through for the next.
        var matches = FieldMatches()
        for _ in 0..<2 {
            expectSameValues(rows, columns, matches: &matches)
            expectSameValues(xml, elements, matches: &matches)
            expectSameValues(xml.reversed(), elements, matches: &matches)
        }
        matches.find(columns, in: rows[0])
        #expect(matches.value(1, of: columns, in: rows[0])?.string == "2.50")
        #expect(matches.value(2, of: columns, in: rows[0])?.string == "Tea")
    }
}
