// XML conformance: records by element path, attributes, child text, lists, nested records,
// own text, CDATA, references, namespaces, BOM; and security (no entity declarations, no
// external DTDs or entities, depth and size limits) with libxml2's error positions.
import Testing

@testable import RecordReaders

@Suite("XML reader")
struct XMLReaderTests {
    private func xml(_ text: String, records: String? = "catalog/item") throws -> [SourceRecord] {
        try readAll(text, format: .xml, options: ReaderOptions(records: records))
    }

    private func error(_ text: String, records: String? = "catalog/item", limits: ReaderLimits = ReaderLimits())
        -> RecordReaderError?
    {
        readError(text, format: .xml, options: ReaderOptions(records: records, limits: limits))
    }

    private let catalog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <catalog version="2">
          <info><item sku="not-a-record"/></info>
          <item sku="A1" price="1.50">
            <name>Apple &amp; Pear &#233; &#x20AC;</name>
            <tag>fruit</tag><tag>red</tag>
            <location aisle="4"><bin>7</bin></location>
            <notes><![CDATA[<b>bold</b> & raw]]></notes>
          </item>
          <item sku="B2">plain text</item>
        </catalog>
        """

    @Test func selectsRecordsByElementPath() throws {
        let records = try xml(catalog)
        #expect(records.count == 2)
        #expect(records.map { $0[path("@sku")]?.string } == ["A1", "B2"])
        #expect(records.map(\.position.path) == ["/catalog/item[1]", "/catalog/item[2]"])
        #expect(records.map(\.position.line) == [4, 10])
        #expect(records.map(\.position.column) == [3, 3])
        #expect(records[0].position.byteOffset == 105)
        #expect(try xml(catalog, records: "/catalog/item").count == 2)
        #expect(try xml(catalog, records: "*/item").count == 2)
        #expect(try xml(catalog, records: "catalog/info/item").count == 1)
        #expect(try xml(catalog, records: "catalog").count == 1)
    }

    @Test func defaultRecordsAreTheRootsChildren() throws {
        let records = try xml(catalog, records: nil)
        #expect(records.map(\.name) == ["info", "item", "item"])
    }

    @Test func attributesTextListsAndNestedRecords() throws {
        let item = try #require(try xml(catalog).first)
        #expect(item[path("@price")]?.string == "1.50")
        #expect(item[path("@price")]?.isAttribute == true)
        #expect(item[path("name")]?.string == "Apple & Pear é €")
        #expect(item[path("name")]?.kind == .text)
        #expect(item[path("tag")]?.kind == .list)
        #expect(item[path("tag")]?.elements.map(\.string) == ["fruit", "red"])
        #expect(item[path("tag[1]")]?.string == "red")
        #expect(item[path("notes")]?.string == "<b>bold</b> & raw")
        #expect(item[path("location/@aisle")]?.string == "4")
        #expect(item[path("location@aisle")]?.string == "4")
        #expect(item[path("location.bin")]?.string == "7")
        #expect(item[path("location/bin")]?.position.path == "/catalog/item[1]/location/bin")
        #expect(item[path("tag")]?.elements[1].position.path == "/catalog/item[1]/tag[2]")
        let location = try #require(item[path("location")])
        #expect(location.kind == .record)
        #expect(location.record?[path("bin")]?.string == "7")
        #expect(location.record?[path("@aisle")]?.string == "4")
        #expect(location.position.line == 7)
        #expect(item[path("missing")] == nil)
        #expect(item[path("@missing")] == nil)
    }

    @Test func attributeValuesDecodeReferences() throws {
        let text = "<catalog><item a=\"x &amp; y &#38; z &lt;&#10;&quot;\" b=\"&amp;#38;\"/></catalog>"
        let item = try #require(try xml(text).first)
        #expect(item[path("@a")]?.string == "x & y & z <\n\"")
        #expect(item[path("@b")]?.string == "&#38;")
    }

    @Test func ownTextWithDot() throws {
        let records = try xml(catalog)
        #expect(records[1][path(".")]?.string == "plain text")
        #expect(records[1].value.string == "plain text")
        let mixed = try xml("<catalog><item>a<b>x</b>c</item></catalog>")
        #expect(mixed[0][path(".")]?.string == "ac")
        #expect(mixed[0][path("b")]?.string == "x")
    }

    @Test func namespacesMatchLocalNames() throws {
        let text = """
            <c:catalog xmlns:c="urn:catalog" xmlns="urn:default" xmlns:x="urn:x">
              <c:item x:sku="A1"><name>n</name><x:name>m</x:name></c:item>
            </c:catalog>
            """
        let item = try #require(try xml(text).first)
        #expect(item.value.namespaceURI == "urn:catalog")
        #expect(item[path("@sku")]?.string == "A1")
        #expect(item[path("@sku")]?.namespaceURI == "urn:x")
        #expect(item[path("name")]?.elements.map(\.string) == ["n", "m"])
        #expect(item[path("name")]?.elements.map(\.namespaceURI) == ["urn:default", "urn:x"])
        let unbound = error("<catalog><p:item/></catalog>")
        #expect(unbound?.kind == .syntax)
        #expect(unbound?.reason == "Namespace prefix p on item is not defined")
    }

    @Test func attributesSharingALocalNameAreAllMatched() throws {
        // Attributes are found among an element's first children only; a match ends the search
        // unless a namespaced attribute may share its local name.
        let text = """
            <catalog xmlns:x="urn:x" xmlns:y="urn:y">
              <item id="1" x:id="2" y:id="3" sku="A1"><id>child</id><sku>B</sku></item>
              <item x:id="4" id="5" sku="A2"><id>child</id></item>
              <item sku="A3" id="6" price="1"><id>child</id><price>2</price></item>
            </catalog>
            """
        let records = try xml(text)
        #expect(records.map { $0[path("@id")]?.elements.map(\.string) } == [["1", "2", "3"], ["4", "5"], ["6"]])
        #expect(records.map { $0[path("@sku")]?.string } == ["A1", "A2", "A3"])
        #expect(records.map { $0[path("@price")]?.string } == [nil, nil, "1"])
        #expect(records.map { $0[path("@bin")]?.string } == [nil, nil, nil])
        #expect(records.map { $0[path("id")]?.string } == ["child", "child", "child"])
        #expect(records[2][path("price")]?.string == "2")
        #expect(records[0][path("@id")]?.kind == .list)
        #expect(records[2][path("@id")]?.kind == .text)
        // Records an import keeps aside on disk read the same.
        let restored = try records.map { try #require(SourceRecord(archive: $0.archived())) }
        #expect(restored.map { $0[path("@id")]?.elements.map(\.string) } == [["1", "2", "3"], ["4", "5"], ["6"]])
    }

    @Test func byteOrderMarkAndEncodingDeclaration() throws {
        let bom = [0xEF, 0xBB, 0xBF] + Array("<catalog><item a=\"é\"/></catalog>".utf8)
        #expect(
            try readAll(bom, format: .xml, options: ReaderOptions(records: "catalog/item")).first?[path("@a")]?.string
                == "é")
        let latin1 =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><catalog><item>".utf8) + [0xE9]
            + Array("</item></catalog>".utf8)
        #expect(
            try readAll(latin1, format: .xml, options: ReaderOptions(records: "catalog/item")).first?.value.string
                == "é")
    }

    @Test func malformedDocumentsCarryLibxml2Positions() {
        let unclosed = error("<catalog>\n  <item>\n</catalog>")
        #expect(unclosed?.kind == .syntax)
        #expect(unclosed?.reason == "Opening and ending tag mismatch: item line 2 and catalog")
        #expect(unclosed.lineColumn == "3:11")
        #expect(error("")?.reason == "empty document")
        #expect(error(" \n")?.kind == .syntax)
        #expect(error("<catalog><item a=\"1\" a=\"2\"/></catalog>")?.reason == "Attribute a redefined")
        #expect(error("<catalog>&undefined;</catalog>")?.reason == "Entity 'undefined' not defined")
        // libxml2 words this error differently when fed single bytes, so one chunk size here.
        let badUTF8 = readError(
            Array("<catalog><item>".utf8) + [0xFF] + Array("</item></catalog>".utf8), format: .xml,
            sizes: [64 * 1024])
        #expect(badUTF8?.kind == .encoding)
        #expect(badUTF8?.reason == "Input is not proper UTF-8, indicate encoding ! Bytes: 0xFF 0x3C 0x2F 0x69")
        #expect(badUTF8.lineColumn == "1:16")
    }

    @Test func recordsBeforeAnErrorAreReturnedFirst() throws {
        var reader = try XMLReader(
            .bytes(Array("<catalog><item/><item/><oops></catalog>".utf8), name: "e.xml"),
            options: ReaderOptions(records: "catalog/item"))
        #expect(try reader.next() != nil)
        #expect(try reader.next() != nil)
        #expect(throws: RecordReaderError.self) { try reader.next() }
        #expect(try reader.next() == nil)
    }

    @Test func recordsPathThatReachesNothingIsAnError() {
        let failure = error("<catalog><item/></catalog>", records: "catalogue/item")
        #expect(failure?.kind == .structure)
        #expect(failure?.reason == "the records path catalogue/item matches nothing")
        #expect(throws: RecordReaderError.self) {
            try XMLReader(.bytes([], name: "x"), options: ReaderOptions(records: "a/@b"))
        }
    }

    // MARK: Security

    @Test func billionLaughsFailsFast() {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            text +=
                " <!ENTITY lol\(level) \""
                + String(repeating: "&lol\(level - 1 == 0 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        text += "]>\n<catalog><item>&lol9;</item></catalog>"
        let clock = ContinuousClock()
        let start = clock.now
        let failure = error(text)
        #expect(clock.now - start < .seconds(2))
        #expect(failure?.kind == .security)
        #expect(failure?.reason == "entity declarations are not allowed (<!ENTITY lol>)")
        // At the first declaration's `<!ENTITY`: line 3, after one space.
        #expect(failure.position == "3:2 @40 #1")
    }

    @Test func externalEntitiesAndDTDsAreNeverLoaded() throws {
        let xxe = error(
            "<!DOCTYPE c [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><catalog><item>&xxe;</item></catalog>")
        #expect(xxe?.kind == .security)
        #expect(xxe?.reason == "entity declarations are not allowed (<!ENTITY xxe>)")
        #expect(xxe.lineColumnOffset == "1:14 @13")
        let parameter = error("<!DOCTYPE c [<!ENTITY % p SYSTEM \"http://127.0.0.1:1/x.dtd\"> %p;]><catalog/>")
        #expect(parameter?.kind == .security)
        #expect(parameter?.reason == "entity declarations are not allowed (<!ENTITY p>)")
        #expect(parameter.lineColumnOffset == "1:14 @13")
        // An external subset is never loaded, so its entities stay undeclared: libxml2's error,
        // at libxml2's position (just after the reference).
        let externalSubset = error("<!DOCTYPE catalog SYSTEM \"/etc/passwd\"><catalog><item>&e;</item></catalog>")
        #expect(externalSubset?.kind == .syntax)
        #expect(externalSubset?.reason == "Entity 'e' not defined")
        #expect(externalSubset.lineColumnOffset == "1:58 @57")
        #expect(try xml("<!DOCTYPE catalog SYSTEM \"/nonexistent.dtd\"><catalog><item>x</item></catalog>").count == 1)
    }

    @Test func refusedDeclarationsAreFoundOnLaterLines() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE c [
              <!ELEMENT c ANY>
              <!ENTITY xxe SYSTEM "file:///etc/passwd">
            ]>
            <catalog><item>&xxe;</item></catalog>
            """
        let xxe = error(text)
        #expect(xxe?.kind == .security)
        #expect(xxe.lineColumnOffset == "4:3 @57")
        let parameter = error("<!DOCTYPE c [\n<!ENTITY\n  % p \"<!ELEMENT c ANY>\">\n]>\n<catalog/>")
        #expect(parameter?.reason == "entity declarations are not allowed (<!ENTITY p>)")
        #expect(parameter.lineColumnOffset == "2:1 @14")
    }

    @Test func depthAndSizeLimits() {
        let deep =
            "<catalog><item>" + String(repeating: "<a>", count: 50) + String(repeating: "</a>", count: 50)
            + "</item></catalog>"
        let failure = error(deep, limits: ReaderLimits(maxDepth: 20))
        #expect(failure?.kind == .limit)
        #expect(failure?.reason == "nesting deeper than 20")
        // At the start tag of the 21st element from the root: the 19th <a>.
        #expect(failure.position == "1:70 @69 #1")
        let small = ReaderLimits(maxFieldSize: 4, maxRecordSize: 40, maxValuesPerRecord: 4)
        // Each at the start tag of the element whose text or attribute is too long.
        let text = error("<catalog><item>abcde</item></catalog>", limits: small)
        #expect(text?.kind == .limit)
        #expect(text?.reason == "element text longer than 4 bytes")
        #expect(text.lineColumnOffset == "1:10 @9")
        let attribute = error("<catalog><item a=\"abcde\"/></catalog>", limits: small)
        #expect(attribute?.reason == "attribute longer than 4 bytes")
        #expect(attribute.lineColumnOffset == "1:10 @9")
        // Each at the start tag of the record.
        let values = error("<catalog><item><a/><a/><a/><a/><a/></item></catalog>", limits: small)
        #expect(values?.reason == "more than 4 values in a record")
        #expect(values.lineColumnOffset == "1:10 @9")
        #expect(error("<catalog><item a=\"1\"><a/><a/><a/></item></catalog>", limits: small) == nil)
        let record = error(
            "<catalog><item><aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/></item></catalog>", limits: small)
        #expect(record?.reason == "record longer than 40 bytes")
        #expect(record.lineColumnOffset == "1:10 @9")
        let second = error("<catalog><item/><item>abc</item><item>abcdefgh</item></catalog>", limits: small)
        #expect(second?.reason == "element text longer than 4 bytes")
        #expect(second.position == "1:33 @32 #3")
    }

    @Test func limitPositionsOnLaterLinesAndAfterNonASCII() {
        // Room for the indentation, which is text of the record element too.
        let small = ReaderLimits(maxFieldSize: 8, maxRecordSize: 60, maxValuesPerRecord: 4)
        let deep = error(
            "<catalog>\n  <item>\n    <a><a>\n      <a></a>\n    </a></a>\n  </item>\n</catalog>",
            limits: ReaderLimits(maxDepth: 4))
        #expect(deep?.reason == "nesting deeper than 4")
        #expect(deep.lineColumnOffset == "4:7 @36")
        let text = error("<catalog>\n  <item>\n    <name>abcdefghi</name>\n  </item>\n</catalog>", limits: small)
        #expect(text?.reason == "element text longer than 8 bytes")
        #expect(text.lineColumnOffset == "3:5 @23")
        // The start tag spans two lines: the error is at its `<`, not where libxml2 stands.
        let attribute = error("<catalog>\n  <item id=\"1\"\n        a=\"abcdefghi\"/>\n</catalog>", limits: small)
        #expect(attribute?.reason == "attribute longer than 8 bytes")
        #expect(attribute.lineColumnOffset == "2:3 @12")
        let values = error("<catalog>\n  <item>\n    <a/><a/><a/><a/><a/>\n  </item>\n</catalog>", limits: small)
        #expect(values?.reason == "more than 4 values in a record")
        #expect(values.lineColumnOffset == "2:3 @12")
        let record = error(
            "<catalog>\n  <item>\n    <" + String(repeating: "a", count: 60) + "/>\n  </item>\n</catalog>",
            limits: small)
        #expect(record?.reason == "record longer than 60 bytes")
        #expect(record.lineColumnOffset == "2:3 @12")
        // Columns count characters (as libxml2 does), byte offsets count bytes: "éé" is 2 and 4.
        let wide = error("<catalog x=\"éé\"><item a=\"abcdefghi\"/></catalog>", limits: small)
        #expect(wide?.reason == "attribute longer than 8 bytes")
        #expect(wide.lineColumnOffset == "1:17 @18")
    }
}
