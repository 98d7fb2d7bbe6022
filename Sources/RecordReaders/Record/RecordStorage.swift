// RecordStorage: the immutable, shared backing of one record and every value taken from it.
//
// One allocation per record: a ManagedBuffer whose header holds the counts and the record's
// context, and whose tail holds the node table followed by the byte buffer that all names
// and values point into (see Node.swift).
// Invariant: never mutated after `make` returns, so it is shared freely across threads.
// ManagedBuffer cannot be Sendable, so records hold it through SharedStorage, whose
// `@unchecked Sendable` rests on that immutability.

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

/// A RecordStorage reference that crosses threads: the storage is never mutated after it is
/// made (RecordBuilder.finish), so concurrent reads are safe.
struct SharedStorage: @unchecked Sendable {
    let storage: RecordStorage
}

/// The header of a record's storage.
struct RecordHeader {
    let nodeCount: Int
    let byteCount: Int
    let context: RecordContext
}

/// A read-only view of a record's node table.
struct NodeTable {
    let base: UnsafePointer<Node>
    let count: Int

    @inline(__always)
    subscript(index: Int) -> Node {
        precondition(index >= 0 && index < count, "node index out of range")
        return base[index]
    }
}

/// The nodes, bytes and context of one record, in one allocation.
final class RecordStorage: ManagedBuffer<RecordHeader, Node> {
    /// Copies `nodes` and `bytes` into a new storage.
    static func make(
        nodes: UnsafeBufferPointer<Node>, bytes: UnsafeBufferPointer<UInt8>, context: RecordContext
    ) -> RecordStorage {
        let stride = MemoryLayout<Node>.stride
        let slots = nodes.count + (bytes.count + stride - 1) / stride
        let buffer = create(minimumCapacity: max(slots, 1)) { _ in
            RecordHeader(nodeCount: nodes.count, byteCount: bytes.count, context: context)
        }
        let storage = unsafeDowncast(buffer, to: RecordStorage.self)
        storage.withUnsafeMutablePointerToElements { elements in
            if let source = nodes.baseAddress { elements.initialize(from: source, count: nodes.count) }
            if let source = bytes.baseAddress {
                UnsafeMutableRawPointer(elements + nodes.count).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        return storage
    }

    /// The record's context.
    var context: RecordContext { header.context }

    /// The node table.
    @inline(__always)
    var nodes: NodeTable {
        withUnsafeMutablePointerToElements { NodeTable(base: $0, count: header.nodeCount) }
    }

    /// Calls `body` with the bytes of `start ..< start + count`.
    @inline(__always)
    func withBytes<R>(
        start: Int32, count: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        try withUnsafeMutablePointers { header, elements in
            let lower = Int(start)
            let length = Int(max(count, 0))
            precondition(lower >= 0 && lower + length <= header.pointee.byteCount, "byte range out of bounds")
            let base = UnsafeRawPointer(elements + header.pointee.nodeCount).assumingMemoryBound(to: UInt8.self)
            return try body(UnsafeBufferPointer(start: base + lower, count: length))
        }
    }

    /// The name of `node` (key, element or attribute name, CSV header name) as a string.
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
