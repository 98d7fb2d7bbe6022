// A bad record: where it is (file, line:column, byte offset, record number, field) and why.
// Invariant: every error the importer reports about input data is one of these, so the CLI,
// the report and the rejects file all show the same position and reason.
import RecordReaders

/// A record that could not be imported, with its exact source position.
///
/// ```swift
/// // items.csv:14:23 (byte 1022, record 13) field price: "12x" is not a number
/// ```
public struct RecordError: Error, Sendable, Hashable, CustomStringConvertible, Encodable {
    /// The source file.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int
    /// The byte offset in the file.
    public var byteOffset: Int
    /// The 1-based record number in the file.
    public var record: Int
    /// The field (path) involved, if any.
    public var field: String?
    /// The offending value, shortened, if any.
    public var value: String?
    /// Why the record was refused.
    public var message: String
    /// The record's text as it is in the file, for a broken record the reader skipped.
    public var raw: String?

    /// An error at `position` about `field`.
    public init(position: SourcePosition, field: String? = nil, value: String? = nil, message: String) {
        file = position.file
        line = position.line
        column = position.column
        byteOffset = position.byteOffset
        record = position.recordNumber
        self.field = field
        self.value = value.map(Self.shorten)
        self.message = message
    }

    /// An error reading a file, at the reader's position: about the whole file, or about a
    /// broken record the reader skipped (with its text).
    public init(_ error: RecordReaderError) {
        file = error.file
        line = error.line
        column = error.column
        byteOffset = error.byteOffset
        record = error.recordNumber
        field = nil
        value = nil
        message = error.reason
        raw = error.brokenRecord?.text
    }

    /// `file:line:column (byte B, record R) field F: message`, or `file: message` for an error
    /// about the whole file (no line).
    public var description: String {
        var text = line > 0 ? "\(file):\(line):\(column) (byte \(byteOffset), record \(record))" : file
        if let field { text += " field \(field)" }
        return text + ": " + message
    }

    private static func shorten(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }
}
