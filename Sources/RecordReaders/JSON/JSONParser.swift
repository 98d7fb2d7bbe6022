// JSONParser: the strict RFC 8259 pull parser shared by JSONReader and NDJSONReader.
//
// It reads from a chunked ByteInput and never holds more of the document than the value it
// is building: values outside records are parsed to validate them and then discarded.
// Scalars are appended to the record builder's bytes (strings unescaped, numbers and
// literals as written); in skip mode the bytes are truncated again right away.
// Invariants: nesting is tracked on an explicit stack (no recursion) and bounded by
// `limits.maxDepth`; lines advance only on LF in whitespace (raw newlines cannot occur
// elsewhere in valid JSON); when `stopsAtNewline` is set (NDJSON), whitespace skipping
// returns an LF instead of consuming it.

/// A strict, iterative JSON parser over chunked input.
struct JSONParser {
    var input: ByteInput
    var lines = LineTracker()
    var builder = RecordBuilder()
    let limits: ReaderLimits
    /// NDJSON: a line feed is significant (it ends a record) rather than whitespace.
    var stopsAtNewline = false
    /// The 1-based number of the record being read, for errors.
    var recordNumber = 1
    /// Open containers of the value being parsed (reused between values).
    var frames: [Frame] = []

    /// An open object or array of the value being parsed.
    struct Frame {
        /// The container's node (store mode), or -1.
        var node: Int32
        var isObject: Bool
    }

    init(_ source: InputSource, options: ReaderOptions) throws(RecordReaderError) {
        input = try ByteInput(source, chunkSize: options.chunkSize)
        limits = options.limits
    }

    /// Skips a UTF-8 byte order mark at the start of the input.
    mutating func skipByteOrderMark() throws(RecordReaderError) {
        guard try input.ensure(3) else { return }
        let start = input.base + input.position
        if start[0] == 0xEF, start[1] == 0xBB, start[2] == 0xBF {
            input.position += 3
            lines.lineStart = 3
        }
    }

    /// Skips whitespace and returns the next byte without consuming it; `nil` at the end.
    @inline(__always)
    mutating func skipWhitespace() throws(RecordReaderError) -> UInt8? {
        while true {
            let base = input.base
            let limit = input.limit
            var cursor = input.position
            while cursor < limit {
                let byte = base[cursor]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    cursor &+= 1
                } else if byte == 0x0A {
                    if stopsAtNewline {
                        input.position = cursor
                        return byte
                    }
                    cursor &+= 1
                    lines.newLine(at: input.offset(of: cursor))
                } else {
                    input.position = cursor
                    return byte
                }
            }
            input.position = cursor
            if !(try input.refill()) { return nil }
        }
    }

    /// The current position as a node position template.
    @inline(__always)
    func node(_ kind: NodeKind, name: (start: Int32, count: Int32)) -> Node {
        let offset = input.offset
        return Node(
            kind: kind, nameStart: name.start, nameCount: name.count,
            line: Int32(truncatingIfNeeded: lines.line),
            column: Int32(truncatingIfNeeded: lines.column(of: offset)), offset: offset)
    }

    /// An error at `offset` on the current line.
    func error(_ kind: RecordReaderError.Kind, _ reason: String, at offset: Int) -> RecordReaderError {
        RecordReaderError(
            kind, reason, file: input.name, line: lines.line, column: lines.column(of: offset),
            byteOffset: offset, recordNumber: recordNumber)
    }

    /// An error at the start of `node`.
    func error(_ kind: RecordReaderError.Kind, _ reason: String, at node: Node) -> RecordReaderError {
        RecordReaderError(
            kind, reason, file: input.name, line: Int(node.line), column: Int(node.column),
            byteOffset: node.offset, recordNumber: recordNumber)
    }

    /// An error at the current position.
    func errorHere(_ kind: RecordReaderError.Kind, _ reason: String) -> RecordReaderError {
        error(kind, reason, at: input.offset)
    }

    /// The error for a byte that cannot start or continue what was expected.
    func unexpected(_ byte: UInt8?, expected: String) -> RecordReaderError {
        guard let byte else { return errorHere(.syntax, "unexpected end of input, expected \(expected)") }
        if byte == 0x0A, stopsAtNewline {
            return errorHere(.syntax, "line ends inside the record, expected \(expected)")
        }
        let shown =
            byte >= 0x20 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return errorHere(.syntax, "unexpected \(shown), expected \(expected)")
    }

    /// Fails when the record's bytes exceed the record size limit.
    @inline(__always)
    func checkRecordSize(start: Node) throws(RecordReaderError) {
        if builder.byteCount > limits.maxRecordSize {
            throw error(.limit, "record longer than \(limits.maxRecordSize) bytes", at: start)
        }
    }
}
