// Helpers shared by the RecordReaders tests: reading whole inputs at several chunk sizes
// (every result must be the same whatever the chunk boundaries), a canonical dump of records,
// and a seeded random generator for property tests.
import Testing

@testable import RecordReaders

/// Chunk sizes every conformance case is read with: single bytes, odd splits, one big chunk.
let chunkSizes = [1, 2, 3, 7, 64 * 1024]

/// Reads every record of `text` as `format`; every chunk size must give the same outcome.
func readAll(
    _ text: String, format: RecordFormat, options: ReaderOptions = ReaderOptions(),
    sizes: [Int] = chunkSizes, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [SourceRecord] {
    try readAll(Array(text.utf8), format: format, options: options, sizes: sizes, sourceLocation: sourceLocation)
}

/// Reads every record of `bytes` as `format` at each chunk size; checks they agree.
func readAll(
    _ bytes: [UInt8], format: RecordFormat, options: ReaderOptions = ReaderOptions(),
    sizes: [Int] = chunkSizes, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [SourceRecord] {
    var outcomes: [Result<[SourceRecord], RecordReaderError>] = []
    for chunkSize in sizes {
        var options = options
        options.chunkSize = chunkSize
        outcomes.append(Result { () throws(RecordReaderError) in try readRecords(bytes, format, options) })
    }
    let rendered = outcomes.map(render)
    for (index, other) in rendered.enumerated().dropFirst() {
        #expect(
            other == rendered[0], "chunk size \(sizes[index]) differs from \(sizes[0])",
            sourceLocation: sourceLocation)
    }
    return try outcomes.last!.get()
}

/// The error reading `text` gives (the same at every chunk size), or `nil` if none.
func readError(
    _ text: String, format: RecordFormat, options: ReaderOptions = ReaderOptions(),
    sizes: [Int] = chunkSizes, sourceLocation: SourceLocation = #_sourceLocation
) -> RecordReaderError? {
    readError(Array(text.utf8), format: format, options: options, sizes: sizes, sourceLocation: sourceLocation)
}

/// The error reading `bytes` gives (the same at every chunk size), or `nil` if none.
func readError(
    _ bytes: [UInt8], format: RecordFormat, options: ReaderOptions = ReaderOptions(),
    sizes: [Int] = chunkSizes, sourceLocation: SourceLocation = #_sourceLocation
) -> RecordReaderError? {
    do {
        _ = try readAll(bytes, format: format, options: options, sizes: sizes, sourceLocation: sourceLocation)
        return nil
    } catch {
        return error as? RecordReaderError
    }
}

private func readRecords(_ bytes: [UInt8], _ format: RecordFormat, _ options: ReaderOptions) throws(RecordReaderError)
    -> [SourceRecord]
{
    var reader = try RecordReaderFactory.open(.bytes(bytes, name: "test.\(format)"), format: format, options: options)
    var records: [SourceRecord] = []
    while let record = try reader.next() { records.append(record) }
    #expect(reader.bytesConsumed == bytes.count)
    #expect(reader.recordsRead == records.count)
    #expect(try reader.next() == nil)
    return records
}

private func render(_ outcome: Result<[SourceRecord], RecordReaderError>) -> String {
    switch outcome {
    case .success(let records):
        return records.map { "\($0.position) \(dump($0.value))" }.joined(separator: "\n")
    case .failure(let error):
        return "error: \(error)"
    }
}

/// A canonical, format-neutral rendering of a value: kind, name, bytes, children.
func dump(_ value: FieldValue) -> String {
    let name = value.name.map { "\($0)=" } ?? ""
    switch value.kind {
    case .list:
        return name + "[" + value.elements.map(dump).joined(separator: ", ") + "]"
    case .record:
        let fields = value.record?.fields.map(dump) ?? []
        let text = value.string.isEmpty ? "" : "\"\(value.string)\" "
        return name + "{" + text + fields.joined(separator: ", ") + "}"
    case .text:
        let children = value.record?.fields.map(dump) ?? []
        return name + "\"\(value.string)\"" + (children.isEmpty ? "" : "{" + children.joined(separator: ", ") + "}")
    case .number, .bool:
        return name + value.string
    case .null:
        return name + "null"
    }
}

/// Parses a path in a test (the path is known to be valid).
func path(_ text: String) -> FieldPath {
    try! FieldPath(parsing: text)
}

/// SplitMix64: a small seeded generator so property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

extension Optional where Wrapped == RecordReaderError {
    /// `line:column`, for compact position assertions.
    var lineColumn: String { map { "\($0.line):\($0.column)" } ?? "no error" }
    /// `line:column @byteOffset`.
    var lineColumnOffset: String { map { "\($0.line):\($0.column) @\($0.byteOffset)" } ?? "no error" }
    /// `line:column @byteOffset #recordNumber`: the whole position in one assertion.
    var position: String {
        map { "\($0.line):\($0.column) @\($0.byteOffset) #\($0.recordNumber)" } ?? "no error"
    }
}
