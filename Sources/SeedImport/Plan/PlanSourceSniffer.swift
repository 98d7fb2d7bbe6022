// Catches "a format the file is not" before an import starts: looks at the first non-blank bytes
// of a source file (inflated, for gzip) and says when they cannot begin the format the plan
// names (`format: xml` on a file starting with `{`).
// Invariants: looks at most at `prefixLength` bytes of text; only reports clear mismatches (an empty file,
// or one that could be either, is left to the reader), so it never rejects a valid file.
import Foundation
import RecordReaders

/// First-bytes checks of source files.
enum PlanSourceSniffer {
    /// How many bytes are read to find the first non-blank one.
    static let prefixLength = 4096

    /// What the start of a file looks like.
    enum Look: Equatable {
        /// `{` or `[`.
        case json
        /// `<`, as XML documents start.
        case xml
        /// Anything else: a header row or data.
        case text
    }

    /// Why the file at `path` cannot be `format`, or nil when it may be (or cannot be read).
    /// A gzip file is looked at inflated.
    static func mismatch(at path: String, format: RecordFormat) -> String? {
        guard let bytes = try? InputSource.file(path).prefix(prefixLength) else { return nil }
        return mismatch(in: Data(bytes), format: format)
    }

    /// Why a file starting with `bytes` cannot be `format`, or nil when it may be.
    static func mismatch(in bytes: Data, format: RecordFormat) -> String? {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }  // UTF-8 byte order mark
        guard let first = bytes[start...].firstIndex(where: { !isBlank($0) }) else { return nil }
        let look = classify(bytes[first])
        let isXMLDeclaration = bytes[first...].starts(with: Array("<?xml".utf8))
        let fits: Bool
        switch format {
        case .json, .ndjson: fits = look == .json
        case .xml: fits = look == .xml
        case .csv, .tsv: fits = bytes[first] != UInt8(ascii: "{") && !isXMLDeclaration
        }
        guard !fits else { return nil }
        let shown = String(decoding: bytes[first...].prefix(12).prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        return "starts with '\(shown)', so it is not \(format.rawValue)\(likely(look))"
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func classify(_ byte: UInt8) -> Look {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["): .json
        case UInt8(ascii: "<"): .xml
        default: .text
        }
    }

    private static func likely(_ look: Look) -> String {
        switch look {
        case .json: " (it looks like JSON)"
        case .xml: " (it looks like XML)"
        case .text: " (it looks like CSV or text)"
        }
    }
}
