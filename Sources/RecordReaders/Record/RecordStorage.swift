// RecordStorage: the immutable, shared backing of one record and every value taken from it.
// One byte buffer holds all names and values; one node table holds the tree (see Node.swift).
// Invariant: never mutated after creation, so it is shared freely across threads.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a record sits in its file, shared by the record and all its values.
struct RecordContext: Sendable {
    /// How the record path of `SourcePosition.path` is spelled.
    enum PathStyle: Sendable {
        /// No path (CSV, NDJSON).
        case none
        /// JSON: `prefix[index]`, or `prefix` alone when the index is negative.
        case json
        /// XML: `prefix/rootName[index]`.
        case xml
    }

    var file: String
    var recordNumber: Int
    var pathStyle: PathStyle = .none
    /// JSON: the path of the array holding the record (or of the record itself);
    /// XML: the element path of the record's parent.
    var pathPrefix: String = ""
    /// 0-based JSON array index, or 1-based XML sibling index; negative when none.
    var pathIndex: Int = -1
    /// CSV header names, shared by all records of a reader.
    var columns: CSVColumns? = nil
}

/// The bytes, node table and context of one record.
final class RecordStorage: Sendable {
    let bytes: [UInt8]
    let nodes: [Node]
    let context: RecordContext

    init(bytes: [UInt8], nodes: [Node], context: RecordContext) {
        self.bytes = bytes
        self.nodes = nodes
        self.context = context
    }

    /// Calls `body` with the bytes of `start ..< start + count`.
    @inline(__always)
    func withBytes<R>(
        start: Int32, count: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        try bytes.withUnsafeBufferPointer { all in
            let lower = Int(start)
            let upper = lower + Int(max(count, 0))
            return try body(UnsafeBufferPointer(rebasing: all[lower..<upper]))
        }
    }

    /// The name of `node` (key, element or attribute name) as a string.
    func name(of node: Int32) -> String? {
        let entry = nodes[Int(node)]
        guard entry.hasName else {
            // A CSV field is named by its header column; the row is always node 0.
            guard entry.kind == .field, let columns = context.columns else { return nil }
            let column = Int(node) - 1
            return column < columns.names.count ? columns.names[column] : nil
        }
        return withBytes(start: entry.nameStart, count: entry.nameCount) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Whether the name of `node` equals `name`.
    @inline(__always)
    func nameEquals(_ node: Int, _ name: [UInt8]) -> Bool {
        let entry = nodes[node]
        guard entry.hasName, Int(entry.nameCount) == name.count else { return false }
        return withBytes(start: entry.nameStart, count: entry.nameCount) { stored in
            name.withUnsafeBufferPointer { wanted in
                guard let lhs = stored.baseAddress, let rhs = wanted.baseAddress else { return true }
                return memcmp(lhs, rhs, wanted.count) == 0
            }
        }
    }
}
