// XMLSAXHandler: the libxml2 SAX2 callbacks, forwarding to the XMLRecordAssembler whose address
// (XMLParserSession.assemblerAddress) is the parser's user data. Only the events records need are set: elements,
// character data, CDATA, errors, and entity declarations (to refuse them). No DTD, external
// subset or entity resolver callback is set, so nothing outside the document is ever loaded.

internal import CLibXML2

/// Builds the SAX2 handler table for XMLReader.
enum XMLSAXHandler {
    /// A handler whose callbacks forward to the assembler whose address is the user data.
    static func make() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, namespaceURI, _, _, attributeCount, _, attributes in
            guard let target = assembler(context), let localName else { return }
            target.pointee.startElement(
                localName: localName, namespaceURI: namespaceURI, attributes: attributes,
                attributeCount: Int(attributeCount))
        }
        handler.endElementNs = { context, _, _, _ in
            assembler(context)?.pointee.endElement()
        }
        handler.characters = { context, bytes, count in
            guard let bytes else { return }
            assembler(context)?.pointee.characters(bytes, count: Int(count))
        }
        handler.cdataBlock = handler.characters
        handler.ignorableWhitespace = handler.characters
        handler.entityDecl = { context, name, _, _, _, _ in
            assembler(context)?.pointee.entityDeclaration(name: name)
        }
        handler.serror = { context, report in
            guard let report else { return }
            assembler(context)?.pointee.libxml2Error(report.pointee)
        }
        return handler
    }
}

/// The assembler behind a callback's user data.
@inline(__always)
private func assembler(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<XMLRecordAssembler>? {
    context?.assumingMemoryBound(to: XMLRecordAssembler.self)
}
