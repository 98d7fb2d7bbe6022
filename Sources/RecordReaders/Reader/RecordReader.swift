// RecordReader: the pull interface every format's reader implements.

/// A streaming reader that hands out one record at a time.
///
/// ```swift
/// var reader = try RecordReaderFactory.open(.file("items.csv"))
/// let sku = try reader.resolve(FieldPath(parsing: "sku"))   // a column index, for CSV
/// while let record = try reader.next() {
///     record[sku]?.withUTF8 { bytes in /* parse */ }
///     progress(reader.bytesConsumed)
/// }
/// ```
public protocol RecordReader {
    /// The next record, or `nil` after the last one. After an error, the reader is done.
    mutating func next() throws(RecordReaderError) -> SourceRecord?
    /// Bytes of the input consumed so far (for progress).
    var bytesConsumed: Int { get }
    /// Records returned so far.
    var recordsRead: Int { get }
    /// The input's name, as used in positions and errors.
    var fileName: String { get }
    /// `path` prepared for this reader's records: for CSV, a header name becomes its column
    /// index (so lookups compare no strings); other formats return it unchanged. Throws a
    /// `.configuration` error for a CSV column the header does not have.
    func resolve(_ path: FieldPath) throws(RecordReaderError) -> FieldPath
}

extension RecordReader {
    /// Returns `path` unchanged.
    public func resolve(_ path: FieldPath) throws(RecordReaderError) -> FieldPath { path }
}
