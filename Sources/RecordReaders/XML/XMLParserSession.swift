// XMLParserSession: owns one libxml2 push parser and the record assembler its callbacks feed.
// The assembler is a struct held in one stored property, so each SAX callback costs one
// exclusivity check rather than one per field touched. The parser is freed with the session.

internal import CLibXML2

/// A libxml2 push parser and its record assembler.
final class XMLParserSession {
    /// The state the SAX callbacks update.
    var assembler: XMLRecordAssembler

    init(assembler: XMLRecordAssembler) {
        self.assembler = assembler
    }

    deinit {
        if let parser = assembler.parser { xmlFreeParserCtxt(parser) }
    }
}
