// ReaderOptions: how a reader parses — record path, CSV dialect, limits and chunk size.
// Defaults are safe for untrusted input and fast for large files.

/// Size and depth limits; exceeding one is a `.limit` error at the offending value.
public struct ReaderLimits: Sendable, Hashable {
    /// The largest field (CSV field, JSON string or number, XML text or attribute), in bytes.
    public var maxFieldSize: Int
    /// The largest record (all its names and values), in bytes.
    public var maxRecordSize: Int
    /// The most values (fields, members, elements, attributes) in one record, not counting
    /// the record itself: a CSV row of 3 fields, `{"a": 1, "b": 2, "c": 3}` and
    /// `<item a="1"><b/><c/></item>` each hold 3.
    public var maxValuesPerRecord: Int
    /// The deepest nesting of JSON containers or XML elements, counted from the document root.
    public var maxDepth: Int

    /// Creates limits; the defaults are 16 MiB per field, 64 MiB and 1,000,000 values per
    /// record, and depth 256.
    public init(
        maxFieldSize: Int = 16 << 20, maxRecordSize: Int = 64 << 20,
        maxValuesPerRecord: Int = 1_000_000, maxDepth: Int = 256
    ) {
        self.maxFieldSize = maxFieldSize
        self.maxRecordSize = min(maxRecordSize, Int(Int32.max) - 1)
        self.maxValuesPerRecord = min(maxValuesPerRecord, Int(Int32.max) - 1)
        self.maxDepth = maxDepth
    }
}

/// The CSV (and TSV) dialect.
public struct CSVOptions: Sendable, Hashable {
    /// The field delimiter, an ASCII byte other than the quote, CR and LF.
    public var delimiter: UInt8
    /// The quote byte, or `nil` for no quoting (every byte but delimiters and line ends is data).
    public var quote: UInt8?
    /// Whether the first row names the columns (otherwise columns are `#1`, `#2`, …).
    public var hasHeader: Bool
    /// Whether rows may have more or fewer fields than the header (or the first row).
    public var allowRagged: Bool
    /// Whether a quote inside an unquoted field (`12" pizza`) is an error, as RFC 4180 has it;
    /// by default it is a literal character, as in Python's csv module and spreadsheets.
    public var strict: Bool

    /// Creates a dialect; the defaults are RFC 4180's `,` and `"`, with a header row, and
    /// quotes inside unquoted fields taken literally.
    public init(
        delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8? = UInt8(ascii: "\""),
        hasHeader: Bool = true, allowRagged: Bool = false, strict: Bool = false
    ) {
        self.delimiter = delimiter
        self.quote = quote
        self.hasHeader = hasHeader
        self.allowRagged = allowRagged
        self.strict = strict
    }

    /// Tab-delimited, quoted with `"`, with a header row.
    public static let tsv = CSVOptions(delimiter: UInt8(ascii: "\t"))
}

/// Options for opening a reader.
///
/// ```swift
/// let options = ReaderOptions(records: "data.rows[*]", limits: ReaderLimits(maxDepth: 64))
/// ```
public struct ReaderOptions: Sendable, Hashable {
    /// The record path: JSON `items[*]` (default: the root array's elements, or the root
    /// value as one record); XML `catalog/item` (default: the root element's children).
    /// Ignored for CSV, TSV and NDJSON.
    public var records: String?
    /// More record paths for the same pass (JSON and XML): a record selected by
    /// `additionalRecords[k]` has ``SourceRecord/selection`` `k + 1` (`records` gives 0), and
    /// record numbers count each path's records apart. The paths must be pairwise disjoint
    /// (see ``RecordReaderFactory/canSelectTogether(_:format:)``). Ignored for CSV, TSV and NDJSON.
    public var additionalRecords: [String?] = []
    /// The CSV dialect; `nil` uses the format's default (`,` for CSV, tab for TSV).
    public var csv: CSVOptions?
    /// Size and depth limits.
    public var limits: ReaderLimits
    /// How many bytes are read from the file at a time (default 256 KiB).
    public var chunkSize: Int
    /// Whether `RecordReaderFactory` parses JSON, NDJSON and XML on a thread of its own, ahead
    /// of the caller (`ReadAheadReader`), so that parsing overlaps with what the caller does
    /// with each record (default `true`). CSV is always read on the caller's thread.
    public var readAhead: Bool

    /// Creates options.
    public init(
        records: String? = nil, csv: CSVOptions? = nil, limits: ReaderLimits = ReaderLimits(),
        chunkSize: Int = 256 * 1024, readAhead: Bool = true
    ) {
        self.records = records
        self.csv = csv
        self.limits = limits
        self.chunkSize = max(chunkSize, 1)
        self.readAhead = readAhead
    }
}
