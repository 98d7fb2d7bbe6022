// RecordReaderError: the one error type of the record readers.
// Every error carries the file and the position of the first offending byte (or the start of
// the construct it concerns, as each reason documents), and the number of the record being read.

/// An error reading records: malformed input, an exceeded limit, a refused construct, or I/O.
///
/// Its `description` is one line: `items.csv:3:17 (byte 120, record 2): quote in unquoted field`.
/// ```swift
/// do { while let _ = try reader.next() {} }
/// catch let error as RecordReaderError { print(error.line, error.column, error.reason) }
/// ```
public struct RecordReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of an error.
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be opened or read.
        case io
        /// The input is not well-formed in its format (CSV, JSON, NDJSON, XML).
        case syntax
        /// The input is not valid UTF-8 (or, for XML, not valid in its declared encoding).
        case encoding
        /// The input is well-formed but does not have the expected shape (field counts, record path).
        case structure
        /// A configured limit (field size, record size, nesting depth) was exceeded.
        case limit
        /// A construct refused for security (XML entity declarations).
        case security
        /// The reader was configured wrongly (options, paths, unknown columns).
        case configuration
    }

    /// The class of the error.
    public var kind: Kind
    /// What is wrong, in a few words: `quote in unquoted field`.
    public var reason: String
    /// The file name as given to the reader.
    public var file: String
    /// 1-based line, or 0 when the error has no position (I/O, configuration).
    public var line: Int
    /// 1-based column in UTF-8 bytes, or 0 when unknown.
    public var column: Int
    /// 0-based byte offset in the file.
    public var byteOffset: Int
    /// The 1-based number of the record being read when the error was found.
    public var recordNumber: Int

    /// Creates an error.
    public init(
        _ kind: Kind, _ reason: String, file: String, line: Int = 0, column: Int = 0,
        byteOffset: Int = 0, recordNumber: Int = 0
    ) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordNumber = recordNumber
    }

    /// `file:line:column (byte B, record R): reason`, or `file: reason` without a position.
    public var description: String {
        guard line > 0 else { return "\(file): \(reason)" }
        return "\(file):\(line):\(column) (byte \(byteOffset), record \(recordNumber)): \(reason)"
    }
}
