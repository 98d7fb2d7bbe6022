// RecordReaderFactory: opens the right reader for a format and options.

/// Opens readers by format.
///
/// ```swift
/// var reader = try RecordReaderFactory.open(.file("catalog.xml"),
///                                          options: ReaderOptions(records: "catalog/item"))
/// while let record = try reader.next() { … }
/// ```
public enum RecordReaderFactory {
    /// Opens a reader for `source`. `format` defaults to the one the file name's extension
    /// names; TSV uses a tab delimiter unless `options.csv` says otherwise. JSON, NDJSON and
    /// XML are read ahead on a thread of their own unless `options.readAhead` is `false`.
    /// Throws `.configuration` when no format is given or inferable, `.io` when the file
    /// cannot be opened, and any error from reading a CSV header.
    public static func open(
        _ source: InputSource, format: RecordFormat? = nil, options: ReaderOptions = ReaderOptions()
    ) throws(RecordReaderError) -> any RecordReader {
        guard let format = format ?? RecordFormat(path: source.name) else {
            throw RecordReaderError(
                .configuration, "unknown format: name one of csv, tsv, json, ndjson, xml",
                file: source.name)
        }
        switch format {
        case .csv:
            return try CSVReader(source, options: options)
        case .tsv:
            var options = options
            if options.csv == nil { options.csv = .tsv }
            return try CSVReader(source, options: options)
        case .json:
            return readingAhead(try JSONReader(source, options: options), options)
        case .ndjson:
            return readingAhead(try NDJSONReader(source, options: options), options)
        case .xml:
            return readingAhead(try XMLReader(source, options: options), options)
        }
    }

    /// Whether one reader of `format` can select records by every one of `paths` in one pass
    /// (`ReaderOptions.records` and `additionalRecords`): JSON or XML record paths that parse,
    /// at most 64, no two of which select the same value or one inside the other
    /// (`items[*]` and `lists[*]` can; `items[*]` and `items[0]` cannot).
    public static func canSelectTogether(_ paths: [String?], format: RecordFormat) -> Bool {
        guard paths.count <= RecordPathSet.capacity else { return false }
        switch format {
        case .json:
            guard let parsed = try? paths.map({ path throws(PathSyntaxError) in try JSONRecordPath(path) }) else {
                return false
            }
            return parsed.arePairwiseDisjoint { $0.isDisjoint(from: $1) }
        case .xml:
            guard let parsed = try? paths.map({ path throws(PathSyntaxError) in try XMLRecordPath(path) }) else {
                return false
            }
            return parsed.arePairwiseDisjoint { $0.isDisjoint(from: $1) }
        case .csv, .tsv, .ndjson:
            return paths.count <= 1
        }
    }

    /// `reader`, on a thread of its own when `options.readAhead` says so.
    private static func readingAhead<Reader: RecordReader>(_ reader: Reader, _ options: ReaderOptions)
        -> any RecordReader
    {
        options.readAhead ? ReadAheadReader(reader) : reader
    }
}
