// What a source's records hold, read before a run writes anything, so that mapping compilation
// checks every top-level field against it. A tabular (CSV/TSV) source's header decides: a field
// convention mapping finds no column for is left unmapped, a field the plan names that has no
// column is a plan error — never a failure once rows are being written. A JSON or XML source's
// first record only informs: any field may occur in any record, so what the first record lacks
// stays mapped and is noted (the `--dry-run` report lists it).
import RecordReaders

/// Which top-level fields a source's records have.
struct SourceHeader {
    /// Where the field names come from, and so what a missing field means.
    enum Kind {
        /// A CSV/TSV header: every record has exactly these columns.
        case columns
        /// The first record of a JSON or XML source: later records may have other fields.
        case firstRecord
    }

    /// Whether the names decide what is mapped (`.columns`) or only inform (`.firstRecord`).
    let kind: Kind
    /// The source's file, for messages.
    let file: String
    /// The header's column names, or the first record's field names, for messages.
    let names: [String]
    /// Whether a field path names a column (a header name, or `#n` within the row), or a value
    /// of the first record.
    let has: (FieldPath) -> Bool

    /// Why `field` (one field, or several tried in turn, comma-separated) is not in the header.
    func missingReason(_ field: String) -> String {
        let listed = names.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 12 ? ", …" : "")
        switch kind {
        case .columns:
            return "no column named \(field) in the header of \(file) (its columns: \(listed))"
        case .firstRecord:
            return "no field \(field) in the first record of \(file) (its fields: \(listed))"
        }
    }

    /// The header of the source `reader` reads: a CSV/TSV file's columns, or the fields of the
    /// first record of any other format; nil when there is no record to look at.
    init?(reading reader: any RecordReader, format: RecordFormat?) {
        file = reader.fileName
        if format?.isTabular == true {
            kind = .columns
            names = (reader as? CSVReader)?.columnNames ?? []
            has = { path in (try? reader.resolve(path)) != nil }
            return
        }
        var records = reader
        guard let first = try? records.next() else { return nil }
        kind = .firstRecord
        names = first.fields.compactMap(\.name)
        has = { path in first.value(at: path) != nil }
    }
}
