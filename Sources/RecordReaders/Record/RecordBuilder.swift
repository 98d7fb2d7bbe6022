// RecordBuilder: the reusable scratch space in which a reader assembles one record.
//
// Bytes and nodes go into raw buffers (a plain memcpy per append, no per-call Array
// overhead); `finish` copies them into one RecordStorage allocation and empties the scratch,
// keeping its capacity. The storage of the previous record is kept and refilled instead of
// allocating a new one when no record refers to it any more (a consumer that drops each
// record before asking for the next pays no allocation per record). The buffers belong to a ScratchMemory object; the builder caches
// their addresses. A reader calls `prepareForWriting` at the start of every call that may
// write (its `next`, its header read): the builder then becomes the memory's only owner
// (cloning it if a copy of the reader shares it), and stays so for the whole call because
// the call has exclusive access to the reader — so a copied reader can never write into, or
// free, memory another copy uses, and appends need no per-call check.
// Invariants: open containers have `end == 0` until closed; byteCount and nodeCount stay
// below Int32.max (readers check their size limits, which are capped below it).

/// Owns a builder's raw buffers.
final class ScratchMemory {
    var bytes: UnsafeMutablePointer<UInt8>
    var byteCapacity: Int
    var nodes: UnsafeMutablePointer<Node>
    var nodeCapacity: Int

    init(byteCapacity: Int, nodeCapacity: Int) {
        self.byteCapacity = byteCapacity
        self.nodeCapacity = nodeCapacity
        bytes = .allocate(capacity: byteCapacity)
        nodes = .allocate(capacity: nodeCapacity)
    }

    deinit {
        bytes.deallocate()
        nodes.deallocate()
    }
}

/// Assembles the bytes and node table of one record.
struct RecordBuilder {
    private var memory = ScratchMemory(byteCapacity: 4096, nodeCapacity: 64)
    /// The bytes appended so far: `bytes[0 ..< byteCount]`.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCount = 0
    /// The nodes appended so far: `nodes[0 ..< nodeCount]` (elements may be updated in place).
    private(set) var nodes: UnsafeMutablePointer<Node>
    private(set) var nodeCount = 0
    /// The storage last handed out, refilled by `store` once it is ours alone again.
    private var recycled: RecordStorage?
    /// Stores in a row that found `recycled` still in use. A consumer that keeps its records
    /// (an import holds a batch of them, possibly on another thread) never lets one be reused:
    /// after `recycleGiveUp` misses the builder keeps a storage only every `recycleGiveUp`
    /// records, so it does not touch the reference count of records another thread is using
    /// (reading a count another core writes costs a cache miss) for nothing.
    private var recycleMisses = 0
    private static let recycleGiveUp = 64

    init() {
        bytes = memory.bytes
        nodes = memory.nodes
    }

    /// Makes this builder the only owner of its memory; call before a series of writes.
    @inline(__always)
    mutating func prepareForWriting() {
        if !isKnownUniquelyReferenced(&memory) { cloneMemory() }
    }

    private mutating func cloneMemory() {
        let copy = ScratchMemory(byteCapacity: memory.byteCapacity, nodeCapacity: memory.nodeCapacity)
        copy.bytes.update(from: bytes, count: byteCount)
        copy.nodes.update(from: nodes, count: nodeCount)
        memory = copy
        bytes = copy.bytes
        nodes = copy.nodes
    }

    /// Empties the scratch, keeping its capacity.
    mutating func reset() {
        byteCount = 0
        nodeCount = 0
    }

    /// Drops the bytes after the first `count`.
    @inline(__always)
    mutating func truncateBytes(to count: Int) {
        byteCount = min(count, byteCount)
    }

    /// Calls `body` with every byte appended so far.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: bytes, count: byteCount))
    }

    /// Appends `count` bytes from `pointer`.
    @inline(__always)
    mutating func append(_ pointer: UnsafePointer<UInt8>, count: Int) {
        if byteCount + count > memory.byteCapacity { growBytes(to: byteCount + count) }
        (bytes + byteCount).update(from: pointer, count: count)
        byteCount += count
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if byteCount == memory.byteCapacity { growBytes(to: byteCount + 1) }
        bytes[byteCount] = byte
        byteCount += 1
    }

    /// Appends a node and returns its index; a leaf's `end` is set, a container's is left open.
    @inline(__always)
    @discardableResult
    mutating func appendNode(_ node: Node, isLeaf: Bool = true) -> Int32 {
        if nodeCount == memory.nodeCapacity { growNodes() }
        let index = Int32(truncatingIfNeeded: nodeCount)
        (nodes + nodeCount).initialize(to: node)
        nodes[nodeCount].end = isLeaf ? index + 1 : 0
        nodeCount += 1
        return index
    }

    /// Closes the container at `index`: its subtree ends at the last node appended.
    @inline(__always)
    mutating func close(_ index: Int32) {
        nodes[Int(index)].end = Int32(truncatingIfNeeded: nodeCount)
    }

    /// Copies the record out into an immutable storage and clears the scratch.
    mutating func finish(context: RecordContext) -> RecordStorage {
        let storage = store(
            bytes: UnsafeBufferPointer(start: bytes, count: byteCount),
            moreBytes: UnsafeBufferPointer(start: nil, count: 0), context: context)
        reset()
        return storage
    }

    /// A storage holding the nodes appended so far with `bytes` followed by `moreBytes` (see
    /// `RecordStorage.make`): the previous one refilled when nothing else refers to it, else
    /// a new one. The scratch is left as it is.
    mutating func store(
        bytes: UnsafeBufferPointer<UInt8>, moreBytes: UnsafeBufferPointer<UInt8>, context: RecordContext
    ) -> RecordStorage {
        let nodes = UnsafeBufferPointer(start: nodes, count: nodeCount)
        if recycled != nil {
            if isKnownUniquelyReferenced(&recycled), let storage = recycled,
                storage.refill(nodes: nodes, bytes: bytes, moreBytes: moreBytes, context: context)
            {
                recycleMisses = 0
                return storage
            }
            recycleMisses += 1
        }
        let storage = RecordStorage.make(nodes: nodes, bytes: bytes, moreBytes: moreBytes, context: context)
        let keeps = recycleMisses < Self.recycleGiveUp || recycleMisses % Self.recycleGiveUp == 0
        recycled = keeps ? storage : nil
        if recycled == nil { recycleMisses += 1 }
        return storage
    }

    private mutating func growBytes(to needed: Int) {
        let capacity = max(needed, memory.byteCapacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: bytes, count: byteCount)
        memory.bytes.deallocate()
        memory.bytes = grown
        memory.byteCapacity = capacity
        bytes = grown
    }

    private mutating func growNodes() {
        let capacity = memory.nodeCapacity * 2
        let grown = UnsafeMutablePointer<Node>.allocate(capacity: capacity)
        grown.update(from: nodes, count: nodeCount)
        memory.nodes.deallocate()
        memory.nodes = grown
        memory.nodeCapacity = capacity
        nodes = grown
    }
}
