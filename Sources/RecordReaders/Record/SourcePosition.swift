// SourcePosition: where a record or a value came from in its source file.
// Lines and columns are 1-based; columns count UTF-8 bytes from the start of the line
// (libxml2's columns for XML); byte offsets are 0-based from the start of the file.

/// The place in a source file where a record, a value or an error starts.
///
/// ```swift
/// while let record = try reader.next() {
///     print(record.position)   // items.json:12:5 (byte 301, record 3, items[2])
/// }
/// ```
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the reader (or the name of an in-memory input).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int
    /// 0-based byte offset from the start of the file.
    public var byteOffset: Int
    /// 1-based number of the record in its file.
    public var recordNumber: Int
    /// The JSON path (`items[41].location`) or XML element path (`/catalog/item[42]`);
    /// empty for CSV and for NDJSON records.
    public var path: String

    /// Creates a position.
    public init(
        file: String, line: Int, column: Int, byteOffset: Int, recordNumber: Int, path: String = ""
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordNumber = recordNumber
        self.path = path
    }

    /// `file:line:column (byte B, record R[, path])`.
    public var description: String {
        let pathPart = path.isEmpty ? "" : ", \(path)"
        return "\(file):\(line):\(column) (byte \(byteOffset), record \(recordNumber)\(pathPart))"
    }
}

/// Where a record or value starts, in numbers only: what a ``SourcePosition`` holds but the file
/// name and the path, so that programs keeping many positions (an import's staged references)
/// need neither a string nor the path built for each.
///
/// ```swift
/// let place = value.place                      // line, column, byte offset, record number
/// let position = place.position(in: "items.csv")
/// ```
public struct SourcePlace: Sendable, Hashable {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int
    /// 0-based byte offset from the start of the file.
    public var byteOffset: Int
    /// 1-based number of the record in its file.
    public var recordNumber: Int

    /// A place.
    public init(line: Int, column: Int, byteOffset: Int, recordNumber: Int) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordNumber = recordNumber
    }

    /// The place as a position in `file` (without a path).
    public func position(in file: String) -> SourcePosition {
        SourcePosition(file: file, line: line, column: column, byteOffset: byteOffset, recordNumber: recordNumber)
    }
}
