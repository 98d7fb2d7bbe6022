// Trimming white space from UTF-8 bytes without decoding them: the `trim` option of a mapping.
// Invariant: only whole characters with the Unicode White_Space property are removed, so the
// result is valid UTF-8 whenever the input is.

/// White space at the ends of UTF-8 text.
enum WhiteSpace {
    /// `bytes` without leading and trailing white space (ASCII and Unicode White_Space).
    static func trimming(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, let length = length(at: start, in: bytes) { start += length }
        while end > start, let length = lengthEnding(at: end, in: bytes, from: start) { end -= length }
        if start == 0 && end == bytes.count { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether `byte` is ASCII white space (space, tab, line feed, vertical tab, form feed, return).
    static func isASCII(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// The length of the white-space character starting at `index`, or nil if there is none.
    private static func length(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let byte = bytes[index]
        if isASCII(byte) { return 1 }
        if byte < 0xC2 { return nil }
        for length in 2...3 where index + length <= bytes.count {
            if isMultibyte(bytes, from: index, length: length) { return length }
        }
        return nil
    }

    /// The length of the white-space character ending just before `end`, or nil if there is none.
    private static func lengthEnding(at end: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let byte = bytes[end - 1]
        if isASCII(byte) { return 1 }
        if byte < 0x80 { return nil }
        for length in 2...3 where end - length >= start {
            if isMultibyte(bytes, from: end - length, length: length) { return length }
        }
        return nil
    }

    /// Whether the `length` bytes at `index` encode a non-ASCII White_Space character:
    /// U+0085, U+00A0, U+1680, U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    private static func isMultibyte(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, length: Int) -> Bool {
        let first = bytes[index]
        let second = bytes[index + 1]
        if length == 2 { return first == 0xC2 && (second == 0x85 || second == 0xA0) }
        let third = bytes[index + 2]
        switch (first, second) {
        case (0xE1, 0x9A): return third == 0x80
        case (0xE2, 0x80): return third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF
        case (0xE2, 0x81): return third == 0x9F
        case (0xE3, 0x80): return third == 0x80
        default: return false
        }
    }
}
