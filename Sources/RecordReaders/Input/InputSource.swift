// InputSource: where a reader's bytes come from — a file path or an in-memory byte array —
// and a look at the start of its text.

/// The bytes a reader reads: a file, or bytes in memory (tests, generated data).
///
/// ```swift
/// let file = InputSource.file("Data/items.csv")
/// let memory = InputSource.bytes(Array("sku,name\nA1,Apple\n".utf8), name: "inline.csv")
/// ```
public enum InputSource: Sendable, Hashable {
    /// A file, read in large chunks with `open`/`read`; errors name it by this path.
    case file(String)
    /// Bytes in memory, named `name` in positions and errors.
    case bytes([UInt8], name: String)

    /// The name used in positions and errors.
    public var name: String {
        switch self {
        case .file(let path): return path
        case .bytes(_, let name): return name
        }
    }
}

extension InputSource {
    /// The first `count` bytes of the input's text (inflated, for gzip input), or fewer when
    /// the text is shorter: for looking at a file before reading it.
    ///
    /// ```swift
    /// let head = try InputSource.file("items.json.gz").prefix(4096)   // starts with "[" or "{"
    /// ```
    public func prefix(_ count: Int) throws(RecordReaderError) -> [UInt8] {
        var input = try ByteInput(self, chunkSize: max(count, 1))
        while input.limit < count, try input.refill() {}
        return input.bytes(from: 0, to: min(count, input.limit))
    }
}
