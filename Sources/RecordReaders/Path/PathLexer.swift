// PathLexer: splits field paths and record paths into steps. Shared by FieldPath and
// RecordPath so both accept one syntax: names separated by `.` or `/`, `"quoted names"`,
// `[n]` and `[*]` subscripts, and `@attribute` steps.

/// One step of a path.
enum PathStep: Sendable, Hashable {
    /// A JSON member or XML child element, by (local) name.
    case child([UInt8])
    /// An XML attribute, by local name.
    case attribute([UInt8])
    /// The element at a 0-based index of an array, or the n-th of several matches.
    case index(Int)
    /// Every element of an array.
    case wildcard
    /// A CSV column, 0-based.
    case column(Int)
    /// The value itself (`.`).
    case this
}

/// Parses the step syntax shared by field and record paths.
struct PathLexer {
    private let text: String
    private let bytes: [UInt8]
    private var index = 0

    private init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    /// Splits `text` into steps; `.` alone is `[.this]` and `#n` alone is a 1-based column.
    static func steps(of text: String) throws(PathSyntaxError) -> [PathStep] {
        var lexer = PathLexer(text)
        return try lexer.parse()
    }

    private func fail(_ reason: String) -> PathSyntaxError {
        PathSyntaxError(path: text, offset: index, reason: reason)
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "@"), UInt8(ascii: "\""):
            return true
        default:
            return false
        }
    }

    private mutating func parse() throws(PathSyntaxError) -> [PathStep] {
        if bytes.isEmpty { throw fail("empty path") }
        if bytes == [UInt8(ascii: ".")] { return [.this] }
        if bytes[0] == UInt8(ascii: "#") { return [.column(try parseColumn())] }
        var steps: [PathStep] = []
        var needStep = true  // at the start, or just after a separator
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "/"):
                if needStep { throw fail("expected a name") }
                index += 1
                needStep = true
            case UInt8(ascii: "["):
                index += 1
                steps.append(try parseSubscript())
                needStep = false
            case UInt8(ascii: "@"):
                index += 1
                steps.append(.attribute(try parseName()))
                if index < bytes.count { throw fail("an attribute ends the path") }
                needStep = false
            case UInt8(ascii: "]"):
                throw fail("unexpected ']'")
            default:
                if !needStep { throw fail("expected '.', '/' or '['") }
                steps.append(.child(try parseName()))
                needStep = false
            }
        }
        if needStep { throw fail("expected a name") }
        return steps
    }

    private mutating func parseColumn() throws(PathSyntaxError) -> Int {
        index = 1
        var value = 0
        while index < bytes.count, let digit = PathLexer.digit(bytes[index]) {
            if value > 1_000_000_000 { throw fail("column number too large") }
            value = value * 10 + digit
            index += 1
        }
        if index == 1 || index < bytes.count { throw fail("expected a column number") }
        if value < 1 { throw fail("columns are numbered from 1") }
        return value - 1
    }

    private mutating func parseSubscript() throws(PathSyntaxError) -> PathStep {
        if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
            index += 1
            try expect(UInt8(ascii: "]"))
            return .wildcard
        }
        let start = index
        var value = 0
        while index < bytes.count, let digit = PathLexer.digit(bytes[index]) {
            if value > 1_000_000_000 { throw fail("index too large") }
            value = value * 10 + digit
            index += 1
        }
        if index == start { throw fail("expected an index or '*'") }
        try expect(UInt8(ascii: "]"))
        return .index(value)
    }

    private mutating func expect(_ byte: UInt8) throws(PathSyntaxError) {
        guard index < bytes.count, bytes[index] == byte else {
            throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    /// A bare name up to the next special character, or a `"quoted name"` with `\"` and `\\`.
    private mutating func parseName() throws(PathSyntaxError) -> [UInt8] {
        guard index < bytes.count else { throw fail("expected a name") }
        if bytes[index] == UInt8(ascii: "\"") { return try parseQuotedName() }
        let start = index
        while index < bytes.count, !PathLexer.isSpecial(bytes[index]) { index += 1 }
        if index == start { throw fail("expected a name") }
        return Array(bytes[start..<index])
    }

    private mutating func parseQuotedName() throws(PathSyntaxError) -> [UInt8] {
        index += 1
        var name: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return name }
            if byte == UInt8(ascii: "\\") {
                guard index < bytes.count else { break }
                name.append(bytes[index])
                index += 1
            } else {
                name.append(byte)
            }
        }
        throw fail("unterminated quoted name")
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
