// Record: one record read from a source, or a nested record inside one.
// A Sendable value owning its bytes (shared storage, see RecordStorage.swift); cheap to copy.

/// One record: a CSV row, a JSON value selected by the record path, an NDJSON line, or an
/// XML element selected by the record path. Nested objects and elements are records too.
///
/// ```swift
/// var reader = try RecordReaderFactory.open(.file("items.json"), format: .json,
///                                          options: ReaderOptions(records: "items[*]"))
/// let sku = try FieldPath(parsing: "sku")
/// let aisle = try FieldPath(parsing: "location.aisle")
/// while let record = try reader.next() {
///     let key = record[sku]?.string
///     let aisleText = record[aisle]?.string
///     print(key ?? "", aisleText ?? "", record.position)
/// }
/// ```
public struct SourceRecord: Sendable {
    private let shared: SharedStorage
    let root: Int32

    init(storage: RecordStorage, root: Int32 = 0) {
        self.shared = SharedStorage(storage: storage)
        self.root = root
    }

    var storage: RecordStorage { shared.storage }

    /// Where the record starts, with its record number and JSON or XML path.
    public var position: SourcePosition { storage.position(of: root) }

    /// Where the record starts, in numbers only (no file name, no path built).
    public var place: SourcePlace { storage.place(of: root) }

    /// Which record path of its reader selected the record: 0 for `ReaderOptions.records`,
    /// `k + 1` for `ReaderOptions.additionalRecords[k]`.
    public var selection: Int { storage.context.selection }

    /// The shape of the record's root value (`.record` for rows, objects and elements).
    public var kind: ValueKind { storage.nodes[Int(root)].valueKind }

    /// The record as a value: its own text for an XML element, its scalar for a JSON scalar.
    public var value: FieldValue { FieldValue(storage: storage, node: root) }

    /// The value at `path`, or `nil` when nothing matches; several matches give a `.list`.
    public func value(at path: FieldPath) -> FieldValue? {
        switch storage.evaluate(path.steps, from: root, wholeText: path.text) {
        case .none: return nil
        case .one(let node): return FieldValue(storage: storage, node: node)
        case .many(let nodes): return FieldValue(storage: storage, node: nodes[0], matches: nodes)
        }
    }

    /// The value at `path` (see `value(at:)`).
    public subscript(path: FieldPath) -> FieldValue? { value(at: path) }

    /// Parses `path` and returns the value there; prefer a precompiled `FieldPath` in loops.
    public func value(at path: String) throws(PathSyntaxError) -> FieldValue? {
        value(at: try FieldPath(parsing: path))
    }

    /// The direct children: CSV fields in column order, JSON members or elements, XML
    /// attributes then child elements.
    public var fields: [FieldValue] {
        let entry = storage.nodes[Int(root)]
        var result: [FieldValue] = []
        var child = root + 1
        while child < entry.end {
            result.append(FieldValue(storage: storage, node: child))
            child = storage.nodes[Int(child)].end
        }
        return result
    }

    /// The number of direct children (for a CSV row, its number of fields).
    public var fieldCount: Int {
        let entry = storage.nodes[Int(root)]
        if entry.kind == .row { return Int(entry.end - root) - 1 }
        var total = 0
        var child = root + 1
        while child < entry.end {
            total += 1
            child = storage.nodes[Int(child)].end
        }
        return total
    }

    /// The element or member name of a nested record (XML element name, JSON key).
    public var name: String? { storage.name(of: root) }
}
