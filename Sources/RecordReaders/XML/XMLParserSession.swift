// XMLParserSession: owns one libxml2 push parser and the record assembler its callbacks feed.
// The assembler lives in memory the session allocates, and libxml2's user data is its address:
// a SAX callback reaches it through that pointer, with neither reference counting nor a
// dynamic exclusivity check per event (a class's stored property would cost both). Every
// access, from the reader or from a callback, happens on the thread that calls the reader,
// and callbacks run only inside `xmlParseChunk`, while the reader does not touch the assembler.
// The parser and the assembler are freed with the session.

internal import CLibXML2

/// A libxml2 push parser and its record assembler.
final class XMLParserSession {
    /// The assembler's memory; its address is the parser's user data.
    let assemblerAddress: UnsafeMutablePointer<XMLRecordAssembler>

    /// The state the SAX callbacks update.
    var assembler: XMLRecordAssembler {
        unsafeAddress { UnsafePointer(assemblerAddress) }
        unsafeMutableAddress { assemblerAddress }
    }

    init(assembler: XMLRecordAssembler) {
        assemblerAddress = .allocate(capacity: 1)
        assemblerAddress.initialize(to: assembler)
    }

    deinit {
        if let parser = assemblerAddress.pointee.parser { xmlFreeParserCtxt(parser) }
        assemblerAddress.deinitialize(count: 1)
        assemblerAddress.deallocate()
    }
}
