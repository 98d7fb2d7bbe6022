// RecordArchive: a record (or the error of a broken record) as bytes and back, for programs that
// keep records aside on disk (an import sets aside the records it must apply after the load, and
// spills the records of a file's later sources while its first source reads it) and read them
// in a later step, or a later process.
// Format (versioned; integers as zigzag LEB128 varints, so small numbers take a byte): the
// context (file, record number, path style, prefix and index, CSV header names), the root
// node, the node table field by field, the byte buffer.
// Invariant: `SourceRecord(archive:)` gives a record equal to the archived one in every value,
// name and position; it checks every count and range and returns nil for bytes that are not
// such an archive, whatever they hold.

extension SourceRecord {
    private static let archiveVersion: UInt8 = 2

    /// The record as bytes that ``init(archive:)`` turns back into an equal record.
    ///
    /// ```swift
    /// let bytes = record.archived()
    /// let same = SourceRecord(archive: bytes)   // same values, names and positions
    /// ```
    public func archived() -> [UInt8] {
        let storage = self.storage
        var writer = ArchiveWriter()
        writer.byte(Self.archiveVersion)
        let context = storage.context
        writer.string(context.file)
        writer.integer(Int64(context.recordNumber))
        switch context.pathStyle {
        case .none: writer.byte(0)
        case .json: writer.byte(1)
        case .xml: writer.byte(2)
        }
        writer.string(context.pathPrefix)
        writer.integer(Int64(context.pathIndex))
        writer.integer(Int64(context.columns?.names.count ?? -1))
        for name in context.columns?.names ?? [] { writer.string(name) }
        writer.integer(Int64(root))
        let nodes = storage.nodes
        writer.integer(Int64(nodes.count))
        for index in 0..<nodes.count {
            let node = nodes[index]
            writer.byte(node.kind.rawValue)
            writer.byte(node.flags)
            for field in [
                Int64(node.namespaceCount), Int64(node.nameStart), Int64(node.nameCount), Int64(node.valueStart),
                Int64(node.valueCount), Int64(node.end), Int64(node.line), Int64(node.column), Int64(node.offset),
            ] {
                writer.integer(field)
            }
        }
        let byteCount = storage.withUnsafeMutablePointerToHeader { $0.pointee.byteCount }
        writer.integer(Int64(byteCount))
        storage.withBytes(start: 0, count: Int32(byteCount)) { writer.bytes.append(contentsOf: $0) }
        return writer.bytes
    }

    /// The record `archive` holds (made by ``archived()``), or nil when it holds no such record.
    public init?(archive: [UInt8]) {
        var reader = ArchiveReader(bytes: archive)
        guard reader.byte() == Self.archiveVersion, let file = reader.string(), let number = reader.integer(),
            let style = reader.byte(), let prefix = reader.string(), let pathIndex = reader.integer(),
            let columnCount = reader.integer(), columnCount >= -1, columnCount < Int64(archive.count)
        else { return nil }
        var context = RecordContext(file: file, recordNumber: Int(number))
        switch style {
        case 0: context.pathStyle = .none
        case 1: context.pathStyle = .json
        case 2: context.pathStyle = .xml
        default: return nil
        }
        context.pathPrefix = prefix
        context.pathIndex = Int(pathIndex)
        if columnCount >= 0 {
            var names: [String] = []
            for _ in 0..<columnCount {
                guard let name = reader.string() else { return nil }
                names.append(name)
            }
            context.columns = CSVColumns(names: names)
        }
        guard let root = reader.integer(), let nodeCount = reader.integer(), nodeCount > 0,
            nodeCount <= Int64(archive.count), root >= 0, root < nodeCount
        else { return nil }
        var nodes: [Node] = []
        nodes.reserveCapacity(Int(nodeCount))
        for _ in 0..<nodeCount {
            guard let node = reader.node() else { return nil }
            nodes.append(node)
        }
        guard let byteCount = reader.integer(), byteCount >= 0, let bytes = reader.take(Int(byteCount)),
            reader.isAtEnd, Self.isValid(nodes, byteCount: Int(byteCount))
        else { return nil }
        let storage = nodes.withUnsafeBufferPointer { nodeBuffer in
            bytes.withUnsafeBufferPointer { byteBuffer in
                RecordStorage.make(
                    nodes: nodeBuffer, bytes: byteBuffer, moreBytes: UnsafeBufferPointer(start: nil, count: 0),
                    context: context)
            }
        }
        self.init(storage: storage, root: Int32(root))
    }

    /// Whether every node's subtree and byte ranges lie inside the record.
    private static func isValid(_ nodes: [Node], byteCount: Int) -> Bool {
        for (index, node) in nodes.enumerated() {
            let nameStart = Int(node.nameStart) - Int(node.namespaceCount)
            guard Int(node.end) > index, Int(node.end) <= nodes.count,
                node.valueStart >= 0, node.valueCount >= 0, Int(node.valueStart) + Int(node.valueCount) <= byteCount,
                !node.hasName || (nameStart >= 0 && Int(node.nameStart) + Int(node.nameCount) <= byteCount)
            else { return false }
        }
        return true
    }
}

extension RecordReaderError {
    private static let archiveVersion: UInt8 = 1

    /// The error, with its position and broken record, as bytes that ``init(archive:)`` turns
    /// back into an equal error.
    public func archived() -> [UInt8] {
        var writer = ArchiveWriter()
        writer.byte(Self.archiveVersion)
        writer.string(kind.rawValue)
        writer.string(reason)
        writer.string(file)
        for field in [line, column, byteOffset, recordNumber] { writer.integer(Int64(field)) }
        if let brokenRecord {
            let position = brokenRecord.position
            writer.byte(1)
            writer.string(position.file)
            for field in [position.line, position.column, position.byteOffset, position.recordNumber] {
                writer.integer(Int64(field))
            }
            writer.string(position.path)
            writer.integer(Int64(brokenRecord.bytes.count))
            writer.bytes.append(contentsOf: brokenRecord.bytes)
        } else {
            writer.byte(0)
        }
        return writer.bytes
    }

    /// The error `archive` holds (made by ``archived()``), or nil when it holds no such error.
    public init?(archive: [UInt8]) {
        var reader = ArchiveReader(bytes: archive)
        guard reader.byte() == Self.archiveVersion, let kindName = reader.string(),
            let kind = Kind(rawValue: kindName), let reason = reader.string(), let file = reader.string(),
            let place = reader.place(), let hasBroken = reader.byte()
        else { return nil }
        self.init(
            kind, reason, file: file, line: place.line, column: place.column, byteOffset: place.byteOffset,
            recordNumber: place.recordNumber)
        guard hasBroken == 1 else {
            guard hasBroken == 0, reader.isAtEnd else { return nil }
            return
        }
        guard let brokenFile = reader.string(), let brokenPlace = reader.place(), let path = reader.string(),
            let count = reader.integer(), let bytes = reader.take(Int(clamping: count)), reader.isAtEnd
        else { return nil }
        var position = brokenPlace.position(in: brokenFile)
        position.path = path
        brokenRecord = BrokenRecord(position: position, bytes: Array(bytes))
    }
}

/// Appends the fields of an archive.
private struct ArchiveWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func integer(_ value: Int64) {
        var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ value: String) {
        integer(Int64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
}

/// Reads the fields of an archive, nil past its end.
private struct ArchiveReader {
    let bytes: [UInt8]
    private var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte() -> UInt8? {
        take(1)?.first
    }

    mutating func integer() -> Int64? {
        var zigzag: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = byte() {
            guard shift < 64 else { return nil }
            zigzag |= UInt64(byte & 0x7F) << shift
            guard byte & 0x80 != 0 else {
                return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
            }
            shift += 7
        }
        return nil
    }

    /// Line, column, byte offset and record number.
    mutating func place() -> SourcePlace? {
        guard let line = int(), let column = int(), let offset = int(), let number = int() else {
            return nil
        }
        return SourcePlace(line: line, column: column, byteOffset: offset, recordNumber: number)
    }

    private mutating func int() -> Int? {
        integer().flatMap { Int(exactly: $0) }
    }

    mutating func string() -> String? {
        guard let count = integer(), count >= 0, count <= Int64(Int.max), let slice = take(Int(count)) else {
            return nil
        }
        return String(validating: slice, as: UTF8.self)
    }

    mutating func node() -> Node? {
        guard let kindByte = byte(), let kind = NodeKind(rawValue: kindByte), let flags = byte() else { return nil }
        var fields: [Int64] = []
        for _ in 0..<9 {
            guard let field = integer() else { return nil }
            fields.append(field)
        }
        guard let namespaceCount = UInt16(exactly: fields[0]), let nameStart = Int32(exactly: fields[1]),
            let nameCount = Int32(exactly: fields[2]), let valueStart = Int32(exactly: fields[3]),
            let valueCount = Int32(exactly: fields[4]), let end = Int32(exactly: fields[5]),
            let line = Int32(exactly: fields[6]), let column = Int32(exactly: fields[7]),
            let offset = Int(exactly: fields[8])
        else { return nil }
        return Node(
            kind: kind, flags: flags, namespaceCount: namespaceCount, nameStart: nameStart, nameCount: nameCount,
            valueStart: valueStart, valueCount: valueCount, end: end, line: line, column: column, offset: offset)
    }
}
