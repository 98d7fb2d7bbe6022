// ByteStops: every position of four stop bytes in a window, in increasing order, found eight
// bytes at a time.
//
// Each 64-bit word is tested with the exact zero-byte test: for x = word ^ target, a byte of
// ((x & 0x7F…) + 0x7F…) | x has its high bit clear exactly when that byte of x is zero (the
// addition never carries out of a byte). Unlike ByteScanner's cheaper test it flags no false
// bytes above a true one, so one load yields every stop among its eight bytes. Only whole words
// inside [start, end) are read: when the next stop is not in one, `next()` returns `nil`, and
// the caller finishes the work with a byte-exact scanner. The words read are also OR-ed
// together, so a caller learns whether any of them held a non-ASCII byte.

struct ByteStops {
    private static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private let targets: (UInt64, UInt64, UInt64, UInt64)
    /// The index of the word `pending` belongs to.
    private var wordStart: Int
    /// A high bit for each stop of the current word not yet returned.
    private var pending: UInt64 = 0
    /// Every word read, OR-ed together.
    private var loaded: UInt64 = 0

    /// Finds `a`, `b`, `c` and `d` in `base[start ..< end]`.
    init(
        _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, in base: UnsafePointer<UInt8>, from start: Int,
        to end: Int
    ) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        self.base = base
        self.end = end
        targets = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c), ones &* UInt64(d))
        wordStart = start &- 8
    }

    /// Whether a byte of a word read so far (which may extend past the last stop returned) is
    /// not ASCII.
    var sawNonASCII: Bool { loaded & Self.highs != 0 }

    /// The index of the next stop, or `nil` when it does not lie in a whole word before `end`.
    @inline(__always)
    mutating func next() -> Int? {
        while pending == 0 {
            let next = wordStart &+ 8
            guard next &+ 8 <= end else { return nil }
            wordStart = next
            let word = UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self)
            loaded |= word
            pending = stops(in: word)
        }
        let index = wordStart &+ (pending.trailingZeroBitCount &>> 3)
        pending &= pending &- 1
        return index
    }

    /// A high bit for each byte of `word` equal to a target.
    @inline(__always)
    private func stops(in word: UInt64) -> UInt64 {
        let all =
            Self.nonZeroBytes(word ^ targets.0) & Self.nonZeroBytes(word ^ targets.1)
            & Self.nonZeroBytes(word ^ targets.2) & Self.nonZeroBytes(word ^ targets.3)
        return ~all & Self.highs
    }

    /// High bit set in each nonzero byte of `word` (exact for every byte).
    @inline(__always)
    private static func nonZeroBytes(_ word: UInt64) -> UInt64 {
        ((word & lows) &+ lows) | word
    }
}
