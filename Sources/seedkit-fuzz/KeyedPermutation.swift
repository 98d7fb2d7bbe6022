// A keyed permutation of 0..<count in constant memory, for the shuffled benchmark catalog
// (`seedkit-fuzz generate --shuffle`): items come in a random order of their skus without a
// table of all skus to shuffle.
// Invariant: for a given count and key, every number below count is produced exactly once.

/// A bijection of `0..<count` chosen by a key: a four-round Feistel network over the smallest
/// even number of bits covering `count`, walked (cycle-walking) until it lands below `count`.
struct KeyedPermutation {
    private let count: Int
    private let halfBits: Int
    private let mask: UInt64
    private let roundKeys: [UInt64]

    /// The permutation of `count` numbers for `key`.
    init(count: Int, key: UInt64) {
        self.count = count
        let bits = max(1, (count - 1).bitWidth - max(count - 1, 1).leadingZeroBitCount)
        halfBits = max(1, (bits + 1) / 2)
        mask = (1 << UInt64(halfBits)) - 1
        var random = SeededGenerator(seed: key)
        roundKeys = (0..<4).map { _ in random.next() & 0xFFFF_FFFF }
    }

    /// The number `value` (below `count`) goes to.
    func callAsFunction(_ value: Int) -> Int {
        var current = UInt64(value)
        repeat {
            var left = current >> UInt64(halfBits)
            var right = current & mask
            for roundKey in roundKeys {
                var mixed = ((right &* 0x9E37_79B1) ^ roundKey) & 0xFFFF_FFFF
                mixed ^= mixed >> 15
                (left, right) = (right, (left ^ mixed) & mask)
            }
            current = (left << UInt64(halfBits)) | right
        } while current >= UInt64(count)
        return Int(current)
    }
}
