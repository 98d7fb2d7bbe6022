// ByteScanner: finds the next byte a scanning loop must stop at, eight bytes at a time.
//
// SWAR ("SIMD within a register"): a 64-bit word is tested for bytes equal to a target by
// XOR with the target repeated and the classic zero-byte test. The zero-byte test can flag
// a false match only above a true one, so the lowest flagged byte is always exact. The tail
// of fewer than eight bytes is scanned byte by byte. Inputs are read with unaligned loads
// inside [start, end) only.

enum ByteScanner {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

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
    /// content — `"`, `\` or a control character below 0x20 — or `end`.
    @inline(__always)
    static func firstJSONStringStop(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let quotes = ones &* UInt64(UInt8(ascii: "\""))
        let backslashes = ones &* UInt64(UInt8(ascii: "\\"))
        let spaces = ones &* 0x20
        var index = start
        while index &+ 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Bytes below 0x20: (word - 0x20…) & ~word & 0x80… flags them (exact lowest).
            let controls = (word &- spaces) & ~word & highs
            let found = zeroBytes(word ^ quotes) | zeroBytes(word ^ backslashes) | controls
            if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index &+= 1
        }
        return end
    }
}
