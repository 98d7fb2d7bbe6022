// One reader selecting records by several disjoint record paths (ReaderOptions.additionalRecords)
// gives, for each path, exactly the records a reader of that path alone gives — values,
// positions, paths and record numbers — in document order, each telling its path by `selection`;
// paths that overlap are refused, and a path that matches nothing is an error as it is alone.
import Testing

@testable import RecordReaders

@Suite struct SeveralRecordPathsTests {
    static let json = """
        {"lists": [{"code": "L-1"}, {"code": "L-2"}],
         "meta": {"count": 3, "units": [{"name": "kg"}]},
         "items": [{"sku": "A", "tags": [1, 2]}, {"sku": "B"}, {"sku": "C"}]}
        """
    static let xml = """
        <catalog><item sku="A"/><list code="L-1"><entry sku="A"/></list>
        <item sku="B"><name>Bean</name></item><meta><unit name="kg"/></meta><list code="L-2"/></catalog>
        """

    static func describe(_ record: SourceRecord) -> String {
        "\(record.position) \(dump(record.value))"
    }

    /// Reads `text` once with every path, and once per path alone; the records of each path must agree.
    static func check(_ text: String, format: RecordFormat, paths: [String]) throws -> [Int] {
        var options = ReaderOptions(records: paths[0])
        options.additionalRecords = paths.dropFirst().map { $0 }
        let together = try readAll(text, format: format, options: options)
        for (selection, path) in paths.enumerated() {
            let alone = try readAll(text, format: format, options: ReaderOptions(records: path))
            #expect(!alone.isEmpty)
            #expect(alone.allSatisfy { $0.selection == 0 })
            #expect(together.filter { $0.selection == selection }.map(describe) == alone.map(describe))
        }
        return together.map(\.selection)
    }

    @Test func jsonPathsAreReadInOnePass() throws {
        let selections = try Self.check(Self.json, format: .json, paths: ["items[*]", "lists[*]", "meta.units[*]"])
        #expect(selections == [1, 1, 2, 0, 0, 0])
        var options = ReaderOptions(records: "items[*]")
        options.additionalRecords = ["lists[*]"]
        let records = try readAll(Self.json, format: .json, options: options)
        #expect(records.map(\.position.recordNumber) == [1, 2, 1, 2, 3])
        #expect(records.map(\.position.path) == ["lists[0]", "lists[1]", "items[0]", "items[1]", "items[2]"])
    }

    @Test func xmlPathsAreReadInOnePass() throws {
        let selections = try Self.check(Self.xml, format: .xml, paths: ["catalog/list", "catalog/item", "*/meta/unit"])
        #expect(selections == [1, 0, 1, 2, 0])
        var options = ReaderOptions(records: "catalog/item")
        options.additionalRecords = ["catalog/list"]
        let records = try readAll(Self.xml, format: .xml, options: options)
        #expect(records.map(\.position.recordNumber) == [1, 1, 2, 2])
        #expect(
            records.map(\.position.path) == [
                "/catalog/item[1]", "/catalog/list[1]", "/catalog/item[2]", "/catalog/list[2]",
            ])
        #expect(records.map(\.position.line) == [1, 1, 2, 2])
    }

    @Test(
        arguments: [
            (RecordFormat.json, ["items[*]", "items[0]"]), (.json, ["items[*]", "items[*].tags[*]"]),
            (.json, [nil, "items[*]"]),
            (.xml, ["catalog/item", "*/item"]), (.xml, ["catalog", "catalog/item"]),
        ] as [(RecordFormat, [String?])])
    func overlappingPathsAreRefused(format: RecordFormat, paths: [String?]) {
        #expect(!RecordReaderFactory.canSelectTogether(paths, format: format))
        var options = ReaderOptions(records: paths[0])
        options.additionalRecords = Array(paths.dropFirst())
        let error = readError(format == .json ? Self.json : Self.xml, format: format, options: options)
        #expect(error?.kind == .configuration)
        #expect(error?.reason.hasPrefix("records paths that overlap cannot be read in one pass") == true)
    }

    @Test func disjointPathsCanBeReadTogether() {
        #expect(RecordReaderFactory.canSelectTogether(["items[*]", "lists[*]", "meta.units[*]"], format: .json))
        #expect(RecordReaderFactory.canSelectTogether(["items[0]", "items[1]"], format: .json))
        #expect(RecordReaderFactory.canSelectTogether(["catalog/item", "catalog/list"], format: .xml))
        #expect(RecordReaderFactory.canSelectTogether([nil], format: .csv))
        #expect(!RecordReaderFactory.canSelectTogether([nil, nil], format: .csv))
    }

    @Test func aPathThatMatchesNothingIsAnError() {
        var options = ReaderOptions(records: "items[*]")
        options.additionalRecords = ["orders[*]"]
        let error = readError(Self.json, format: .json, options: options)
        #expect(error?.reason == "the records path orders[*] matches nothing")
        options = ReaderOptions(records: "catalog/item")
        options.additionalRecords = ["catalog/orders/order"]
        #expect(
            readError(Self.xml, format: .xml, options: options)?.reason
                == "the records path catalog/orders/order matches nothing")
    }
}
