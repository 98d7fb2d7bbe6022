// XMLReader: records selected from an XML document by an element path (or several disjoint
// ones, read in one pass), parsed by libxml2's SAX2 push parser fed with the reader's own chunks.
//
// Security: options are XML_PARSE_NONET only — never NOENT, DTDLOAD or DTDATTR — so no
// external entity, DTD or network resource is ever loaded; entity declarations are refused
// outright (billion laughs and XXE fail at the first <!ENTITY>); depth, text and record
// sizes are limited by ReaderLimits on top of libxml2's own limits.
// Invariants: records before an error are returned first, then the error is thrown; at most
// one chunk's worth of finished records is queued.

internal import CLibXML2

/// Initializes libxml2 once per process, before any parser is created.
private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

/// Reads the records of an XML document.
///
/// ```swift
/// var reader = try XMLReader(.file("catalog.xml"), options: ReaderOptions(records: "catalog/item"))
/// let sku = try FieldPath(parsing: "@sku")
/// while let item = try reader.next() { print(item[sku]?.string ?? "", item.position.path) }
/// ```
public struct XMLReader: RecordReader {
    private var input: ByteInput
    private let session: XMLParserSession
    private var isFinished = false
    private var errorThrown = false
    private var bytesFed = 0
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Bytes handed to the parser so far (compressed bytes for gzip input).
    public var bytesConsumed: Int { input.bytesConsumed }
    /// The input's name.
    public var fileName: String { input.name }

    /// Opens `source`; `options.records` is the element path of the records (default: the
    /// children of the root element), `options.additionalRecords` more disjoint ones.
    public init(_ source: InputSource, options: ReaderOptions = ReaderOptions()) throws(RecordReaderError) {
        let texts = [options.records] + options.additionalRecords
        let paths: [XMLRecordPath]
        do {
            paths = try texts.map { text throws(PathSyntaxError) in try XMLRecordPath(text) }
        } catch {
            throw RecordReaderError(.configuration, error.description, file: source.name)
        }
        guard RecordReaderFactory.canSelectTogether(texts, format: .xml) else {
            throw RecordReaderError(
                .configuration,
                "records paths that overlap cannot be read in one pass: "
                    + paths.map(\.text).joined(separator: ", "), file: source.name)
        }
        input = try ByteInput(source, chunkSize: options.chunkSize)
        _ = libxml2Initialized
        session = XMLParserSession(
            assembler: XMLRecordAssembler(fileName: source.name, paths: paths, limits: options.limits))
        var handler = XMLSAXHandler.make()
        let userData = UnsafeMutableRawPointer(session.assemblerAddress)
        guard let parser = xmlCreatePushParserCtxt(&handler, userData, nil, 0, source.name) else {
            throw RecordReaderError(.io, "cannot create an XML parser", file: source.name)
        }
        session.assembler.parser = parser
        xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
    }

    /// The next record, or `nil` at the end of the document.
    public mutating func next() throws(RecordReaderError) -> SourceRecord? {
        // Copies of this reader share one session, so its builder is never shared by value.
        while true {
            if let record = session.assembler.dequeue() {
                recordsRead += 1
                return record
            }
            if errorThrown { return nil }
            if let error = session.assembler.error {
                isFinished = true
                errorThrown = true
                throw error
            }
            if isFinished { return nil }
            try feed()
        }
    }

    /// Hands the next chunk (or the end of the input) to the parser.
    private mutating func feed() throws(RecordReaderError) {
        guard let parser = session.assembler.parser else { return }
        if try input.refill() {
            let count = input.limit - input.position
            let chunk = UnsafeRawPointer(input.base + input.position).assumingMemoryBound(to: CChar.self)
            input.position = input.limit
            bytesFed += count
            let status = xmlParseChunk(parser, chunk, Int32(count), 0)
            if status != 0 { session.assembler.libxml2ErrorIfMissing(status: status) }
            return
        }
        isFinished = true
        if bytesFed == 0 {
            session.assembler.failAtEnd(.syntax, "empty document")
            return
        }
        let status = xmlParseChunk(parser, nil, 0, 1)
        if status != 0 { session.assembler.libxml2ErrorIfMissing(status: status) }
        if session.assembler.error == nil, let path = session.assembler.unreachedPath {
            session.assembler.failAtEnd(.structure, "the records path \(path.text) matches nothing")
        }
    }
}
