// RecordFormat: the source formats the readers understand, and how a file's extension maps to one.

/// A source file format.
public enum RecordFormat: String, Sendable, Hashable, CaseIterable {
    /// Comma-separated values (RFC 4180).
    case csv
    /// Tab-separated values (CSV rules with a tab delimiter).
    case tsv
    /// A JSON document; records selected by a path (`items[*]`).
    case json
    /// Newline-delimited JSON: one value per line.
    case ndjson
    /// An XML document; records selected by an element path (`catalog/item`).
    case xml

    /// Whether records are rows of columns named by a header (CSV, TSV), rather than documents
    /// whose records may hold any field (JSON, NDJSON, XML).
    public var isTabular: Bool { self == .csv || self == .tsv }

    /// The format a file extension names (`csv`, `tsv`/`tab`, `json`/`geojson`,
    /// `ndjson`/`jsonl`, `xml`), case-insensitively.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json", "geojson": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "xml": self = .xml
        default: return nil
        }
    }

    /// The format of `path` from its extension: `RecordFormat(path: "data/items.csv") == .csv`;
    /// a gzip file's from the extension before `.gz` (`items.csv.gz`).
    public init?(path: String) {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if GzipName.isCompressed(name) { name.removeLast(GzipName.suffix.count) }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }
}
