// JSONParser values: parses one complete JSON value iteratively, with an explicit stack of
// open containers. In store mode every value becomes a node of the record being built; in
// skip mode nothing is kept (scalar bytes are truncated as soon as they are validated).

private let comma = UInt8(ascii: ",")
private let colon = UInt8(ascii: ":")

extension JSONParser {
    /// Parses the value at the current position. `depth` is the number of containers already
    /// open around it; `name` names its node (a key range) in store mode.
    mutating func parseValue(
        store: Bool, depth: Int, name: (start: Int32, count: Int32) = (0, -1)
    ) throws(RecordReaderError) {
        frames.removeAll(keepingCapacity: true)
        let mark = builder.byteCount
        var name = name
        var afterComma = false
        _ = try skipWhitespace()
        let first = node(.null, name: (0, -1))  // where the value starts, for limit errors
        while true {
            guard let byte = try skipWhitespace() else { throw unexpected(nil, expected: "a value") }
            var completed = true
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                if depth + frames.count + 1 > limits.maxDepth {
                    throw errorHere(.limit, "nesting deeper than \(limits.maxDepth)")
                }
                let container =
                    store
                    ? try appendNode(node(isObject ? .object : .array, name: name), isLeaf: false, first: first) : -1
                input.position += 1
                frames.append(Frame(node: container, isObject: isObject))
                let next = try skipWhitespace()
                if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    input.position += 1
                    if store { builder.close(container) }
                    frames.removeLast()
                } else {
                    completed = false
                    if isObject { name = try parseMemberName(store: store, afterComma: false) }
                }
            case UInt8(ascii: "\""):
                var leaf = node(.string, name: name)
                (leaf.valueStart, leaf.valueCount) = try parseString()
                try finishScalar(leaf, store: store, mark: mark, first: first)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var leaf = node(.number, name: name)
                (leaf.valueStart, leaf.valueCount) = try parseNumber()
                try finishScalar(leaf, store: store, mark: mark, first: first)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                var leaf = node(.null, name: name)
                (leaf.kind, leaf.valueStart, leaf.valueCount) = try parseLiteral(byte)
                try finishScalar(leaf, store: store, mark: mark, first: first)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                throw afterComma
                    ? errorHere(.syntax, "trailing comma") : unexpected(byte, expected: "a value")
            default:
                throw unexpected(byte, expected: "a value")
            }
            afterComma = false
            guard completed else { continue }
            // A value is complete: close containers or move to the next member or element.
            while let frame = frames.last {
                let closing = frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let next = try skipWhitespace()
                if next == comma {
                    input.position += 1
                    afterComma = true
                    if frame.isObject { name = try parseMemberName(store: store, afterComma: true) }
                    break
                }
                guard next == closing else {
                    throw unexpected(next, expected: frame.isObject ? "',' or '}'" : "',' or ']'")
                }
                input.position += 1
                if store { builder.close(frame.node) }
                frames.removeLast()
            }
            if frames.isEmpty { return }
        }
    }

    /// Parses `"key" :` and returns the key's range (store mode) or drops it.
    mutating func parseMemberName(store: Bool, afterComma: Bool) throws(RecordReaderError) -> (
        start: Int32, count: Int32
    ) {
        let byte = try skipWhitespace()
        guard byte == UInt8(ascii: "\"") else {
            if afterComma, byte == UInt8(ascii: "}") { throw errorHere(.syntax, "trailing comma") }
            throw unexpected(byte, expected: "a string key")
        }
        let mark = builder.byteCount
        let key = try parseString()
        try expectColon()
        if !store {
            builder.truncateBytes(to: mark)
            return (0, -1)
        }
        return key
    }

    /// Consumes the `:` after a key.
    mutating func expectColon() throws(RecordReaderError) {
        let byte = try skipWhitespace()
        guard byte == colon else { throw unexpected(byte, expected: "':'") }
        input.position += 1
    }

    @inline(__always)
    private mutating func finishScalar(_ leaf: Node, store: Bool, mark: Int, first: Node) throws(RecordReaderError) {
        if store {
            try appendNode(leaf, isLeaf: true, first: first)
            try checkRecordSize(start: first)
        } else {
            builder.truncateBytes(to: mark)
        }
    }

    @inline(__always)
    @discardableResult
    private mutating func appendNode(_ entry: Node, isLeaf: Bool, first: Node) throws(RecordReaderError) -> Int32 {
        // The record's own node (node 0) is not one of its values.
        if builder.nodeCount > limits.maxValuesPerRecord {
            throw error(.limit, "more than \(limits.maxValuesPerRecord) values in a record", at: first)
        }
        return builder.appendNode(entry, isLeaf: isLeaf)
    }
}
