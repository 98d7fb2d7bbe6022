// JSONReader: records selected from one JSON document by a records path (or several disjoint
// ones, read in one pass: ReaderOptions.additionalRecords).
//
// The reader walks the document with an explicit stack of the containers that lie on a
// records path; anything off every path is parsed only to validate it, and each selected
// value is parsed into one record. Invariants: at most one record's values are held at a
// time; the containers on the paths are bounded by the depth limit; a records path that
// reaches no container in a well-formed document is an error (a likely typo), while an
// empty selected array, or a missing last key, gives zero records; record numbers count
// each path's records apart.

/// Reads the records of a JSON document.
///
/// ```swift
/// var reader = try JSONReader(.file("catalog.json"), options: ReaderOptions(records: "items[*]"))
/// while let item = try reader.next() { print(item.position.path) }   // items[0], items[1], …
/// ```
public struct JSONReader: RecordReader {
    private var parser: JSONParser
    /// `ReaderOptions.records`, then `additionalRecords`.
    private let paths: [JSONRecordPath]
    private var containers: [Container] = []
    private var phase = Phase.start
    /// Whether each path reached its records' container (or a record).
    private var reached: [Bool]
    /// Records each path selected so far (their record numbers).
    private var selected: [Int]
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Bytes of the input consumed so far (compressed bytes for gzip input).
    public var bytesConsumed: Int { parser.input.bytesConsumed }
    /// The input's name.
    public var fileName: String { parser.input.name }

    /// An open container on the records path.
    private struct Container {
        var isObject: Bool
        /// Path steps matched to reach this container.
        var level: Int
        /// The record paths it lies on (for a container of records, the one whose records they are).
        var paths: RecordPathSet
        /// Its elements are records (a selected array).
        var holdsRecords: Bool
        /// The index of the current element (arrays).
        var index = -1
        /// The container's own path (`data.rows`), for record positions.
        var path: String
    }

    /// Where the walk stands between calls to `next`.
    private enum Phase {
        case start
        /// A value comes next; `level` is how many steps of `paths` it matches (none: off every path).
        case value(level: Int, paths: RecordPathSet, path: PathSegment)
        case firstInContainer
        case afterValue
        case done
    }

    /// How a value is reached from its container, for its path string.
    private enum PathSegment {
        case root
        case key(path: Int, step: Int)  // the records-path step whose key it is
        case index(Int)
    }

    /// Opens `source`; `options.records` (and `additionalRecords`) select the records (see
    /// `ReaderOptions.records`).
    public init(_ source: InputSource, options: ReaderOptions = ReaderOptions()) throws(RecordReaderError) {
        let texts = [options.records] + options.additionalRecords
        do {
            paths = try texts.map { text throws(PathSyntaxError) in try JSONRecordPath(text) }
        } catch {
            throw RecordReaderError(.configuration, error.description, file: source.name)
        }
        guard RecordReaderFactory.canSelectTogether(texts, format: .json) else {
            throw RecordReaderError(
                .configuration,
                "records paths that overlap cannot be read in one pass: "
                    + paths.map(\.text).joined(separator: ", "), file: source.name)
        }
        reached = Array(repeating: false, count: paths.count)
        selected = Array(repeating: 0, count: paths.count)
        parser = try JSONParser(source, options: options)
    }

    /// The next record, or `nil` at the end of the document.
    public mutating func next() throws(RecordReaderError) -> SourceRecord? {
        parser.builder.prepareForWriting()
        do {
            return try advance()
        } catch {
            phase = .done
            throw error
        }
    }

    private mutating func advance() throws(RecordReaderError) -> SourceRecord? {
        while true {
            parser.recordNumber = selected[0] + 1
            switch phase {
            case .done:
                return nil
            case .start:
                try parser.skipByteOrderMark()
                guard try parser.skipWhitespace() != nil else {
                    throw parser.errorHere(.syntax, "empty document")
                }
                phase = .value(level: 0, paths: .first(paths.count), path: .root)
            case .value(let level, let alive, let segment):
                phase = .afterValue
                if let record = try visitValue(level: level, paths: alive, segment: segment) { return record }
            case .firstInContainer:
                try enterFirstChild()
            case .afterValue:
                guard try moveToNextChild() else {
                    phase = .done
                    return nil
                }
            }
        }
    }

    /// Parses, enters or skips the value at the current position.
    private mutating func visitValue(level: Int, paths alive: RecordPathSet, segment: PathSegment)
        throws(RecordReaderError) -> SourceRecord?
    {
        guard !alive.isEmpty, let byte = try parser.skipWhitespace() else {
            try parser.parseValue(store: false, depth: containers.count)
            return nil
        }
        let isArray = byte == UInt8(ascii: "[")
        let isObject = byte == UInt8(ascii: "{")
        // Disjoint paths: a path that ends here is the only one still matching.
        if let complete = alive.filter({ paths[$0].steps.count == level }).lowest {
            reached[complete] = true
            let expandable = containers.last.map { !$0.holdsRecords } ?? true
            if isArray && paths[complete].expandsArray && expandable {
                try enter(isObject: false, level: level, paths: .only(complete), holdsRecords: true, segment: segment)
                return nil
            }
            return try readRecord(selection: complete, segment: segment)
        }
        let deeper = alive.filter { index in
            switch paths[index].steps[level] {
            case .key: return isObject
            case .wildcard, .index: return isArray
            }
        }
        if deeper.isEmpty {
            try parser.parseValue(store: false, depth: containers.count)
        } else {
            try enter(isObject: isObject, level: level, paths: deeper, holdsRecords: false, segment: segment)
        }
        return nil
    }

    private mutating func enter(
        isObject: Bool, level: Int, paths alive: RecordPathSet, holdsRecords: Bool, segment: PathSegment
    ) throws(RecordReaderError) {
        if containers.count + 1 > parser.limits.maxDepth {
            throw parser.errorHere(.limit, "nesting deeper than \(parser.limits.maxDepth)")
        }
        let ownPath = pathString(segment)
        alive.forEach { index in
            if level + 1 >= paths[index].steps.count { reached[index] = true }  // the records' container exists
        }
        parser.input.position += 1
        containers.append(
            Container(isObject: isObject, level: level, paths: alive, holdsRecords: holdsRecords, path: ownPath))
        phase = .firstInContainer
    }

    /// Handles the first member or element of the container just entered.
    private mutating func enterFirstChild() throws(RecordReaderError) {
        guard let container = containers.last else { return }
        let closing = container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if try parser.skipWhitespace() == closing {
            parser.input.position += 1
            containers.removeLast()
            phase = .afterValue
            return
        }
        try beginChild(afterComma: false)
    }

    /// After a value: moves to the next member or element, closing finished containers.
    /// Returns `false` at the end of the document.
    private mutating func moveToNextChild() throws(RecordReaderError) -> Bool {
        guard let container = containers.last else {
            if let byte = try parser.skipWhitespace() {
                throw parser.unexpected(byte, expected: "the end of the document")
            }
            if let missing = reached.firstIndex(of: false) {
                throw parser.errorHere(.structure, "the records path \(paths[missing].text) matches nothing")
            }
            return false
        }
        let byte = try parser.skipWhitespace()
        if byte == UInt8(ascii: ",") {
            parser.input.position += 1
            try beginChild(afterComma: true)
        } else if byte == (container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            parser.input.position += 1
            containers.removeLast()
        } else {
            throw parser.unexpected(byte, expected: container.isObject ? "',' or '}'" : "',' or ']'")
        }
        return true
    }

    /// Reads the key of the next member, or counts the next element, and decides how much of
    /// the records path the coming value matches.
    private mutating func beginChild(afterComma: Bool) throws(RecordReaderError) {
        let top = containers.count - 1
        let container = containers[top]
        if container.holdsRecords {
            containers[top].index += 1
            try rejectTrailingComma(afterComma)
            phase = .value(level: container.level, paths: container.paths, path: .index(containers[top].index))
            return
        }
        if container.isObject {
            let mark = parser.builder.byteCount
            let key = try parser.parseMemberName(store: true, afterComma: afterComma)
            let matching = container.paths.filter { index in
                guard case .key(let wanted) = paths[index].steps[container.level] else { return false }
                return parser.builder.withBytes { bytes in
                    bytes[Int(key.start)..<Int(key.start + key.count)].elementsEqual(wanted)
                }
            }
            parser.builder.truncateBytes(to: mark)
            phase = .value(
                level: container.level + 1, paths: matching,
                path: .key(path: matching.lowest ?? 0, step: container.level))
            return
        }
        containers[top].index += 1
        try rejectTrailingComma(afterComma)
        let index = containers[top].index
        let matching = container.paths.filter { path in
            switch paths[path].steps[container.level] {
            case .wildcard: return true
            case .index(let wanted): return wanted == index
            case .key: return false
            }
        }
        phase = .value(level: container.level + 1, paths: matching, path: .index(index))
    }

    private mutating func rejectTrailingComma(_ afterComma: Bool) throws(RecordReaderError) {
        if afterComma, try parser.skipWhitespace() == UInt8(ascii: "]") {
            throw parser.errorHere(.syntax, "trailing comma")
        }
    }

    /// Parses the value at the current position as one record.
    private mutating func readRecord(selection: Int, segment: PathSegment) throws(RecordReaderError) -> SourceRecord {
        try parser.parseValue(store: true, depth: containers.count)
        recordsRead += 1
        selected[selection] += 1
        var context = RecordContext(file: parser.input.name, recordNumber: selected[selection], pathStyle: .json)
        context.selection = selection
        if case .index(let index) = segment, let container = containers.last {
            context.pathPrefix = container.path
            context.pathIndex = index
        } else {
            context.pathPrefix = pathString(segment)
        }
        return SourceRecord(storage: parser.builder.finish(context: context))
    }

    /// The path of the value reached through `segment` from the innermost container.
    private func pathString(_ segment: PathSegment) -> String {
        let parent = containers.last?.path ?? ""
        switch segment {
        case .root:
            return ""
        case .index(let index):
            return "\(parent)[\(index)]"
        case .key(let path, let step):
            guard step < paths[path].steps.count, case .key(let name) = paths[path].steps[step] else { return parent }
            let key = String(decoding: name, as: UTF8.self)
            return parent.isEmpty ? key : "\(parent).\(key)"
        }
    }
}
