// CSVReader: RFC 4180 CSV and TSV records, streamed from a chunked input.
//
// Each row becomes one record: a `.row` node followed by one `.field` leaf per column whose
// value is a range of the record's byte buffer (a row inside the input window is read in one
// pass by CSVWindowRow, any other by CSVRowScanner; both give the same record). The header
// (when present) is read when the reader opens, so `resolve` can turn column names into
// indexes before the first record. A broken row (wrong field count, bad UTF-8, unpaired
// quotes) is thrown as a recoverable error carrying the row, and `next()` reads on after it.
// Invariants: a returned row has exactly the header's (or the first row's) field count
// unless ragged rows are allowed; every field is valid UTF-8; blank lines are skipped; line
// numbers count CRLF, LF and lone CR line ends, also inside quoted fields; record numbers
// count broken rows too.

/// Reads CSV or TSV rows as records.
///
/// ```swift
/// var reader = try CSVReader(.file("items.csv"), options: ReaderOptions(csv: CSVOptions()))
/// let price = try reader.resolve(FieldPath(parsing: "price"))
/// while let row = try reader.next() { print(row[price]?.string ?? "") }
/// ```
public struct CSVReader: RecordReader {
    var input: ByteInput
    var builder = RecordBuilder()
    var lines = LineTracker()
    let dialect: CSVOptions
    let limits: ReaderLimits
    /// The field count every row must have (header's, or the first row's).
    var expectedFieldCount: Int?
    /// The context of the next record: file, record number and header.
    var context: RecordContext
    var isFinished = false
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Rows read so far, broken ones included (record numbers count them).
    private var rowsRead = 0
    /// The quoted field being scanned, while it is open (and after an error inside it).
    var openQuotedField: OpenQuotedField?
    /// The first quote inside an unquoted field of the row being scanned, under `strict`.
    var strictQuoteError: RecordReaderError?

    /// The header's column names (empty without a header).
    public var columnNames: [String] { context.columns?.names ?? [] }
    /// Bytes of the input consumed so far (compressed bytes for gzip input).
    public var bytesConsumed: Int { input.bytesConsumed }
    /// The input's name.
    public var fileName: String { input.name }

    /// Opens `source` with the dialect `options.csv` (default RFC 4180 CSV) and reads the
    /// header row when the dialect has one.
    public init(_ source: InputSource, options: ReaderOptions = ReaderOptions()) throws(RecordReaderError) {
        let dialect = options.csv ?? CSVOptions()
        try CSVReader.validate(dialect, file: source.name)
        input = try ByteInput(source, chunkSize: options.chunkSize)
        self.dialect = dialect
        limits = options.limits
        context = RecordContext(file: source.name, recordNumber: 0)
        try skipByteOrderMark()
        if dialect.hasHeader { try readHeader() }
    }

    private static func validate(_ options: CSVOptions, file: String) throws(RecordReaderError) {
        let forbidden: Set<UInt8> = [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        guard options.delimiter < 0x80, !forbidden.contains(options.delimiter) else {
            throw RecordReaderError(.configuration, "the delimiter must be ASCII, not CR or LF", file: file)
        }
        if let quote = options.quote {
            guard quote < 0x80, !forbidden.contains(quote), quote != options.delimiter else {
                throw RecordReaderError(
                    .configuration, "the quote must be ASCII, not CR, LF or the delimiter", file: file)
            }
        }
    }

    private mutating func skipByteOrderMark() throws(RecordReaderError) {
        guard try input.ensure(3) else { return }
        let base = input.base + input.position
        if base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
            input.position += 3
            lines.lineStart = 3
        }
    }

    private mutating func readHeader() throws(RecordReaderError) {
        builder.prepareForWriting()
        let found: Bool
        do {
            found = try readRow(recordNumber: 0)
        } catch {
            var error = error
            error.brokenRecord = nil  // no reading without the header
            throw error
        }
        guard found else {
            context.columns = CSVColumns(names: [])
            return
        }
        let storage = builder.finish(context: context)
        let names = SourceRecord(storage: storage).fields.map(\.string)
        context.columns = CSVColumns(names: names)
        expectedFieldCount = names.count
    }

    /// The next row, or `nil` at the end of the input. A broken row is thrown as an error
    /// whose `brokenRecord` is that row; the next call reads on after it.
    public mutating func next() throws(RecordReaderError) -> SourceRecord? {
        guard !isFinished else { return nil }
        builder.prepareForWriting()
        context.recordNumber = rowsRead + 1
        if let storage = readRowInWindow() {
            recordsRead += 1
            rowsRead += 1
            return SourceRecord(storage: storage)
        }
        do {
            guard try readRow(recordNumber: context.recordNumber) else {
                isFinished = true
                return nil
            }
        } catch {
            builder.reset()
            if error.isRecoverable {
                rowsRead += 1
            } else {
                isFinished = true
            }
            throw error
        }
        recordsRead += 1
        rowsRead += 1
        return SourceRecord(storage: builder.finish(context: context))
    }

    /// A quoted field being scanned: where its opening quote is, and its first line break.
    struct OpenQuotedField {
        let line: Int
        let column: Int
        let offset: Int
        /// The offset of the first line break (CR or LF) inside the quotes, if any.
        var lineBreak: Int?
    }

    /// Resolves a header name (the whole path text) to its column index.
    public func resolve(_ path: FieldPath) throws(RecordReaderError) -> FieldPath {
        if path.columnIndex != nil { return path }
        guard let columns = context.columns, !columns.names.isEmpty else {
            throw RecordReaderError(
                .configuration, "no header row: name columns as #1, #2, … (not \"\(path.text)\")",
                file: input.name)
        }
        // A quoted name (`"price [EUR]"`) is one step holding the bare name; other paths are
        // header names as written (`unit.price` names the column "unit.price").
        var name = path.text
        if path.steps.count == 1, case .child(let bytes) = path.steps[0] {
            name = String(decoding: bytes, as: UTF8.self)
        }
        guard let index = columns.index(of: name) else {
            throw RecordReaderError(
                .configuration,
                "no column named \"\(name)\" in the header (its columns: "
                    + columns.names.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
                    + (columns.names.count > 12 ? ", …)" : ")"),
                file: input.name, line: 1, column: 1)
        }
        return FieldPath(text: path.text, steps: [.column(index)])
    }
}
