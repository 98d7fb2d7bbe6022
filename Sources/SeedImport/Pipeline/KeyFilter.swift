// A fixed-size filter of the keys a run's records had, for lookups whose key index is full: it
// says a key is certainly new, or that the run may have written it already — a blocked Bloom
// filter (each key sets 6 bits in one 512-bit block, one cache line), 64-bit hashes of the
// lookup and the key's values. Its size is chosen once, when it is made: 16 bits per key the
// run may write (from the size of its input), at most 16 MiB.
// Invariant: `mayContain` is true for every key inserted; for others it is false but for a
// share that grows with the keys per bit (about 0.15 % at 16 bits per key, 4 % at 6.7 bits — 20 M
// keys in 16 MiB), which only sends more records to the slower path that decides exactly.

/// Keys seen, in a fixed number of bits.
struct KeyFilter {
    private var words: [UInt64]
    private let blocks: UInt64

    private static let wordsPerBlock = 8
    private static let bitsPerKey = 6

    /// An empty filter of `bits` bits, rounded up to whole blocks (at least one).
    init(bits: Int) {
        let blocks = max(1, (bits + 64 * Self.wordsPerBlock - 1) / (64 * Self.wordsPerBlock))
        words = Array(repeating: 0, count: blocks * Self.wordsPerBlock)
        self.blocks = UInt64(blocks)
    }

    /// The bits to make a filter with for an input of `bytes` bytes: 16 per key it may hold (a
    /// record of at least 32 bytes), between one block and `limit`.
    static func bits(forInputBytes bytes: Int, limit: Int) -> Int {
        min(limit, max(64 * wordsPerBlock, bytes / 32 * 16))
    }

    /// The bytes the filter holds.
    var byteCount: Int { words.count * 8 }

    /// Notes `hash` as seen.
    mutating func insert(_ hash: UInt64) {
        let base = block(of: hash)
        var bits = Self.remix(hash)
        for _ in 0..<Self.bitsPerKey {
            words[base + Int(bits & 7)] |= 1 << ((bits >> 3) & 63)
            bits >>= 9
        }
    }

    /// Whether `hash` may have been noted (false: certainly not).
    func mayContain(_ hash: UInt64) -> Bool {
        let base = block(of: hash)
        var bits = Self.remix(hash)
        for _ in 0..<Self.bitsPerKey {
            if words[base + Int(bits & 7)] & (1 << ((bits >> 3) & 63)) == 0 { return false }
            bits >>= 9
        }
        return true
    }

    /// The 64-bit hash of `key` of the lookup numbered `lookup`.
    static func hash(_ key: KeyValue, lookup: Int) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(lookup)
        for part in key.parts { hasher.combine(part) }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The first word of the block of `hash` (its high 32 bits scaled to the blocks).
    private func block(of hash: UInt64) -> Int {
        Int(((hash >> 32) &* blocks) >> 32) * Self.wordsPerBlock
    }

    /// Bits for the positions in a block, independent of those that chose the block.
    private static func remix(_ hash: UInt64) -> UInt64 {
        var x = hash &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        return x
    }
}
