// FieldLookup: finds several field paths of a record in one pass over its children.
// A mapping reads many fields of every record (`@sku`, `@price`, `name`, `tag`, …); evaluated
// one by one, each is a walk over the record's children. The paths that name one child or
// attribute of the record are bucketed here by name length and first byte, so that each child
// of a record is compared only with the paths that may name it. Other paths (deeper ones,
// CSV columns, `.`) and the names that match several children (a list) are evaluated as a
// `FieldPath` is, so every value is exactly what `SourceRecord.value(at:)` gives.

/// Field paths looked up together in records (see ``FieldMatches``). A class: handing a lookup
/// on costs one reference count, not one per buffer it holds.
///
/// ```swift
/// let lookup = FieldLookup([try FieldPath(parsing: "@sku"), try FieldPath(parsing: "name")])
/// var matches = FieldMatches()
/// while let item = try reader.next() {
///     matches.find(lookup, in: item)
///     print(matches.value(0, of: lookup, in: item)?.string ?? "", matches.value(1, of: lookup, in: item)?.string ?? "")
/// }
/// ```
public final class FieldLookup: Sendable {
    /// The paths, in the order given.
    public let paths: [FieldPath]
    /// Per path: where its name lies in `nameBytes`, or a count of 0 when it is evaluated on its own.
    private let entries: [Entry]
    private let nameBytes: [UInt8]
    /// Paths by bucket: `bucketPaths[bucketStarts[b] ..< bucketStarts[b + 1]]`.
    private let bucketStarts: [Int32]
    private let bucketPaths: [Int32]
    /// Whether any path is looked up in the pass.
    let hasNames: Bool

    /// The child or attribute name a path looks for.
    private struct Entry {
        var nameStart: Int32 = 0
        var nameCount: Int32 = 0
        var isAttribute = false
    }

    static let bucketCount = 64

    /// The bucket of a name of `count` bytes starting with `first`.
    @inline(__always)
    private static func bucket(count: Int, first: UInt8) -> Int {
        (count &* 7 &+ Int(first)) & (bucketCount - 1)
    }

    /// Looks up `paths` together.
    public init(_ paths: [FieldPath]) {
        self.paths = paths
        var entries: [Entry] = []
        var nameBytes: [UInt8] = []
        var buckets = Array(repeating: [Int32](), count: Self.bucketCount)
        for (index, path) in paths.enumerated() {
            var entry = Entry()
            switch path.steps.count == 1 ? path.steps[0] : .this {
            case .child(let name) where !name.isEmpty:
                entry = Entry(nameStart: Int32(nameBytes.count), nameCount: Int32(name.count), isAttribute: false)
                nameBytes += name
            case .attribute(let name) where !name.isEmpty:
                entry = Entry(nameStart: Int32(nameBytes.count), nameCount: Int32(name.count), isAttribute: true)
                nameBytes += name
            default:
                break
            }
            if entry.nameCount > 0 {
                buckets[Self.bucket(count: Int(entry.nameCount), first: nameBytes[Int(entry.nameStart)])]
                    .append(Int32(index))
            }
            entries.append(entry)
        }
        var starts: [Int32] = [0]
        for bucket in buckets { starts.append(starts[starts.count - 1] + Int32(bucket.count)) }
        self.entries = entries
        self.nameBytes = nameBytes
        bucketStarts = starts
        bucketPaths = buckets.flatMap { $0 }
        hasNames = !nameBytes.isEmpty
    }

    /// The number of paths.
    public var count: Int { paths.count }

    /// Whether path `index` is looked up in the pass.
    func isLookedUp(_ index: Int) -> Bool { entries[index].nameCount > 0 }

    /// Records in `matches` (one per path) the direct children of node `root` of a record's
    /// `nodes` (whose `byteCount` bytes start at `bytes`) that each path names.
    func match(
        childrenOf root: Int32, nodes: NodeTable, bytes: UnsafePointer<UInt8>, byteCount: Int,
        into matches: UnsafeMutableBufferPointer<FieldMatches.Match>
    ) {
        entries.withUnsafeBufferPointer { entries in
            nameBytes.withUnsafeBufferPointer { names in
                guard let names = names.baseAddress else { return }
                bucketStarts.withUnsafeBufferPointer { starts in
                    bucketPaths.withUnsafeBufferPointer { bucketPaths in
                        let end = nodes[Int(root)].end
                        var child = root + 1
                        while child < end {
                            let node = nodes[Int(child)]
                            let count = Int(node.nameCount)
                            if count > 0, node.nameStart >= 0, Int(node.nameStart) + count <= byteCount {
                                let stored = bytes + Int(node.nameStart)
                                let bucket = Self.bucket(count: count, first: stored.pointee)
                                let isAttribute = node.kind == .attribute
                                for slot in Int(starts[bucket])..<Int(starts[bucket + 1]) {
                                    let index = Int(bucketPaths[slot])
                                    let entry = entries[index]
                                    guard entry.isAttribute == isAttribute, Int(entry.nameCount) == count,
                                        ByteScanner.equal(stored, names + Int(entry.nameStart), count: count)
                                    else { continue }
                                    if matches[index].first < 0 { matches[index].first = child }
                                    matches[index].count += 1
                                }
                            }
                            child = node.end
                        }
                    }
                }
            }
        }
    }
}

/// What a ``FieldLookup`` found in one record: reused from record to record.
public struct FieldMatches: Sendable {
    /// What one path names among a record's children: the first, and how many.
    struct Match: Sendable {
        var first: Int32 = -1
        var count: Int32 = 0
    }

    /// Per path of the lookup last used.
    private var matches: [Match] = []
    /// Whether the last record was looked up in a pass (an element or object), else every path
    /// is evaluated on its own.
    private var scanned = false

    /// Empty matches.
    public init() {}

    /// Looks up `lookup`'s paths in `record`, forgetting the previous record's.
    public mutating func find(_ lookup: FieldLookup, in record: SourceRecord) {
        if matches.count != lookup.count { matches = Array(repeating: Match(), count: lookup.count) }
        let root = record.root
        let storage = record.storage
        let kind = storage.nodes[Int(root)].kind
        let scanned = lookup.hasNames && (kind == .element || kind == .object)
        self.scanned = scanned
        matches.withUnsafeMutableBufferPointer { matches in
            matches.update(repeating: Match())
            guard scanned else { return }
            storage.withNodesAndBytes { nodes, bytes, byteCount in
                lookup.match(childrenOf: root, nodes: nodes, bytes: bytes, byteCount: byteCount, into: matches)
            }
        }
    }

    /// The value of path `index` of `lookup` in `record`, the record last given to `find`:
    /// what `record.value(at: lookup.paths[index])` gives.
    public func value(_ index: Int, of lookup: FieldLookup, in record: SourceRecord) -> FieldValue? {
        guard scanned, lookup.isLookedUp(index), matches[index].count <= 1 else {
            return record.value(at: lookup.paths[index])
        }
        let match = matches[index]
        return match.count == 0 ? nil : FieldValue(storage: record.storage, node: match.first)
    }

    /// The value of the first of paths `indices` the record has (see ``value(_:of:in:)``).
    public func first(_ indices: Range<Int>, of lookup: FieldLookup, in record: SourceRecord) -> FieldValue? {
        for index in indices {
            if let value = value(index, of: lookup, in: record) { return value }
        }
        return nil
    }
}
