// The rejects file of a `skip` run: one JSON line per refused record with its position, reason
// and the record's fields, so it can be fixed and imported again.
import Foundation
import RecordReaders

/// Appends rejected records to a JSON-lines file.
final class RejectsFile {
    private let handle: FileHandle
    private let encoder: JSONEncoder

    /// Creates (or empties) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw RecordError(
                position: SourcePosition(file: path, line: 0, column: 0, byteOffset: 0, recordNumber: 0, path: ""),
                message: "cannot create the rejects file")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit {
        try? handle.close()
    }

    /// Writes one line for `error`, with the record's top-level fields when known.
    func write(_ error: RecordError, record: SourceRecord?) throws {
        let line = Line(error: error, record: record.map(Self.fields))
        var data = try encoder.encode(line)
        data.append(UInt8(ascii: "\n"))
        try handle.write(contentsOf: data)
    }

    private struct Line: Encodable {
        let error: RecordError
        let record: [String: String]?

        func encode(to encoder: any Encoder) throws {
            try error.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(record, forKey: .record)
        }

        private enum Key: String, CodingKey {
            case record
        }
    }

    private static func fields(of record: SourceRecord) -> [String: String] {
        var fields: [String: String] = [:]
        for (index, field) in record.fields.enumerated() {
            fields[field.name ?? "#\(index + 1)"] = field.kind == .record || field.kind == .list ? "…" : field.string
        }
        return fields
    }
}
