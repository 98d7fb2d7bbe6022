// A fast hash mix for values that carry their hash already (import keys, lookups): one
// multiply-xorshift round (the finaliser of SplitMix64) over the value and the table's seed,
// so every bit of the result depends on every bit of both.

/// Mixes a precomputed hash with a hash table's seed.
enum KeyMixing {
    /// The mixed hash of `value` for a table seeded with `seed`.
    @inline(__always)
    static func mix(_ value: UInt64, seed: Int) -> Int {
        var x = value ^ UInt64(bitPattern: Int64(seed)) &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(x ^ (x >> 31)))
    }
}
