// FieldValue: a view of one value of a record (or of several, for a list match).
// It shares the record's storage: reading its bytes allocates nothing; `string`, `elements`
// and `position` allocate only when called.

/// A value found in a record: a scalar's bytes, a list, or a nested record.
///
/// ```swift
/// if let price = record[pricePath] {
///     let cents = price.withUTF8 { bytes in parseCents(bytes) }   // no allocation
///     print(price.kind, price.string)
/// }
/// for tag in record[tagsPath]?.elements ?? [] { print(tag.string) }
/// if let location = record[locationPath]?.record { print(location[aislePath]?.string ?? "") }
/// ```
public struct FieldValue: Sendable {
    private let shared: SharedStorage
    let node: Int32
    /// The matched nodes when a path matched more than one.
    let matches: [Int32]?

    init(storage: RecordStorage, node: Int32, matches: [Int32]? = nil) {
        self.shared = SharedStorage(storage: storage)
        self.node = node
        self.matches = matches
    }

    var storage: RecordStorage { shared.storage }

    private var entry: Node { storage.nodes[Int(node)] }

    /// The shape of the value.
    public var kind: ValueKind { matches == nil ? entry.valueKind : .list }

    /// Calls `body` with the value's UTF-8 bytes, without copying: a string's unescaped text,
    /// a number's or boolean's source text, an XML element's own text. Empty for `null`,
    /// JSON objects and arrays, and lists of several matches.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard matches == nil else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let entry = self.entry
        return try storage.withBytes(start: entry.valueStart, count: entry.valueCount, body)
    }

    /// The value's bytes as a string (see `withUTF8`).
    public var string: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }

    /// The number of bytes `withUTF8` gives.
    public var byteCount: Int { matches == nil ? Int(entry.valueCount) : 0 }

    /// The JSON key, XML element or attribute local name, or CSV header name of the value.
    public var name: String? { storage.name(of: node) }

    /// The namespace URI of an XML element or attribute, when it has one.
    public var namespaceURI: String? {
        let entry = self.entry
        guard entry.namespaceCount > 0 else { return nil }
        let count = Int32(entry.namespaceCount)
        return storage.withBytes(start: entry.nameStart - count, count: count) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Whether the value is an XML attribute.
    public var isAttribute: Bool { matches == nil && entry.kind == .attribute }

    /// Whether the value is an empty, unquoted CSV field: no value at all, as opposed to `""`.
    public var isEmptyCSVField: Bool {
        matches == nil && entry.kind == .field && entry.valueCount == 0 && entry.flags & Node.quotedFlag == 0
    }

    /// Whether a CSV field was quoted in the source (tells `""` from an empty field).
    public var isQuoted: Bool { matches == nil && entry.flags & Node.quotedFlag != 0 }

    /// Whether the value is JSON `null`.
    public var isNull: Bool { kind == .null }

    /// The values of a list: the elements of a JSON array, or every match of a path that
    /// matched several values; a single value for anything else.
    public var elements: [FieldValue] {
        var result: [FieldValue] = []
        forEachElement { result.append($0) }
        return result
    }

    /// Calls `body` with each value of `elements`, in order, without making the array.
    public func forEachElement<Failure: Error>(_ body: (FieldValue) throws(Failure) -> Void) throws(Failure) {
        if let matches {
            for match in matches { try body(FieldValue(storage: storage, node: match)) }
            return
        }
        let entry = self.entry
        guard entry.kind == .array else { return try body(self) }
        var child = node + 1
        while child < entry.end {
            try body(FieldValue(storage: storage, node: child))
            child = storage.nodes[Int(child)].end
        }
    }

    /// The number of values in `elements`, counted without allocating.
    public var count: Int {
        if let matches { return matches.count }
        let entry = self.entry
        guard entry.kind == .array else { return 1 }
        var total = 0
        var child = node + 1
        while child < entry.end {
            total += 1
            child = storage.nodes[Int(child)].end
        }
        return total
    }

    /// The value as a nested record: a JSON object or an XML element (which also exposes its
    /// own text as `.`). `nil` for scalars, arrays and lists; see `records`.
    public var record: SourceRecord? {
        guard matches == nil else { return nil }
        switch entry.kind {
        case .object, .element: return SourceRecord(storage: storage, root: node)
        default: return nil
        }
    }

    /// The nested records of the value: each object or element of a list or array, or the
    /// value itself when it is one.
    public var records: [SourceRecord] { elements.compactMap(\.record) }

    /// Where the value starts (the first match of a list), in numbers only (no file name, no
    /// path built).
    public var place: SourcePlace { storage.place(of: matches?.first ?? node) }

    /// Where the value starts in the source, with its JSON or XML path
    /// (for a list of matches, the first match).
    public var position: SourcePosition { storage.position(of: matches?.first ?? node) }
}
