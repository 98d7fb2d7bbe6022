// Parses one small XML file of an Xcode model (a version's `contents`, or the `.xccurrentversion`
// plist) with libxml2 into an immutable Swift element tree, then frees the libxml2 document.
//
// Security: the options are XML_PARSE_NONET and XML_PARSE_BIG_LINES only — never NOENT, DTDLOAD
// or DTDATTR — so no external entity, DTD or network resource is ever loaded, and a document that
// declares entities is refused before its tree is read (entity references are never expanded).
// Invariants: errors are caught by a structured handler installed on the parser context only (no
// global libxml2 handler is touched); the first error wins; the document and context are always freed.
import CLibXML2

/// Initializes libxml2 once per process, before the first parser context is created.
private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

/// An element of a parsed XML file: its name, attributes, line, text and child elements.
struct XcodeModelElement: Sendable {
    /// The element's local name.
    var name: String
    /// The attribute values by attribute name.
    var attributes: [String: String]
    /// The line the element starts on (1-based).
    var line: Int
    /// The element's own text and CDATA content (not its descendants'), concatenated.
    var text: String
    /// The child elements, in document order.
    var children: [XcodeModelElement]

    /// The value of the attribute called `name`, if present.
    subscript(_ name: String) -> String? { attributes[name] }

    /// Whether the attribute called `name` is `YES` (Xcode's spelling of true).
    func flag(_ name: String) -> Bool { attributes[name] == "YES" }

    /// The child elements called `name`, in document order.
    func children(named name: String) -> [XcodeModelElement] {
        children.filter { $0.name == name }
    }
}

/// Why an XML file could not be parsed, and where.
struct XcodeModelXMLError: Error, Sendable {
    /// What went wrong, as libxml2 (or the reader) put it.
    var message: String
    /// The line of the problem (0 when unknown).
    var line: Int
    /// The column of the problem (0 when unknown).
    var column: Int

    /// `line L, column C: message`, or as much of it as is known.
    var located: String {
        switch (line, column) {
        case (0, _): message
        case (_, 0): "line \(line): \(message)"
        default: "line \(line), column \(column): \(message)"
        }
    }
}

/// Reads XML files into ``XcodeModelElement`` trees.
enum XcodeModelXML {
    /// The libxml2 options: no network, line numbers past 65535; nothing that loads or expands entities.
    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// Parses the file at `path` and returns its root element.
    static func parse(fileAt path: String) throws(XcodeModelXMLError) -> XcodeModelElement {
        _ = libxml2Initialized
        guard let parser = xmlNewParserCtxt() else {
            throw XcodeModelXMLError(message: "cannot create an XML parser", line: 0, column: 0)
        }
        defer { xmlFreeParserCtxt(parser) }
        let collector = XMLErrorCollector()
        let document = withExtendedLifetime(collector) { () -> xmlDocPtr? in
            parser.pointee._private = Unmanaged.passUnretained(collector).toOpaque()
            parser.pointee.sax.pointee.serror = XMLErrorCollector.handler
            defer { parser.pointee._private = nil }
            return xmlCtxtReadFile(parser, path, nil, options)
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let first = collector.first { throw first }
        guard let document else {
            throw XcodeModelXMLError(message: "the file could not be parsed as XML", line: 0, column: 0)
        }
        return try rootElement(of: document)
    }

    /// The document's root element, after refusing entity declarations.
    private static func rootElement(of document: xmlDocPtr) throws(XcodeModelXMLError) -> XcodeModelElement {
        if let subset = document.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
            throw XcodeModelXMLError(
                message: "entity declarations are not allowed in a model file", line: 0, column: 0)
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw XcodeModelXMLError(message: "the document has no root element", line: 0, column: 0)
        }
        return element(root)
    }

    /// The Swift form of `node` and its descendants (libxml2 limits the depth, so recursion is bounded).
    private static func element(_ node: xmlNodePtr) -> XcodeModelElement {
        var result = XcodeModelElement(
            name: string(node.pointee.name), attributes: attributes(of: node),
            line: Int(xmlGetLineNo(node)), text: "", children: [])
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                result.text += string(current.pointee.content)
            default:
                break
            }
            child = current.pointee.next
        }
        return result
    }

    /// The attributes of `node` by name.
    private static func attributes(of node: xmlNodePtr) -> [String: String] {
        var result: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            result[string(current.pointee.name)] = value(of: current)
            attribute = current.pointee.next
        }
        return result
    }

    /// The text value of an attribute: its text children (the parser has already resolved character
    /// and predefined entity references into text; other entity references are dropped).
    private static func value(of attribute: xmlAttrPtr) -> String {
        var result = ""
        var child = attribute.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE { result += string(current.pointee.content) }
            child = current.pointee.next
        }
        return result
    }

    /// A libxml2 string as a Swift string (empty for NULL).
    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}

/// Keeps the first error libxml2 reports while one document is parsed.
private final class XMLErrorCollector {
    private(set) var first: XcodeModelXMLError?

    /// The parser context's structured error handler: libxml2 passes the context as user data,
    /// and the context's `_private` points at the collector for the duration of one parse.
    static let handler: xmlStructuredErrorFunc = { context, report in
        guard let context, let report else { return }
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let collector = parser.pointee._private else { return }
        Unmanaged<XMLErrorCollector>.fromOpaque(collector).takeUnretainedValue().record(report.pointee)
    }

    /// Records `report` when it is an error (not a warning) and none was recorded before.
    func record(_ report: xmlError) {
        guard first == nil, report.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = report.message.map { String(cString: $0) } ?? "XML error \(report.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        first = XcodeModelXMLError(message: message, line: Int(report.line), column: Int(report.int2))
    }
}
