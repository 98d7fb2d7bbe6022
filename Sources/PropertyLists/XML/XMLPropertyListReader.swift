// XMLPropertyListReader: reads an XML property list (`.xccurrentversion`, Info.plist-style files)
// into a PropertyListValue, with libxml2.
//
// Security: the options are XML_PARSE_NONET, NOERROR, NOWARNING and BIG_LINES only — never NOENT,
// DTDLOAD or DTDATTR — so the plist DOCTYPE is accepted but never fetched, no external entity is
// loaded, and a document that declares entities is refused before its tree is read. libxml2
// reports nothing on standard error: a handler on the parser context (never the global one)
// keeps its first error, which is thrown.
// Invariants: the same limits as the binary reader (size, values, depth); `CF$UID` dictionaries
// become UIDs, as Core Foundation reads them; the document and context are always freed.
import CLibXML2
import Foundation

/// Initializes libxml2 once per process, before the first parser context is created.
private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

/// Reads XML property lists.
///
/// ```swift
/// let plist = try XMLPropertyListReader().read(Data(contentsOf: url.appendingPathComponent(".xccurrentversion")))
/// plist["_XCCurrentVersionName"]?.stringValue   // "Model 3.xcdatamodel"
/// ```
public struct XMLPropertyListReader: Sendable {
    /// The bounds the input must stay within (`maxObjects` and `maxValues` both bound the values).
    public var limits: PropertyListLimits

    /// A reader with `limits`.
    public init(limits: PropertyListLimits = PropertyListLimits()) {
        self.limits = limits
    }

    /// Reads the XML property list in `data`.
    /// - Throws: ``PropertyListError`` with the line (and column, where libxml2 gives one) of the problem.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        guard data.count <= limits.maxInputSize else {
            throw PropertyListError(.inputTooLarge(size: data.count, limit: limits.maxInputSize), at: .byte(0))
        }
        guard data.count <= Int(Int32.max) else {
            throw PropertyListError(.inputTooLarge(size: data.count, limit: Int(Int32.max)), at: .byte(0))
        }
        _ = libxml2Initialized
        guard let parser = xmlNewParserCtxt() else {
            throw PropertyListError(.invalidXML("cannot create an XML parser"), at: .line(0, column: 0))
        }
        defer { xmlFreeParserCtxt(parser) }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_BIG_LINES.rawValue)
        let firstError = FirstXMLError()
        let document = withExtendedLifetime(firstError) { () -> xmlDocPtr? in
            parser.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
            parser.pointee.sax.pointee.serror = FirstXMLError.handler
            defer { parser.pointee._private = nil }
            return data.withUnsafeBytes { buffer in
                xmlCtxtReadMemory(
                    parser, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil, nil,
                    options)
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let error = firstError.error { throw error }
        guard let document, parser.pointee.wellFormed != 0 else {
            throw PropertyListError(.invalidXML("the document is not well-formed XML"), at: .line(0, column: 0))
        }
        if let subset = document.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
            throw PropertyListError(.invalidXML("entity declarations are not allowed"), at: .line(1, column: 0))
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw PropertyListError(.invalidXML("the document has no root element"), at: .line(1, column: 0))
        }
        var builder = XMLValueBuilder(limits: limits)
        guard Self.name(of: root) == "plist" else { return try builder.value(root, depth: 1) }
        let values = Self.elements(in: root)
        guard values.count == 1, let value = values.first else {
            throw PropertyListError(
                .invalidXML("<plist> holds \(values.count) values, not one"), at: Self.position(of: root))
        }
        return try builder.value(value, depth: 1)
    }

    /// The element children of `node`, in order.
    static func elements(in node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    /// The element's local name.
    static func name(of node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The element's line.
    static func position(of node: xmlNodePtr) -> PropertyListError.Position {
        .line(Int(xmlGetLineNo(node)), column: 0)
    }
}

/// Keeps the first error libxml2 reports while one document is parsed.
private final class FirstXMLError {
    private(set) var error: PropertyListError?

    /// The parser context's structured error handler: libxml2 passes the context, whose
    /// `_private` points at the collector for the duration of one parse.
    static let handler: xmlStructuredErrorFunc = { context, report in
        guard let context, let report, report.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        guard let collector = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
        let first = Unmanaged<FirstXMLError>.fromOpaque(collector).takeUnretainedValue()
        guard first.error == nil else { return }
        var message = report.pointee.message.map { String(cString: $0) } ?? "XML error \(report.pointee.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        first.error = PropertyListError(
            .invalidXML(message), at: .line(Int(report.pointee.line), column: Int(report.pointee.int2)))
    }
}
