// InputSource: where a reader's bytes come from — a file path or an in-memory byte array.

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
