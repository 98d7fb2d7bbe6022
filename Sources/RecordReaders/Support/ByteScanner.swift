// ByteScanner: finds the next byte a scanning loop must stop at, eight bytes at a time; and
// compares the short runs names are (field paths' against a record's) inline.
//
// SWAR ("SIMD within a register"): a 64-bit word is tested for bytes equal to a target by
// XOR with the target repeated and the classic zero-byte test. The zero-byte test can flag
// a false match only above a true one, so the lowest flagged byte is always exact (a backward
// scan, which wants the highest, uses the exact test instead). The tail of fewer than eight
// bytes is scanned byte by byte. Inputs are read with unaligned loads inside [start, end)
// only. Words are little-endian (byte i in bits 8i ..< 8i + 8), as on every supported platform.

enum ByteScanner {
    /// Whether the `count` bytes at `lhs` and `rhs` are equal. Names are short, so they are
    /// compared inline byte by byte rather than through a `memcmp` call each.
    @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        var position = 0
        while position < count {
            if lhs[position] != rhs[position] { return false }
            position &+= 1
        }
        return true
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080
    private static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// High bit set in each byte of `word` that is zero (exact for the lowest one).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// The index of the first byte in `start ..< end` equal to `a`, `b`, `c` or `d`, or `end`.
    @inline(__always)
    static func firstIndex(
        of a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int
    ) -> Int {
        let wordA = ones &* UInt64(a)
        let wordB = ones &* UInt64(b)
        let wordC = ones &* UInt64(c)
        let wordD = ones &* UInt64(d)
        var index = start
        while index &+ 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let found =
                zeroBytes(word ^ wordA) | zeroBytes(word ^ wordB) | zeroBytes(word ^ wordC) | zeroBytes(word ^ wordD)
            if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte == a || byte == b || byte == c || byte == d { return index }
            index &+= 1
        }
        return end
    }

    /// The index of the first byte in `start ..< end` that ends a run of JSON string
    /// content — `"`, `\` or a control character below 0x20 — or `end`. Sets `nonASCII` when
    /// a byte of 0x80 or above may lie in the run (it may also be set by a byte just after it,
    /// in the last word read), so a caller can skip validating runs that are plain ASCII.
    @inline(__always)
    static func firstJSONStringStop(
        in base: UnsafePointer<UInt8>, from start: Int, to end: Int, nonASCII: inout Bool
    ) -> Int {
        let quotes = ones &* UInt64(UInt8(ascii: "\""))
        let backslashes = ones &* UInt64(UInt8(ascii: "\\"))
        let spaces = ones &* 0x20
        var seen: UInt64 = 0
        var index = start
        while index &+ 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            seen |= word
            // Bytes below 0x20: (word - 0x20…) & ~word & 0x80… flags them (exact lowest).
            let controls = (word &- spaces) & ~word & highs
            let found = zeroBytes(word ^ quotes) | zeroBytes(word ^ backslashes) | controls
            if found != 0 {
                if seen & highs != 0 { nonASCII = true }
                return index &+ found.trailingZeroBitCount &>> 3
            }
            index &+= 8
        }
        if seen & highs != 0 { nonASCII = true }
        while index < end {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            if byte >= 0x80 { nonASCII = true }
            index &+= 1
        }
        return end
    }

    /// The index of the last byte in `start ..< end` equal to `target`, or `nil`.
    @inline(__always)
    static func lastIndex(of target: UInt8, in base: UnsafePointer<UInt8>, from start: Int, before end: Int) -> Int? {
        let pattern = ones &* UInt64(target)
        var index = end
        while index &- 8 >= start {
            let word = UnsafeRawPointer(base + (index &- 8)).loadUnaligned(as: UInt64.self) ^ pattern
            // Exact: the high bit of each zero byte, and of no other.
            let zeros = ~(((word & lows) &+ lows) | word | lows)
            if zeros != 0 { return index &- 8 &+ (63 &- zeros.leadingZeroBitCount) &>> 3 }
            index &-= 8
        }
        while index > start {
            index &-= 1
            if base[index] == target { return index }
        }
        return nil
    }

    /// The characters (bytes that do not continue a UTF-8 sequence) and line feeds in
    /// `start ..< end`.
    @inline(__always)
    static func characterAndLineCount(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (
        characters: Int, lineFeeds: Int
    ) {
        let lineFeeds = ones &* UInt64(UInt8(ascii: "\n"))
        var characters = 0
        var lines = 0
        var index = start
        while index < end {
            if end &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & highs == 0 && zeroBytes(word ^ lineFeeds) == 0 {
                    characters &+= 8
                    index &+= 8
                    continue
                }
            }
            let byte = base[index]
            if byte == UInt8(ascii: "\n") { lines &+= 1 }
            if byte & 0xC0 != 0x80 { characters &+= 1 }
            index &+= 1
        }
        return (characters, lines)
    }
}
