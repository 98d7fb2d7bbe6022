// NodePath: the JSON path or XML element path of a record or of a node inside one, built
// only when a position is asked for (never per record while reading).

extension RecordStorage {
    /// The path of the record (node 0) itself: `items[41]`, `/catalog/item[42]`, or empty.
    var recordPath: String {
        switch pathStyle {
        case .none:
            return ""
        case .json:
            let context = self.context
            return context.pathIndex >= 0
                ? "\(context.pathPrefix)[\(context.pathIndex)]" : context.pathPrefix
        case .xml:
            let context = self.context
            let name = self.name(of: 0) ?? ""
            let index = context.pathIndex >= 1 ? "[\(context.pathIndex)]" : ""
            return "\(context.pathPrefix)/\(name)\(index)"
        }
    }

    /// The path of `target`: the record's path followed by the steps down to it.
    func path(of target: Int32) -> String {
        guard pathStyle != .none else { return "" }
        var path = recordPath
        var node: Int32 = 0
        while node != target {
            let parent = nodes[Int(node)]
            var child = node + 1
            var position = 0
            while child < parent.end, nodes[Int(child)].end <= target {
                child = nodes[Int(child)].end
                position += 1
            }
            guard child < parent.end, child <= target else { return path }
            path += step(from: node, to: child, position: position)
            node = child
        }
        return path
    }

    /// One path step from `parent` to its child `child`, the `position`-th (0-based) child.
    private func step(from parent: Int32, to child: Int32, position: Int) -> String {
        let parentKind = nodes[Int(parent)].kind
        let name = self.name(of: child) ?? ""
        switch (parentKind, nodes[Int(child)].kind) {
        case (.array, _):
            return "[\(position)]"
        case (.element, .attribute):
            return "/@\(name)"
        case (.element, _):
            let (index, total) = siblingIndex(of: child, in: parent)
            return total > 1 ? "/\(name)[\(index)]" : "/\(name)"
        default:
            return "." + name
        }
    }

    /// The 1-based index of `child` among the children of `parent` with its name, and their count.
    private func siblingIndex(of child: Int32, in parent: Int32) -> (Int, Int) {
        let entry = nodes[Int(parent)]
        let name = Array(
            withBytes(start: nodes[Int(child)].nameStart, count: nodes[Int(child)].nameCount) {
                $0
            })
        var index = 0
        var total = 0
        var sibling = parent + 1
        while sibling < entry.end {
            if nodes[Int(sibling)].kind == .element, nameEquals(Int(sibling), name) {
                total += 1
                if sibling == child { index = total }
            }
            sibling = nodes[Int(sibling)].end
        }
        return (index, total)
    }

    /// The place of `node` (its position without the file and the path).
    func place(of node: Int32) -> SourcePlace {
        let entry = nodes[Int(node)]
        return SourcePlace(
            line: Int(entry.line), column: Int(entry.column), byteOffset: entry.offset, recordNumber: recordNumber)
    }

    /// The source position of `node`.
    func position(of node: Int32) -> SourcePosition {
        let entry = nodes[Int(node)]
        return SourcePosition(
            file: file, line: Int(entry.line), column: Int(entry.column),
            byteOffset: entry.offset, recordNumber: recordNumber, path: path(of: node))
    }
}
