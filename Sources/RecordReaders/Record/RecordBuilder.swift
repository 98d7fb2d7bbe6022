// RecordBuilder: the reusable scratch space in which a reader assembles one record.
// Readers append bytes and nodes while parsing, then `finish` copies them into exact-size
// arrays owned by a new RecordStorage and clears the scratch, keeping its capacity.
// Invariants: open containers have `end == 0` until closed; `bytes.count` never exceeds the
// record size limit the reader checks (always below Int32.max).

/// Assembles the bytes and node table of one record.
struct RecordBuilder {
    var bytes: [UInt8] = []
    var nodes: [Node] = []

    init() {
        bytes.reserveCapacity(4096)
        nodes.reserveCapacity(64)
    }

    /// Number of bytes appended so far.
    var byteCount: Int { bytes.count }

    /// Empties the scratch, keeping its capacity.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
    }

    /// Appends `count` bytes from `pointer`.
    @inline(__always)
    mutating func append(_ pointer: UnsafePointer<UInt8>, count: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a node and returns its index; a leaf's `end` is set, a container's is left open.
    @discardableResult
    mutating func appendNode(_ node: Node, isLeaf: Bool = true) -> Int32 {
        var node = node
        let index = Int32(truncatingIfNeeded: nodes.count)
        node.end = isLeaf ? index + 1 : 0
        nodes.append(node)
        return index
    }

    /// Closes the container at `index`: its subtree ends at the last node appended.
    @inline(__always)
    mutating func close(_ index: Int32) {
        nodes[Int(index)].end = Int32(truncatingIfNeeded: nodes.count)
    }

    /// Copies the record out into an immutable storage and clears the scratch.
    mutating func finish(context: RecordContext) -> RecordStorage {
        let storage = RecordStorage(bytes: Array(bytes), nodes: Array(nodes), context: context)
        reset()
        return storage
    }
}
