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
    /// The next record, or `nil` after the last one. After an error the reader is done, unless
    /// the error is recoverable (`error.brokenRecord`, a broken CSV row it skipped): then the
    /// next call reads on from the record after it.
    mutating func next() throws(RecordReaderError) -> SourceRecord?
    /// Bytes of the input consumed so far, for progress against the file's size: for gzip
    /// input, compressed bytes (positions count decompressed bytes).
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

extension RecordReader {
    /// The next record, or the error of a broken record the reader skipped (see
    /// `RecordReaderError.brokenRecord`); `nil` after the last one. Throws only the errors
    /// after which the reader cannot go on.
    ///
    /// ```swift
    /// while let result = try reader.nextResult() {
    ///     switch result {
    ///     case .success(let record): use(record)
    ///     case .failure(let broken): reject(broken.brokenRecord?.text ?? "", because: broken.reason)
    ///     }
    /// }
    /// ```
    public mutating func nextResult() throws(RecordReaderError) -> Result<SourceRecord, RecordReaderError>? {
        do {
            return try next().map { .success($0) }
        } catch  where error.isRecoverable {
            return .failure(error)
        }
    }
}
