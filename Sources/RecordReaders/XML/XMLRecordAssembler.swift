// XMLRecordAssembler: turns libxml2 SAX2 events into records.
//
// Outside records it only tracks which records paths (one, or several disjoint ones read in
// one pass) the open elements match.
// Inside a record it appends an element node per element (namespace URI and local name),
// an attribute leaf per attribute, and collects each element's own text (character data,
// CDATA, character and predefined entity references) in a scratch stack, copied into the
// element's value when it ends. Finished records wait in a queue until the reader hands them
// out. Invariants: the first error stops the parser and is kept; depth, text, record size
// and value count are checked as events arrive, so no limit is exceeded by more than one
// event; entity declarations are refused (no DTD entity is ever expanded).
// Positions: libxml2's errors carry its own line and column; the reader's errors name where
// the offending construct starts — the start tag of a too-deep element, of the element whose
// text or attribute is too long, of the record too long or with too many values, and the
// `<!ENTITY` of a refused declaration — so they do not depend on how the input was chunked.

internal import CLibXML2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds records from SAX2 events (state of an XMLParserSession).
struct XMLRecordAssembler {
    let fileName: String
    /// `ReaderOptions.records`, then `additionalRecords`.
    let paths: [XMLRecordPath]
    let limits: ReaderLimits
    /// The push parser (set once created; owned and freed by the session).
    var parser: xmlParserCtxtPtr?

    private var builder = RecordBuilder()
    /// Depth of the current element (the root element is 1).
    private var depth = 0
    /// The records paths the open elements at depths 1...matched.count lie on, per depth.
    private var matched: [RecordPathSet] = []
    /// Depth of the open record element, 0 outside records.
    private var recordDepth = 0
    /// The path that selected the open record.
    private var recordSelection = 0
    /// Nodes of the open elements inside the record.
    private var openElements: [Int32] = []
    /// Text of the open elements inside the record, each from its start offset.
    private var text: [UInt8] = []
    private var textStarts: [Int] = []
    /// Names of the open elements on the records path, for record positions.
    private var pathNames: [String] = []
    /// Per path: the path of the current records' parent element, and the records found in it so far.
    private var parentPath: [String]
    private var siblingIndex: [Int]
    /// Per path: whether the records' parent element was found at all.
    private var parentReached: [Bool]

    /// Records finished and not yet handed out (each moved out when it is).
    private var queue: [SourceRecord?] = []
    private var queueHead = 0
    /// Records built so far, per path (their record numbers).
    private var recordsBuilt: [Int]
    /// The first error, which stops the parser.
    private(set) var error: RecordReaderError?
    /// Whether `error` is set (checked on every event, cheaper than comparing the error).
    private var failed = false

    /// A source position: 1-based line and column (characters, as libxml2 counts them) and
    /// 0-based byte offset.
    typealias Position = (line: Int, column: Int, offset: Int)

    init(fileName: String, paths: [XMLRecordPath], limits: ReaderLimits) {
        self.fileName = fileName
        self.paths = paths
        self.limits = limits
        parentReached = paths.map { $0.names.count <= 1 }
        parentPath = Array(repeating: "", count: paths.count)
        siblingIndex = Array(repeating: 0, count: paths.count)
        recordsBuilt = Array(repeating: 0, count: paths.count)
    }

    /// The first records path whose records' parent element was not found.
    var unreachedPath: XMLRecordPath? {
        parentReached.firstIndex(of: false).map { paths[$0] }
    }

    /// The next queued record, if any.
    mutating func dequeue() -> SourceRecord? {
        guard queueHead < queue.count else { return nil }
        let record = queue[queueHead].take()
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        return record
    }

    // MARK: Events

    mutating func startElement(
        localName: UnsafePointer<xmlChar>, namespaceURI: UnsafePointer<xmlChar>?,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, attributeCount: Int
    ) {
        guard !failed else { return }
        depth += 1
        if depth > limits.maxDepth {
            fail(.limit, "nesting deeper than \(limits.maxDepth)", at: Self.startPosition(of: "<", in: parser))
            return
        }
        if recordDepth > 0 {
            openElement(localName, namespaceURI, attributes, attributeCount)
            return
        }
        guard matched.count == depth - 1 else { return }
        let alive = (matched.last ?? .first(paths.count)).filter { index in
            let names = paths[index].names
            guard depth <= names.count else { return false }
            return names[depth - 1].isEmpty || XMLRecordAssembler.equals(localName, names[depth - 1])
        }
        guard !alive.isEmpty else { return }
        matched.append(alive)
        // Disjoint paths: a path that ends here is the only one still matching.
        if let complete = alive.filter({ paths[$0].names.count == depth }).lowest {
            recordDepth = depth
            recordSelection = complete
            siblingIndex[complete] += 1
            openElement(localName, namespaceURI, attributes, attributeCount)
            return
        }
        pathNames.append(String(cString: localName))
        alive.forEach { index in
            guard depth == paths[index].names.count - 1 else { return }
            parentReached[index] = true
            parentPath[index] = "/" + pathNames.joined(separator: "/")
            siblingIndex[index] = 0
        }
    }

    mutating func endElement() {
        guard !failed else { return }
        if recordDepth > 0 {
            closeElement()
            if depth == recordDepth {
                finishRecord()
                recordDepth = 0
            }
        }
        if matched.count == depth {
            matched.removeLast()
            if pathNames.count == depth { pathNames.removeLast() }  // not the record element
        }
        depth -= 1
    }

    mutating func characters(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        guard !failed, recordDepth > 0, count > 0, let start = textStarts.last else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        let recordSize = text.count + builder.byteCount
        let fieldOver = text.count - start > limits.maxFieldSize
        let recordOver = recordSize > limits.maxRecordSize
        // The limit crossed at the earlier byte wins, whatever the size of this text event.
        if fieldOver && (!recordOver || recordSize - (text.count - start) + limits.maxFieldSize <= limits.maxRecordSize)
        {
            fail(.limit, "element text longer than \(limits.maxFieldSize) bytes", at: nodePosition(openElements.last))
        } else if recordOver {
            fail(.limit, "record longer than \(limits.maxRecordSize) bytes", at: nodePosition(0))
        }
    }

    mutating func entityDeclaration(name: UnsafePointer<xmlChar>?) {
        let shown = name.map { String(cString: $0) } ?? ""
        fail(
            .security, "entity declarations are not allowed (<!ENTITY \(shown)>)",
            at: Self.startPosition(of: "<!ENTITY", in: parser))
    }

    /// Records libxml2's first error or fatal error (warnings are ignored).
    mutating func libxml2Error(_ report: xmlError) {
        guard !failed, report.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let raw = report.message.map { String(cString: $0) } ?? "XML error \(report.code)"
        let message = raw.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.joined(separator: " ")
        let kind: RecordReaderError.Kind =
            report.code == Int32(XML_ERR_INVALID_CHAR.rawValue)
                || report.code == Int32(XML_ERR_UNKNOWN_ENCODING.rawValue)
                || report.code == Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue) ? .encoding : .syntax
        failed = true
        error = RecordReaderError(
            kind, message, file: fileName, line: Int(report.line), column: Int(report.int2),
            byteOffset: Self.currentOffset(parser), recordNumber: recordsBuilt[0] + 1)
        stop()
    }

    /// Records a generic error when libxml2 failed without reporting one.
    mutating func libxml2ErrorIfMissing(status: Int32) {
        if !failed { fail(.syntax, "XML error \(status)", at: Self.cursorPosition(parser)) }
    }

    /// An error at the end of the input (the records path matched nothing).
    mutating func failAtEnd(_ kind: RecordReaderError.Kind, _ reason: String) {
        fail(kind, reason, at: Self.cursorPosition(parser))
    }

    // MARK: Building

    private mutating func openElement(
        _ localName: UnsafePointer<xmlChar>, _ namespaceURI: UnsafePointer<xmlChar>?,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int
    ) {
        let position = Self.startPosition(of: "<", in: parser)
        if let parent = openElements.last {
            builder.nodes[Int(parent)].flags |= Node.structuredFlag
        }
        var element = Node(
            kind: .element, line: Int32(truncatingIfNeeded: position.line),
            column: Int32(truncatingIfNeeded: position.column), offset: position.offset)
        guard appendName(localName, namespaceURI, into: &element) else { return }
        let index = builder.appendNode(element, isLeaf: false)
        openElements.append(index)
        textStarts.append(text.count)
        if let attributes, attributeCount > 0 {
            builder.nodes[Int(index)].flags |= Node.structuredFlag
            for attribute in 0..<attributeCount {
                let fields = attributes + attribute * 5
                guard let name = fields[0], let valueStart = fields[3], let valueEnd = fields[4] else { continue }
                if fields[2] != nil { builder.nodes[Int(index)].flags |= Node.namespacedAttributeFlag }
                var leaf = element
                leaf.kind = .attribute
                leaf.flags = 0
                guard appendName(name, fields[2], into: &leaf) else { return }
                let count = valueEnd - valueStart
                if count > limits.maxFieldSize {
                    fail(.limit, "attribute longer than \(limits.maxFieldSize) bytes", at: position)
                    return
                }
                leaf.valueStart = Int32(truncatingIfNeeded: builder.byteCount)
                appendAttributeValue(valueStart, count: count)
                leaf.valueCount = Int32(truncatingIfNeeded: builder.byteCount - Int(leaf.valueStart))
                builder.appendNode(leaf)
            }
        }
        checkRecordSize()
    }

    /// Appends the namespace URI then the local name of an element or attribute.
    private mutating func appendName(
        _ localName: UnsafePointer<xmlChar>, _ namespaceURI: UnsafePointer<xmlChar>?, into node: inout Node
    ) -> Bool {
        if let namespaceURI {
            let count = strlen(namespaceURI)
            guard count <= Int(UInt16.max) else {
                fail(
                    .limit, "namespace URI longer than \(UInt16.max) bytes",
                    at: (Int(node.line), Int(node.column), node.offset))
                return false
            }
            builder.append(namespaceURI, count: count)
            node.namespaceCount = UInt16(count)
        } else {
            node.namespaceCount = 0
        }
        let count = strlen(localName)
        node.nameStart = Int32(truncatingIfNeeded: builder.byteCount)
        node.nameCount = Int32(truncatingIfNeeded: count)
        builder.append(localName, count: count)
        return true
    }

    /// Appends an attribute value. Without entity substitution libxml2 hands SAX2 every `&`
    /// of an attribute value as the reference `&#38;` (its tree builder decodes it later), so
    /// it is decoded here; all other references arrive decoded.
    private mutating func appendAttributeValue(_ start: UnsafePointer<xmlChar>, count: Int) {
        guard count > 0, memchr(start, Int32(UInt8(ascii: "&")), count) != nil else {
            builder.append(start, count: count)
            return
        }
        let value = UnsafeBufferPointer(start: start, count: count)
        let reference = Array("&#38;".utf8)
        var index = 0
        while index < count {
            if value[index] == UInt8(ascii: "&"), index + reference.count <= count,
                value[index..<index + reference.count].elementsEqual(reference)
            {
                builder.append(UInt8(ascii: "&"))
                index += reference.count
            } else {
                builder.append(value[index])
                index += 1
            }
        }
    }

    private mutating func closeElement() {
        guard let index = openElements.popLast(), let start = textStarts.popLast() else { return }
        let valueStart = builder.byteCount
        text.withUnsafeBufferPointer { all in
            if let base = all.baseAddress { builder.append(base + start, count: all.count - start) }
        }
        text.removeSubrange(start...)
        builder.nodes[Int(index)].valueStart = Int32(truncatingIfNeeded: valueStart)
        builder.nodes[Int(index)].valueCount = Int32(truncatingIfNeeded: builder.byteCount - valueStart)
        builder.close(index)
    }

    private mutating func finishRecord() {
        recordsBuilt[recordSelection] += 1
        let context = RecordContext(
            file: fileName, recordNumber: recordsBuilt[recordSelection], pathStyle: .xml,
            pathPrefix: parentPath[recordSelection], pathIndex: siblingIndex[recordSelection],
            selection: recordSelection)
        queue.append(SourceRecord(storage: builder.finish(context: context)))
    }

    private mutating func checkRecordSize() {
        if builder.nodeCount - 1 > limits.maxValuesPerRecord {  // the record element is not a value
            fail(.limit, "more than \(limits.maxValuesPerRecord) values in a record", at: nodePosition(0))
        } else if builder.byteCount + text.count > limits.maxRecordSize {
            fail(.limit, "record longer than \(limits.maxRecordSize) bytes", at: nodePosition(0))
        }
    }

    // MARK: Positions and errors

    private mutating func fail(_ kind: RecordReaderError.Kind, _ reason: String, at position: Position) {
        guard !failed else { return }
        failed = true
        error = RecordReaderError(
            kind, reason, file: fileName, line: position.line, column: position.column,
            byteOffset: position.offset, recordNumber: recordsBuilt[0] + 1)
        stop()
    }

    private func stop() {
        if let parser { xmlStopParser(parser) }
    }

    // The position helpers are static and take the parser: an instance method called from a
    // mutating one (a SAX event) would first copy the whole assembler, once per element.

    private static func currentOffset(_ parser: xmlParserCtxtPtr?) -> Int {
        guard let parser else { return 0 }
        return max(Int(xmlByteConsumed(parser)), 0)
    }

    /// libxml2's current position (where its cursor stands).
    private static func cursorPosition(_ parser: xmlParserCtxtPtr?) -> Position {
        let input = parser?.pointee.input?.pointee
        return (Int(input?.line ?? 0), Int(input?.col ?? 0), currentOffset(parser))
    }

    /// The position of the element node at `index` of the record being built (its start tag),
    /// or libxml2's cursor when there is none.
    private func nodePosition(_ index: Int32?) -> Position {
        guard let index, Int(index) < builder.nodeCount else { return Self.cursorPosition(parser) }
        let node = builder.nodes[Int(index)]
        return (Int(node.line), Int(node.column), node.offset)
    }

    /// Where the construct libxml2 has just parsed begins, found as the nearest `marker`
    /// before its cursor, which stands inside or just after it: `<` for a start tag (libxml2
    /// stands after its `>`, and a start tag contains no `<`, not even in attribute values),
    /// `<!ENTITY` for an entity declaration (libxml2 stands before its `>`). The construct
    /// being parsed is wholly in libxml2's input buffer. Falls back to the cursor.
    private static func startPosition(of marker: StaticString, in parser: xmlParserCtxtPtr?) -> Position {
        guard let input = parser?.pointee.input?.pointee, let cursor = input.cur, let base = input.base else {
            return cursorPosition(parser)
        }
        let line = Int(input.line)
        let column = Int(input.col)
        let end = input.end ?? cursor
        let bytes = marker.utf8Start
        let count = marker.utf8CodeUnitCount
        func isMarker(_ start: UnsafePointer<xmlChar>) -> Bool {
            guard count > 0, start.pointee == bytes.pointee, end - start >= count else { return false }
            var index = 1
            while index < count {
                if start[index] != bytes[index] { return false }
                index += 1
            }
            return true
        }
        var open = cursor
        if count == 1 {  // a start tag, once per element: a word-at-a-time scan
            let byte = bytes.pointee
            if open.pointee != byte {
                open = base + (ByteScanner.lastIndex(of: byte, in: base, from: 0, before: cursor - base) ?? 0)
            }
        } else {
            while open > base, !isMarker(open) { open -= 1 }
        }
        guard isMarker(open) else { return (line, column, currentOffset(parser)) }
        let (characters, newlines) = ByteScanner.characterAndLineCount(in: open, from: 0, to: cursor - open)
        let offset = currentOffset(parser) - (cursor - open)
        if newlines == 0 { return (line, max(column - characters, 1), offset) }
        var lineStart = open
        while lineStart > base, (lineStart - 1).pointee != UInt8(ascii: "\n") { lineStart -= 1 }
        let before = ByteScanner.characterAndLineCount(in: lineStart, from: 0, to: open - lineStart)
        return (line - newlines, before.characters + 1, offset)
    }

    /// Whether the NUL-terminated `name` equals `wanted`.
    private static func equals(_ name: UnsafePointer<xmlChar>, _ wanted: [UInt8]) -> Bool {
        for (index, byte) in wanted.enumerated() where name[index] != byte { return false }
        return name[wanted.count] == 0
    }
}

extension Substring {
    /// The text without leading and trailing spaces.
    fileprivate func trimmingSpaces() -> Substring {
        let head = drop(while: { $0 == " " })
        guard let last = head.lastIndex(where: { $0 != " " }) else { return "" }
        return head[...last]
    }
}
