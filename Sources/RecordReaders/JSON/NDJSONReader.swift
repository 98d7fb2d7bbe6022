// NDJSONReader: newline-delimited JSON, one record per line.
// Each non-blank line holds exactly one JSON value (any kind) and nothing else but spaces,
// tabs or a CR before its LF. A line feed inside a value is an error on that line.

/// Reads NDJSON (JSON Lines) records.
///
/// ```swift
/// var reader = try NDJSONReader(.file("items.ndjson"))
/// while let record = try reader.next() { print(record.position.line) }
/// ```
public struct NDJSONReader: RecordReader {
    private var parser: JSONParser
    private var isFinished = false
    private var started = false
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Bytes of the input consumed so far (compressed bytes for gzip input).
    public var bytesConsumed: Int { parser.input.bytesConsumed }
    /// The input's name.
    public var fileName: String { parser.input.name }

    /// Opens `source`.
    public init(_ source: InputSource, options: ReaderOptions = ReaderOptions()) throws(RecordReaderError) {
        parser = try JSONParser(source, options: options)
    }

    /// The record on the next non-blank line, or `nil` at the end of the input.
    public mutating func next() throws(RecordReaderError) -> SourceRecord? {
        guard !isFinished else { return nil }
        parser.builder.prepareForWriting()
        do {
            return try readLine()
        } catch {
            isFinished = true
            throw error
        }
    }

    private mutating func readLine() throws(RecordReaderError) -> SourceRecord? {
        if !started {
            started = true
            try parser.skipByteOrderMark()
        }
        parser.recordNumber = recordsRead + 1
        parser.stopsAtNewline = false
        guard try parser.skipWhitespace() != nil else {
            isFinished = true
            return nil
        }
        parser.stopsAtNewline = true
        try parser.parseValue(store: true, depth: 0)
        switch try parser.skipWhitespace() {
        case nil:
            break
        case UInt8(ascii: "\n"):
            parser.input.position += 1
            parser.lines.newLine(at: parser.input.offset)
        case let byte:
            throw parser.unexpected(byte, expected: "the end of the line")
        }
        recordsRead += 1
        let context = RecordContext(file: parser.input.name, recordNumber: recordsRead)
        return SourceRecord(storage: parser.builder.finish(context: context))
    }
}
