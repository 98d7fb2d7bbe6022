// The value of a unique key or a reference's match: one attribute value, or several for
// composite keys. Hashable, so it indexes lookups.
// Invariant: the hash is computed once, when the key is made — on the reader thread for keys
// of prepared records — so the import's key index, which hashes every key several times
// (batch checks, registration, reference lookups), never rehashes a string.
import GraphStore

/// A key's value.
struct KeyValue: Hashable, CustomStringConvertible {
    private enum Parts: Hashable {
        case single(AttributeValue)
        case composite([AttributeValue])
    }

    private let storage: Parts
    /// 32 bits of the hash are enough to tell keys apart before comparing them, and keep a key
    /// at 24 bytes.
    private let hashCode: UInt32

    private init(storage: Parts) {
        self.storage = storage
        hashCode = UInt32(truncatingIfNeeded: storage.hashValue)
    }

    /// A key from its parts.
    init(_ parts: [AttributeValue]) {
        self.init(storage: parts.count == 1 ? .single(parts[0]) : .composite(parts))
    }

    /// A single-attribute key.
    static func single(_ value: AttributeValue) -> KeyValue {
        KeyValue(storage: .single(value))
    }

    /// The parts, in key order.
    var parts: [AttributeValue] {
        switch storage {
        case .single(let value): [value]
        case .composite(let values): values
        }
    }

    /// The number of parts.
    var partCount: Int {
        switch storage {
        case .single: 1
        case .composite(let values): values.count
        }
    }

    /// The part at `index`, in key order (without making the array ``parts`` makes).
    func part(_ index: Int) -> AttributeValue {
        switch storage {
        case .single(let value): value
        case .composite(let values): values[index]
        }
    }

    /// The key as text: `A-1`, or `A-1, 2` for composite keys.
    var description: String {
        parts.map(\.description).joined(separator: ", ")
    }

    static func == (lhs: KeyValue, rhs: KeyValue) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.storage == rhs.storage
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }

    /// The hash a dictionary or set uses: the cached hash mixed with the table's seed, without
    /// running a `Hasher` (which costs more than the lookup itself on the import's hot path).
    func _rawHashValue(seed: Int) -> Int {
        KeyMixing.mix(UInt64(hashCode), seed: seed)
    }
}
