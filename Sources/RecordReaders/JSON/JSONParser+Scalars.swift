// JSONParser scalars: strings (escapes, surrogate pairs, UTF-8 validation), numbers (RFC 8259
// grammar, kept as written) and the literals true, false and null. Each appends its bytes to
// the builder and returns their range; callers truncate the bytes when skipping.

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

extension JSONParser {
    /// Parses the string starting at the current `"`; appends its unescaped bytes.
    mutating func parseString() throws(RecordReaderError) -> (start: Int32, count: Int32) {
        let start = node(.string, name: (0, -1))
        let valueStart = builder.byteCount
        // Escapes only ever append well-formed UTF-8; raw bytes need checking only when one is
        // not ASCII.
        var nonASCII = false
        input.position += 1
        while true {
            let base = input.base
            let limit = input.limit
            let first = input.position
            let cursor = ByteScanner.firstJSONStringStop(in: base, from: first, to: limit, nonASCII: &nonASCII)
            if cursor > first {
                builder.append(base + first, count: cursor - first)
                input.position = cursor
                if builder.byteCount - valueStart > limits.maxFieldSize {
                    throw error(.limit, "string longer than \(limits.maxFieldSize) bytes", at: start)
                }
            }
            guard cursor < limit else {
                if try input.refill() { continue }
                throw error(.syntax, "unterminated string", at: start)
            }
            let byte = base[cursor]
            if byte == quote {
                input.position += 1
                break
            }
            if byte == backslash {
                try parseEscape(stringStart: start)
                continue
            }
            throw errorHere(.syntax, "unescaped control character in string")
        }
        let count = builder.byteCount - valueStart
        let valid =
            !nonASCII
            || builder.withBytes {
                UTF8Validation.isValid(UnsafeBufferPointer(rebasing: $0[valueStart...]))
            }
        if !valid { throw error(.encoding, "invalid UTF-8 in string", at: start) }
        return (Int32(truncatingIfNeeded: valueStart), Int32(truncatingIfNeeded: count))
    }

    /// Decodes the escape at the current backslash.
    private mutating func parseEscape(stringStart: Node) throws(RecordReaderError) {
        guard try input.ensure(2) else { throw error(.syntax, "unterminated string", at: stringStart) }
        let escaped = input.base[input.position + 1]
        let simple: UInt8?
        switch escaped {
        case quote, backslash, UInt8(ascii: "/"): simple = escaped
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw errorHere(.syntax, "invalid escape sequence")
        }
        if let simple {
            builder.append(simple)
            input.position += 2
            return
        }
        let escapeOffset = input.offset
        guard let unit = try readUnicodeEscape() else {
            throw error(.syntax, "invalid \\u escape: expected 4 hex digits", at: escapeOffset)
        }
        var scalar = UInt32(unit)
        if unit >= 0xDC00 && unit <= 0xDFFF {
            throw error(.syntax, "unpaired low surrogate in \\u escape", at: escapeOffset)
        }
        if unit >= 0xD800 && unit <= 0xDBFF {
            guard try input.ensure(2), input.base[input.position] == backslash,
                input.base[input.position + 1] == UInt8(ascii: "u"),
                let low = try readUnicodeEscape(), low >= 0xDC00 && low <= 0xDFFF
            else {
                throw error(.syntax, "unpaired high surrogate in \\u escape", at: escapeOffset)
            }
            scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        }
        appendUTF8(scalar)
    }

    /// Reads `\uXXXX` at the current position and consumes it; `nil` when malformed.
    private mutating func readUnicodeEscape() throws(RecordReaderError) -> UInt16? {
        guard try input.ensure(6) else { return nil }
        var value: UInt16 = 0
        for index in 2..<6 {
            let byte = input.base[input.position + index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        input.position += 6
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            builder.append(UInt8(scalar))
        case 0x80..<0x800:
            builder.append(UInt8(0xC0 | scalar >> 6))
            builder.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            builder.append(UInt8(0xE0 | scalar >> 12))
            builder.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            builder.append(UInt8(0x80 | scalar & 0x3F))
        default:
            builder.append(UInt8(0xF0 | scalar >> 18))
            builder.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            builder.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            builder.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Parses the number at the current position; appends it exactly as written.
    mutating func parseNumber() throws(RecordReaderError) -> (start: Int32, count: Int32) {
        let startOffset = input.offset
        let valueStart = builder.byteCount
        while true {
            let base = input.base
            let limit = input.limit
            let first = input.position
            var cursor = first
            while cursor < limit, JSONParser.isNumberByte(base[cursor]) { cursor &+= 1 }
            if cursor > first {
                builder.append(base + first, count: cursor - first)
                input.position = cursor
                if builder.byteCount - valueStart > limits.maxFieldSize {
                    throw error(.limit, "number longer than \(limits.maxFieldSize) bytes", at: startOffset)
                }
            }
            if cursor < limit { break }
            if !(try input.refill()) { break }
        }
        let problem = builder.withBytes {
            JSONParser.numberGrammarError(UnsafeBufferPointer(rebasing: $0[valueStart...]))
        }
        if let (index, reason) = problem { throw error(.syntax, reason, at: startOffset + index) }
        return (Int32(truncatingIfNeeded: valueStart), Int32(truncatingIfNeeded: builder.byteCount - valueStart))
    }

    @inline(__always)
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    /// Checks `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; the index and reason of
    /// the first violation, or `nil`.
    static func numberGrammarError(_ text: UnsafeBufferPointer<UInt8>) -> (Int, String)? {
        var index = 0
        let count = text.count
        func isDigit(_ at: Int) -> Bool {
            at < count && text[at] >= UInt8(ascii: "0") && text[at] <= UInt8(ascii: "9")
        }
        func digits(_ reason: String) -> (Int, String)? {
            guard isDigit(index) else { return (index, reason) }
            while isDigit(index) { index += 1 }
            return nil
        }
        if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
        if isDigit(index), text[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return (index, "leading zeros are not allowed") }
        } else if let problem = digits("expected a digit") {
            return problem
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            if let problem = digits("expected a digit after '.'") { return problem }
        }
        if index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                index += 1
            }
            if let problem = digits("expected a digit in the exponent") { return problem }
        }
        return index < count ? (index, "unexpected character in number") : nil
    }

    /// Parses `true`, `false` or `null` at the current position; appends `true`/`false`.
    mutating func parseLiteral(_ first: UInt8) throws(RecordReaderError) -> (kind: NodeKind, start: Int32, count: Int32)
    {
        let literal: StaticString
        let kind: NodeKind
        switch first {
        case UInt8(ascii: "t"): literal = "true"; kind = .bool
        case UInt8(ascii: "f"): literal = "false"; kind = .bool
        default: literal = "null"; kind = .null
        }
        let length = literal.utf8CodeUnitCount
        let available = try input.ensure(length)
        let matches =
            available
            && (0..<length).allSatisfy {
                input.base[input.position + $0] == literal.utf8Start[$0]
            }
        guard matches else { throw errorHere(.syntax, "invalid literal, expected \(literal)") }
        let valueStart = builder.byteCount
        if kind == .bool { builder.append(input.base + input.position, count: length) }
        input.position += length
        return (kind, Int32(truncatingIfNeeded: valueStart), Int32(truncatingIfNeeded: builder.byteCount - valueStart))
    }
}
