// The header of a tabular (CSV/TSV) source, read before a run writes anything, so that mapping
// compilation checks every top-level field against it: a field convention mapping finds no
// column for is left unmapped, a field the plan names that has no column is a plan error —
// never a failure once rows are being written.
import RecordReaders

/// Which top-level fields a tabular source's records have.
struct SourceHeader {
    /// The source's file, for messages.
    let file: String
    /// The header's column names, for messages.
    let names: [String]
    /// Whether a field path names a column (a header name, or `#n` within the row).
    let has: (FieldPath) -> Bool

    /// Why `field` (one field, or several tried in turn, comma-separated) is not in the header.
    func missingReason(_ field: String) -> String {
        let columns = names.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 12 ? ", …" : "")
        return "no column named \(field) in the header of \(file) (its columns: \(columns))"
    }

    /// The header of the source `reader` reads, or nil when its records are not rows of named
    /// columns (JSON, XML: any field may occur in any record).
    init?(reading reader: any RecordReader, format: RecordFormat?) {
        guard format == .csv || format == .tsv else { return nil }
        file = reader.fileName
        names = (reader as? CSVReader)?.columnNames ?? []
        has = { path in (try? reader.resolve(path)) != nil }
    }
}
