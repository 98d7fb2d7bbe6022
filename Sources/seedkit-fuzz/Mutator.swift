// Mutator: seeded, structure-unaware byte mutations for the fuzz loop (bit flips, byte
// changes, token insertion, deletion, duplication, splicing, truncation).

/// SplitMix64: a small, seeded, reproducible generator.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// A seeded mutator: a few mutations of an input at a time, within a length cap. Conformers
/// say what one mutation does.
protocol SeededMutator {
    var random: SeededGenerator { get set }
    /// Mutants never grow beyond this many bytes.
    var maxLength: Int { get }
    /// At most this many mutations are applied to one input.
    var mostMutations: Int { get }
    /// Applies one mutation to `bytes`, perhaps with part of `other`.
    mutating func mutateOnce(_ bytes: inout [UInt8], other: [UInt8])
}

extension SeededMutator {
    /// A random number in `0..<bound` (0 when `bound` is 1 or less).
    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int.random(in: 0..<bound, using: &random) }

    /// One to ``mostMutations`` mutations of `input`, sometimes with part of `other`.
    mutating func mutate(_ input: [UInt8], other: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(mostMutations) { mutateOnce(&bytes, other: other) }
        if bytes.count > maxLength { bytes.removeLast(bytes.count - maxLength) }
        return bytes
    }
}

/// Mutates inputs with a seeded generator.
struct Mutator: SeededMutator {
    var random: SeededGenerator
    let tokens: [[UInt8]]
    let maxLength = 4096
    let mostMutations = 4

    mutating func mutateOnce(_ bytes: inout [UInt8], other: [UInt8]) {
        let position = below(bytes.count + 1)
        switch below(8) {
        case 0 where !bytes.isEmpty:
            bytes[min(position, bytes.count - 1)] ^= UInt8(1) << UInt8(below(8))
        case 1 where !bytes.isEmpty:
            bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
        case 2, 3:
            bytes.insert(contentsOf: tokens[below(tokens.count)], at: position)
        case 4 where !bytes.isEmpty:
            let end = min(bytes.count, position + 1 + below(16))
            bytes.removeSubrange(min(position, end)..<end)
        case 5 where !bytes.isEmpty:
            let start = below(bytes.count)
            let end = min(bytes.count, start + 1 + below(64))
            bytes.insert(contentsOf: bytes[start..<end], at: position)
        case 6 where !other.isEmpty:
            let start = below(other.count)
            bytes.insert(contentsOf: other[start..<min(other.count, start + below(128))], at: position)
        default:
            if !bytes.isEmpty { bytes.removeLast(below(min(bytes.count, 8))) }
        }
    }
}
