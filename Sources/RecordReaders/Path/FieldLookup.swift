// FieldLookup: finds several field paths of a record in one pass over its children.
// A mapping reads many fields of every record (`@sku`, `@price`, `name`, `tag`, …); evaluated
// one by one, each is a walk over the record's children. The paths that name one child or
// attribute of the record are bucketed here by name length and first byte, so that each child
// of a record is compared only with the paths that may name it. Other paths (deeper ones,
// CSV columns, `.`) and the names that match several children (a list) are evaluated as a
// `FieldPath` is, so every value is exactly what `SourceRecord.value(at:)` gives.

/// Field paths looked up together in records (see ``FieldMatches``).
///
/// ```swift
/// let lookup = FieldLookup([try FieldPath(parsing: "@sku"), try FieldPath(parsing: "name")])
/// var matches = FieldMatches()
/// while let item = try reader.next() {
///     matches.find(lookup, in: item)
///     print(matches.value(0, of: lookup, in: item)?.string ?? "", matches.value(1, of: lookup, in: item)?.string ?? "")
/// }
/// ```
public struct FieldLookup: Sendable {
    /// The paths, in the order given.
    public let paths: [FieldPath]
    /// Per path: the child or attribute name it looks for, or nil when it is evaluated on its own.
    private let names: [[UInt8]?]
    private let isAttribute: [Bool]
    /// Paths by bucket: `bucketPaths[bucketStarts[b] ..< bucketStarts[b + 1]]`.
    private let bucketStarts: [Int32]
    private let bucketPaths: [Int32]
    /// Whether any path is looked up in the pass.
    let hasNames: Bool

    static let bucketCount = 64

    /// The bucket of a name of `count` bytes starting with `first`.
    @inline(__always)
    static func bucket(count: Int, first: UInt8) -> Int {
        (count &* 7 &+ Int(first)) & (bucketCount - 1)
    }

    /// Looks up `paths` together.
    public init(_ paths: [FieldPath]) {
        self.paths = paths
        var names: [[UInt8]?] = []
        var isAttribute: [Bool] = []
        for path in paths {
            switch path.steps.count == 1 ? path.steps[0] : .this {
            case .child(let name) where !name.isEmpty:
                names.append(name)
                isAttribute.append(false)
            case .attribute(let name) where !name.isEmpty:
                names.append(name)
                isAttribute.append(true)
            default:
                names.append(nil)
                isAttribute.append(false)
            }
        }
        var buckets = Array(repeating: [Int32](), count: Self.bucketCount)
        for (index, name) in names.enumerated() {
            guard let name, let first = name.first else { continue }
            buckets[Self.bucket(count: name.count, first: first)].append(Int32(index))
        }
        var starts: [Int32] = [0]
        for bucket in buckets { starts.append(starts[starts.count - 1] + Int32(bucket.count)) }
        self.names = names
        self.isAttribute = isAttribute
        bucketStarts = starts
        bucketPaths = buckets.flatMap { $0 }
        hasNames = names.contains { $0 != nil }
    }

    /// The number of paths.
    public var count: Int { paths.count }

    /// Whether path `index` is looked up in the pass.
    func isLookedUp(_ index: Int) -> Bool { names[index] != nil }

    /// Calls `match` with each path that names `node`, a node of the record whose `byteCount`
    /// bytes start at `bytes`.
    @inline(__always)
    func forEachPath(naming node: Node, bytes: UnsafePointer<UInt8>, byteCount: Int, _ match: (Int) -> Void) {
        let count = Int(node.nameCount)
        guard count > 0, node.nameStart >= 0, Int(node.nameStart) + count <= byteCount else { return }
        let stored = bytes + Int(node.nameStart)
        let bucket = Self.bucket(count: count, first: stored.pointee)
        let isAttributeNode = node.kind == .attribute
        for slot in Int(bucketStarts[bucket])..<Int(bucketStarts[bucket + 1]) {
            let index = Int(bucketPaths[slot])
            guard isAttribute[index] == isAttributeNode, let name = names[index], name.count == count else {
                continue
            }
            let equal = name.withUnsafeBufferPointer { wanted in
                var position = 0
                while position < count {
                    if stored[position] != wanted[position] { return false }
                    position &+= 1
                }
                return true
            }
            if equal { match(index) }
        }
    }
}

/// What a ``FieldLookup`` found in one record: reused from record to record.
public struct FieldMatches: Sendable {
    /// Per path: the first child it names, or -1.
    private var first: [Int32] = []
    /// Per path: how many children it names.
    private var counts: [Int32] = []
    /// Whether the last record was looked up in a pass (an element or object), else every path
    /// is evaluated on its own.
    private var scanned = false

    /// Empty matches.
    public init() {}

    /// Looks up `lookup`'s paths in `record`, forgetting the previous record's.
    public mutating func find(_ lookup: FieldLookup, in record: SourceRecord) {
        let count = lookup.count
        if first.count != count {
            first = Array(repeating: -1, count: count)
            counts = Array(repeating: 0, count: count)
        } else {
            for index in 0..<count {
                first[index] = -1
                counts[index] = 0
            }
        }
        let root = record.root
        let storage = record.storage
        let kind = storage.nodes[Int(root)].kind
        scanned = lookup.hasNames && (kind == .element || kind == .object)
        guard scanned else { return }
        storage.withNodesAndBytes { nodes, bytes, byteCount in
            let end = nodes[Int(root)].end
            var child = root + 1
            while child < end {
                let node = nodes[Int(child)]
                if node.hasName {
                    lookup.forEachPath(naming: node, bytes: bytes, byteCount: byteCount) { index in
                        if first[index] < 0 { first[index] = child }
                        counts[index] += 1
                    }
                }
                child = node.end
            }
        }
    }

    /// The value of path `index` of `lookup` in `record`, the record last given to `find`:
    /// what `record.value(at: lookup.paths[index])` gives.
    public func value(_ index: Int, of lookup: FieldLookup, in record: SourceRecord) -> FieldValue? {
        guard scanned, lookup.isLookedUp(index), counts[index] <= 1 else {
            return record.value(at: lookup.paths[index])
        }
        return counts[index] == 0 ? nil : FieldValue(storage: record.storage, node: first[index])
    }

    /// The value of the first of paths `indices` the record has (see ``value(_:of:in:)``).
    public func first(_ indices: Range<Int>, of lookup: FieldLookup, in record: SourceRecord) -> FieldValue? {
        for index in indices {
            if let value = value(index, of: lookup, in: record) { return value }
        }
        return nil
    }
}
