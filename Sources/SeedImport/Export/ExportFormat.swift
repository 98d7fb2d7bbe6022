// The formats `seedkit export` writes.

/// A format to export objects in.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV with a header row; to-many keys `;`-joined.
    case csv
    /// One JSON array of objects.
    case json
    /// One JSON object per line.
    case ndjson
    /// `<export entity="E">` with one element per object and one child element per property.
    case xml
}
