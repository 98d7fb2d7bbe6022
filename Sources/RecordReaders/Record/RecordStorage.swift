// RecordStorage: the immutable, shared backing of one record and every value taken from it.
//
// One allocation per record: a ManagedBuffer whose header holds the counts and the record's
// context, and whose tail holds the node table followed by the byte buffer that all names
// and values point into (see Node.swift).
// Invariant: never mutated while a record (or value) refers to it, so it is shared freely
// across threads. The one mutation is `refill`, by the builder that made it and only while that
// builder holds its only reference (RecordBuilder.store), exactly as a copy-on-write Array
// reuses its buffer. ManagedBuffer cannot be Sendable, so records hold it through
// SharedStorage, whose `@unchecked Sendable` rests on that immutability.

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
    /// Which of the reader's record paths selected the record (0: `ReaderOptions.records`).
    var selection = 0

    /// Becomes `other`, leaving the file name, path prefix and columns in place when they are
    /// already equal (so refilling a reader's storage costs no reference counting).
    mutating func replace(with other: RecordContext) {
        if file != other.file { file = other.file }
        recordNumber = other.recordNumber
        pathStyle = other.pathStyle
        if pathPrefix != other.pathPrefix { pathPrefix = other.pathPrefix }
        pathIndex = other.pathIndex
        selection = other.selection
        if columns !== other.columns { columns = other.columns }
    }
}

/// A RecordStorage reference that crosses threads: the storage is never mutated while a
/// record refers to it (RecordBuilder.store), so concurrent reads are safe.
struct SharedStorage: @unchecked Sendable {
    let storage: RecordStorage
}

/// The header of a record's storage.
struct RecordHeader {
    /// The elements the storage has room for.
    let slots: Int
    var nodeCount: Int
    var byteCount: Int
    var context: RecordContext
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
    /// Copies `nodes` and the bytes of `bytes` followed by those of `moreBytes` into a new
    /// storage (node ranges index the two as one buffer).
    static func make(
        nodes: UnsafeBufferPointer<Node>, bytes: UnsafeBufferPointer<UInt8>,
        moreBytes: UnsafeBufferPointer<UInt8>, context: RecordContext
    ) -> RecordStorage {
        let byteCount = bytes.count + moreBytes.count
        let slots = max(slotCount(nodes: nodes.count, bytes: byteCount), 1)
        let buffer = create(minimumCapacity: slots) { _ in
            RecordHeader(slots: slots, nodeCount: nodes.count, byteCount: byteCount, context: context)
        }
        let storage = unsafeDowncast(buffer, to: RecordStorage.self)
        storage.copy(nodes: nodes, bytes: bytes, moreBytes: moreBytes)
        return storage
    }

    /// Replaces the contents with those `make` would give, if they fit; `false` (unchanged)
    /// otherwise. Only for the holder of the only reference (see the invariant above).
    func refill(
        nodes: UnsafeBufferPointer<Node>, bytes: UnsafeBufferPointer<UInt8>,
        moreBytes: UnsafeBufferPointer<UInt8>, context: RecordContext
    ) -> Bool {
        let byteCount = bytes.count + moreBytes.count
        let fits = withUnsafeMutablePointerToHeader { header in
            guard RecordStorage.slotCount(nodes: nodes.count, bytes: byteCount) <= header.pointee.slots else {
                return false
            }
            header.pointee.nodeCount = nodes.count
            header.pointee.byteCount = byteCount
            header.pointee.context.replace(with: context)
            return true
        }
        if fits { copy(nodes: nodes, bytes: bytes, moreBytes: moreBytes) }
        return fits
    }

    /// The elements holding `nodes` nodes followed by `bytes` bytes.
    private static func slotCount(nodes: Int, bytes: Int) -> Int {
        let stride = MemoryLayout<Node>.stride
        return nodes + (bytes + stride - 1) / stride
    }

    private func copy(
        nodes: UnsafeBufferPointer<Node>, bytes: UnsafeBufferPointer<UInt8>, moreBytes: UnsafeBufferPointer<UInt8>
    ) {
        withUnsafeMutablePointerToElements { elements in
            if let source = nodes.baseAddress { elements.initialize(from: source, count: nodes.count) }
            let destination = UnsafeMutableRawPointer(elements + nodes.count)
            if let source = bytes.baseAddress { destination.copyMemory(from: source, byteCount: bytes.count) }
            if let source = moreBytes.baseAddress {
                (destination + bytes.count).copyMemory(from: source, byteCount: moreBytes.count)
            }
        }
    }

    // The header is read through its pointer: the `header` property would copy the whole
    // context (reference counting its strings) and check exclusivity on every access.

    /// The bytes the storage's nodes and byte buffer occupy (its capacity).
    var byteCapacity: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.slots } * MemoryLayout<Node>.stride
    }

    /// The record's context.
    var context: RecordContext { withUnsafeMutablePointerToHeader { $0.pointee.context } }

    /// The file the record was read from.
    var file: String { withUnsafeMutablePointerToHeader { $0.pointee.context.file } }

    /// The record's 1-based number in its file.
    var recordNumber: Int { withUnsafeMutablePointerToHeader { $0.pointee.context.recordNumber } }

    /// How the record's path is spelled.
    var pathStyle: RecordContext.PathStyle { withUnsafeMutablePointerToHeader { $0.pointee.context.pathStyle } }

    /// The node table.
    @inline(__always)
    var nodes: NodeTable {
        withUnsafeMutablePointers { header, elements in NodeTable(base: elements, count: header.pointee.nodeCount) }
    }

    /// Calls `body` with the node table, the start of the byte buffer and its size (valid
    /// only inside `body`).
    @inline(__always)
    func withNodesAndBytes<R>(_ body: (NodeTable, UnsafePointer<UInt8>, Int) -> R) -> R {
        withUnsafeMutablePointers { header, elements in
            let count = header.pointee.nodeCount
            let bytes = UnsafeRawPointer(elements + count).assumingMemoryBound(to: UInt8.self)
            return body(NodeTable(base: elements, count: count), bytes, header.pointee.byteCount)
        }
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
