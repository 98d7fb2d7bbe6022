// Writers for exported objects, one per format, each streaming rows to a file handle.
// Invariant: what a writer writes reads back through the matching RecordReaders reader with
// fields named after the properties (the round trip of docs/CLI.md).
import Foundation
import GraphStore

/// Writes exported rows.
protocol ExportWriter {
    mutating func begin(entity: String, columns: [String]) throws
    mutating func write(_ row: ExportRow) throws
    mutating func end() throws
}

/// Buffers output and writes it to a file handle in large chunks.
struct OutputBuffer {
    private let handle: FileHandle
    private var bytes: [UInt8] = []

    init(handle: FileHandle) {
        self.handle = handle
        bytes.reserveCapacity(1 << 16)
    }

    mutating func append(_ text: String) throws {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try handle.write(contentsOf: bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

/// CSV with a header; nulls are empty fields and empty strings `""`; lists are `;`-joined.
struct CSVExportWriter: ExportWriter {
    var output: OutputBuffer

    mutating func begin(entity: String, columns: [String]) throws {
        try output.append(columns.map(Self.quoted).joined(separator: ",") + "\n")
    }

    mutating func write(_ row: ExportRow) throws {
        let fields = row.values.map { value -> String in
            switch value {
            case .text(let text): return text.map(Self.quoted) ?? ""
            case .literal(let text): return text
            case .list(let keys): return Self.quoted(keys.joined(separator: ";"))
            }
        }
        try output.append(fields.joined(separator: ",") + "\n")
    }

    mutating func end() throws { try output.flush() }

    static func quoted(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// JSON: an array of objects, or one object per line (NDJSON).
struct JSONExportWriter: ExportWriter {
    var output: OutputBuffer
    let lines: Bool
    private var columns: [String] = []
    private var first = true

    init(output: OutputBuffer, lines: Bool) {
        self.output = output
        self.lines = lines
    }

    mutating func begin(entity: String, columns: [String]) throws {
        self.columns = columns
        if !lines { try output.append("[\n") }
    }

    mutating func write(_ row: ExportRow) throws {
        let members = zip(columns, row.values).map { name, value -> String in
            let rendered: String
            switch value {
            case .text(let text): rendered = text.map(Self.string) ?? "null"
            case .literal(let text): rendered = text
            case .list(let keys): rendered = "[" + keys.map(Self.string).joined(separator: ",") + "]"
            }
            return Self.string(name) + ":" + rendered
        }
        let object = "{" + members.joined(separator: ",") + "}"
        if lines {
            try output.append(object + "\n")
        } else {
            try output.append((first ? "" : ",\n") + object)
        }
        first = false
    }

    mutating func end() throws {
        if !lines { try output.append(first ? "]\n" : "\n]\n") }
        try output.flush()
    }

    static func string(_ text: String) -> String {
        JSONString.quoted(text)
    }
}

/// XML: `<export entity="E"><E><attr>…</attr><rel>key</rel><rel>key</rel></E>…</export>`.
struct XMLExportWriter: ExportWriter {
    var output: OutputBuffer
    private var entity = ""
    private var columns: [String] = []

    init(output: OutputBuffer) {
        self.output = output
    }

    mutating func begin(entity: String, columns: [String]) throws {
        self.entity = entity
        self.columns = columns
        try output.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<export entity=\"\(Self.escaped(entity))\">\n")
    }

    mutating func write(_ row: ExportRow) throws {
        var element = "  <\(entity)>"
        for (name, value) in zip(columns, row.values) {
            switch value {
            case .text(let text?), .literal(let text): element += "<\(name)>\(Self.escaped(text))</\(name)>"
            case .text(nil): break
            case .list(let keys): element += keys.map { "<\(name)>\(Self.escaped($0))</\(name)>" }.joined()
            }
        }
        try output.append(element + "</\(entity)>\n")
    }

    mutating func end() throws {
        try output.append("</export>\n")
        try output.flush()
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            default: result.append(character)
            }
        }
        return result
    }
}
