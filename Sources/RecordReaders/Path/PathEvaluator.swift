// PathEvaluator: walks a FieldPath through a record's node table.
// The common case (every step matches at most one node) keeps a single index and allocates
// nothing; a step that matches several nodes switches to an array of matches.

/// The nodes a path matched.
enum PathMatch {
    case none
    case one(Int32)
    case many([Int32])
}

extension RecordStorage {
    /// Evaluates `steps` from node `start`.
    func evaluate(_ steps: [PathStep], from start: Int32, wholeText: String) -> PathMatch {
        if nodes[Int(start)].kind == .row, case .child = steps.first {
            // A CSV header name is the whole path text, dots and slashes included.
            guard let column = context.columns?.index(of: wholeText) else { return .none }
            return withWalker { $0.apply(.column(column), to: start) }
        }
        return withWalker { walker in
            var current = PathMatch.one(start)
            for step in steps {
                switch current {
                case .none:
                    return .none
                case .one(let node):
                    current = walker.apply(step, to: node)
                case .many(let nodes):
                    current = walker.apply(step, toAll: nodes)
                }
            }
            return current
        }
    }

    /// Calls `body` with a walker over this storage's nodes and bytes: one pointer lookup for
    /// a whole path, rather than one per node visited.
    @inline(__always)
    private func withWalker<R>(_ body: (PathWalker) -> R) -> R {
        withNodesAndBytes { nodes, bytes, byteCount in
            body(PathWalker(nodes: nodes, bytes: bytes, byteCount: byteCount))
        }
    }
}

/// Walks path steps over one record's node table and bytes (valid only inside
/// `RecordStorage.withWalker`).
private struct PathWalker {
    let nodes: NodeTable
    let bytes: UnsafePointer<UInt8>
    let byteCount: Int

    func apply(_ step: PathStep, to node: Int32) -> PathMatch {
        let entry = nodes[Int(node)]
        switch step {
        case .this:
            return .one(node)
        case .column(let column):
            guard entry.kind == .row, column >= 0, column < Int(entry.end - node) - 1 else {
                return .none
            }
            return .one(node + 1 + Int32(column))
        case .child(let name):
            var collector = MatchCollector()
            collectChildren(of: node, named: name, attribute: false, into: &collector)
            return collector.match
        case .attribute(let name):
            var collector = MatchCollector()
            collectChildren(of: node, named: name, attribute: true, into: &collector)
            return collector.match
        case .index(let position):
            guard entry.kind == .array else { return position == 0 ? .one(node) : .none }
            var child = node + 1
            var remaining = position
            while child < entry.end {
                if remaining == 0 { return .one(child) }
                remaining -= 1
                child = nodes[Int(child)].end
            }
            return .none
        case .wildcard:
            guard entry.kind == .array else { return .one(node) }
            var collector = MatchCollector()
            var child = node + 1
            while child < entry.end {
                collector.add(child)
                child = nodes[Int(child)].end
            }
            return collector.match
        }
    }

    func apply(_ step: PathStep, toAll matches: [Int32]) -> PathMatch {
        switch step {
        case .index(let position):
            return position < matches.count ? .one(matches[position]) : .none
        case .wildcard, .this:
            return .many(matches)
        case .column:
            return .none
        case .child(let name), .attribute(let name):
            let isAttribute: Bool
            if case .attribute = step { isAttribute = true } else { isAttribute = false }
            var collector = MatchCollector()
            for node in matches {
                collectChildren(of: node, named: name, attribute: isAttribute, into: &collector)
            }
            return collector.match
        }
    }

    /// Adds the children of `node` named `name`; through an array, the named members of its
    /// object elements (so `tags.name` over an array of objects yields every name).
    private func collectChildren(
        of node: Int32, named name: [UInt8], attribute: Bool, into collector: inout MatchCollector
    ) {
        name.withUnsafeBufferPointer { wanted in
            collectChildren(of: node, named: wanted, attribute: attribute, into: &collector)
        }
    }

    private func collectChildren(
        of node: Int32, named name: UnsafeBufferPointer<UInt8>, attribute: Bool, into collector: inout MatchCollector
    ) {
        let entry = nodes[Int(node)]
        var child = node + 1
        switch entry.kind {
        case .element where attribute:
            // An element's attributes are its first children; libxml2 rejects two with the same
            // name, so without a namespaced one the first match is the only one.
            let unique = entry.flags & Node.namespacedAttributeFlag == 0
            while child < entry.end, nodes[Int(child)].kind == .attribute {
                if nameEquals(child, name) {
                    collector.add(child)
                    if unique { return }
                }
                child = nodes[Int(child)].end
            }
        case .object, .element:
            while child < entry.end {
                let isAttribute = nodes[Int(child)].kind == .attribute
                if isAttribute == attribute, nameEquals(child, name) { collector.add(child) }
                child = nodes[Int(child)].end
            }
        case .array where !attribute:
            while child < entry.end {
                if nodes[Int(child)].kind == .object {
                    collectChildren(of: child, named: name, attribute: false, into: &collector)
                }
                child = nodes[Int(child)].end
            }
        default:
            break
        }
    }

    /// Whether the name of `node` equals `name`.
    @inline(__always)
    private func nameEquals(_ node: Int32, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = nodes[Int(node)]
        guard entry.hasName, Int(entry.nameCount) == name.count, entry.nameStart >= 0,
            Int(entry.nameStart) + name.count <= byteCount, let wanted = name.baseAddress
        else { return name.isEmpty && entry.nameCount == 0 }
        return ByteScanner.equal(bytes + Int(entry.nameStart), wanted, count: name.count)
    }
}

/// Accumulates matches without allocating until a second one arrives.
private struct MatchCollector {
    private var first: Int32 = -1
    private var all: [Int32] = []

    mutating func add(_ node: Int32) {
        if first < 0 {
            first = node
        } else {
            if all.isEmpty { all.append(first) }
            all.append(node)
        }
    }

    var match: PathMatch {
        if !all.isEmpty { return .many(all) }
        return first < 0 ? .none : .one(first)
    }
}
