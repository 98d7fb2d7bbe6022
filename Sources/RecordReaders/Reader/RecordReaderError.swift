// RecordReaderError: the one error type of the record readers.
// Every error carries the file and the position of the first offending byte (or the start of
// the construct it concerns, as each reason documents), and the number of the record being read.
// An error about one broken record that the reader skipped (a CSV row with the wrong field
// count, bad UTF-8 or unpaired quotes) carries that record: reading can go on after it.

/// An error reading records: malformed input, an exceeded limit, a refused construct, or I/O.
///
/// Its `description` is one line: `items.csv:3:17 (byte 120, record 2): too many fields: 4, expected 3`.
/// When `brokenRecord` is set, the reader skipped that record and `next()` goes on with the
/// next one; otherwise the reader is done.
/// ```swift
/// while true {
///     do throws(RecordReaderError) {
///         guard let record = try reader.next() else { break }
///         use(record)
///     } catch where error.isRecoverable {
///         print("skipped:", error, error.brokenRecord?.text ?? "")
///     }
/// }
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
        /// The compressed input (gzip) is corrupt or truncated; the byte offset is in the
        /// compressed file.
        case compression
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
    /// The record this error broke, which the reader skipped: reading goes on after it.
    /// `nil` when the reader cannot go on (it returns `nil` from then on).
    public var brokenRecord: BrokenRecord?

    /// Whether the reader skipped the broken record and can read on.
    public var isRecoverable: Bool { brokenRecord != nil }

    /// Creates an error.
    public init(
        _ kind: Kind, _ reason: String, file: String, line: Int = 0, column: Int = 0,
        byteOffset: Int = 0, recordNumber: Int = 0, brokenRecord: BrokenRecord? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordNumber = recordNumber
        self.brokenRecord = brokenRecord
    }

    /// `file:line:column (byte B, record R): reason`, or `file: reason` without a position.
    public var description: String {
        guard line > 0 else { return "\(file): \(reason)" }
        return "\(file):\(line):\(column) (byte \(byteOffset), record \(recordNumber)): \(reason)"
    }
}

/// A record a reader could not read and skipped: where it starts and its bytes as in the file.
///
/// ```swift
/// // items.csv:7:1 (byte 212, record 6): 5,"12 pizza,3.50
/// print(broken.position, broken.text)
/// ```
public struct BrokenRecord: Sendable, Hashable {
    /// Where the record starts (its first byte), with its record number.
    public var position: SourcePosition
    /// The record's bytes as they are in the file, without its line end.
    public var bytes: [UInt8]

    /// Creates a broken record.
    public init(position: SourcePosition, bytes: [UInt8]) {
        self.position = position
        self.bytes = bytes
    }

    /// The bytes as text, ill-formed UTF-8 replaced by U+FFFD.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
