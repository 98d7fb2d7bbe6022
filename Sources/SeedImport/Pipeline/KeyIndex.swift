// The run's one key index, in bounded memory: per lookup, the row each key names among the rows
// this run wrote to a store it created, and which of those rows are destinations the run
// created for references (`missing: create`) that no record has filled yet.
// A lookup's index holds at most `capacity` keys. While it has never refused one it is
// complete — a key it does not hold names no row of the run — so small destination tables
// (units, tags) resolve every reference while the rows are written. Once full it keeps what it
// holds (still true) and stops learning: a key it does not hold is unknown, and references to it
// wait in the staging table for the set-based pass after the load (StagedReferences). From then
// on the keys of that lookup go into a fixed-size filter (KeyFilter, seeded with the keys the
// index holds), which tells a record whose key is certainly new from one that may repeat a key
// the run wrote (``seen(_:_:)``): the run sets the latter aside for after the load.
// Layout: a row is packed into 8 bytes — the entity's store ID in the low 16 bits, the primary
// key in the high 47 — and the placeholder mark in the top bit; rows that do not fit (an entity
// ID of 2^16 or more, a key of 2^47 or more, or a negative one) are kept whole in a second table.
// Invariant: a key is in at most one of the two tables; entries are never evicted.

/// A stored row: its entity's store ID and its key.
struct RowReference: Hashable {
    let entityID: Int64
    let key: Int64
}

/// What the key index knows of a key.
enum KeyLookupResult: Equatable {
    /// The run wrote this row with the key; `placeholder` when it was created for a reference
    /// and no record has filled it yet.
    case row(RowReference, placeholder: Bool)
    /// The run wrote no row with the key (the index for its lookup is complete).
    case absent
    /// The index for its lookup is full and does not hold the key: a row may exist.
    case unknown
}

/// Whether a record's key is new to the run.
enum KeySeen: Equatable {
    /// The run wrote a row with the key, and the index holds it.
    case known
    /// The run wrote no row with the key.
    case new
    /// The run may have written a row with the key (the index is full and the filter cannot tell).
    case maybe
}

/// Key → row of the rows a run wrote, per lookup, up to a fixed number of keys per lookup.
final class KeyIndex {
    private struct Table {
        var packed: [KeyValue: UInt64] = [:]
        var wide: [KeyValue: (row: RowReference, placeholder: Bool)] = [:]
        /// Whether a key was refused for lack of room.
        var isFull = false
        var count: Int { packed.count + wide.count }
    }

    /// Keys held per lookup at the most.
    let capacity: Int
    private var tables: [LookupID: Table] = [:]
    /// The keys of full lookups, made when a lookup first fills up.
    private var filter: KeyFilter?
    private let filterBits: Int
    /// The number of each lookup in the filter's hashes.
    private let lookupNumber: (LookupID) -> Int

    private static let entityBits: UInt64 = 16
    private static let entityMask: UInt64 = (1 << entityBits) - 1
    private static let placeholderBit: UInt64 = 1 << 63

    /// An empty index holding up to `capacity` keys per lookup and, beyond, a filter of
    /// `filterBits` bits; `lookupNumber` numbers the lookups in the filter's hashes.
    init(capacity: Int, filterBits: Int = 1 << 27, lookupNumber: @escaping (LookupID) -> Int = { $0.entityIndex }) {
        self.capacity = max(0, capacity)
        self.filterBits = filterBits
        self.lookupNumber = lookupNumber
    }

    /// Whether a record with `key` may repeat a key the run wrote.
    func seen(_ lookup: LookupID, _ key: KeyValue) -> KeySeen {
        switch find(lookup, key) {
        case .row: return .known
        case .absent: return .new
        case .unknown:
            guard let filter else { return .maybe }
            return filter.mayContain(KeyFilter.hash(key, lookup: lookupNumber(lookup))) ? .maybe : .new
        }
    }

    /// The bytes the filter holds (0 until a lookup fills up).
    var filterByteCount: Int { filter?.byteCount ?? 0 }

    /// What the index knows of `key`.
    func find(_ lookup: LookupID, _ key: KeyValue) -> KeyLookupResult {
        guard let table = tables[lookup] else { return capacity > 0 ? .absent : .unknown }
        if let bits = table.packed[key] {
            return .row(Self.unpack(bits), placeholder: bits & Self.placeholderBit != 0)
        }
        if let entry = table.wide[key] { return .row(entry.row, placeholder: entry.placeholder) }
        return table.isFull ? .unknown : .absent
    }

    /// The row the run wrote with `key`, if the index holds it.
    func row(_ lookup: LookupID, _ key: KeyValue) -> RowReference? {
        if case .row(let row, _) = find(lookup, key) { return row }
        return nil
    }

    /// Whether the index for `lookup` is full (it may not hold every key the run wrote).
    func isFull(_ lookup: LookupID) -> Bool {
        tables[lookup]?.isFull ?? (capacity == 0)
    }

    /// Whether ``register(_:_:_:placeholder:)`` would learn `key`: the index holds it, or has room.
    func canLearn(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        guard let table = tables[lookup] else { return capacity > 0 }
        return table.packed[key] != nil || table.wide[key] != nil || table.count < capacity
    }

    /// Learns that `row` has `key` (a placeholder when `placeholder`); replaces what the index
    /// held for `key`. Returns false, learning nothing, when the lookup's index is full.
    @discardableResult
    func register(_ row: RowReference, _ lookup: LookupID, _ key: KeyValue, placeholder: Bool = false) -> Bool {
        guard canLearn(lookup, key) else {
            remember(key, of: lookup)
            return false
        }
        if let bits = Self.pack(row) {
            tables[lookup, default: Table()].packed[key] = placeholder ? bits | Self.placeholderBit : bits
            if tables[lookup]?.wide[key] != nil { tables[lookup]?.wide[key] = nil }
        } else {
            tables[lookup, default: Table()].wide[key] = (row, placeholder)
            if tables[lookup]?.packed[key] != nil { tables[lookup]?.packed[key] = nil }
        }
        return true
    }

    /// Notes `key` in the filter of the full `lookup` (making the filter, with the keys the
    /// index holds, the first time).
    private func remember(_ key: KeyValue, of lookup: LookupID) {
        if tables[lookup]?.isFull != true {
            tables[lookup, default: Table()].isFull = true
            if filter == nil { filter = KeyFilter(bits: filterBits) }
            let number = lookupNumber(lookup)
            for held in tables[lookup].map({ Array($0.packed.keys) + Array($0.wide.keys) }) ?? [] {
                filter?.insert(KeyFilter.hash(held, lookup: number))
            }
        }
        filter?.insert(KeyFilter.hash(key, lookup: lookupNumber(lookup)))
    }

    /// Forgets `key` (its row will not be written: its record was refused).
    func forget(_ lookup: LookupID, _ key: KeyValue) {
        tables[lookup]?.packed[key] = nil
        tables[lookup]?.wide[key] = nil
    }

    /// Whether `key` names a placeholder no record filled yet; from now on it counts as filled.
    func fillPlaceholder(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        guard case .row(let row, placeholder: true) = find(lookup, key) else { return false }
        register(row, lookup, key)
        return true
    }

    /// Whether `key` may name a placeholder no record filled yet (true when the index cannot tell).
    func mayBePlaceholder(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        switch find(lookup, key) {
        case .row(_, let placeholder): placeholder
        case .absent: false
        case .unknown: true
        }
    }

    /// The keys the index holds, all lookups together (a bound tests can check).
    var count: Int { tables.values.reduce(0) { $0 + $1.count } }

    /// `row` in 63 bits, or nil when its entity ID or key is out of the packed range.
    private static func pack(_ row: RowReference) -> UInt64? {
        guard row.entityID >= 0, UInt64(row.entityID) <= entityMask, row.key >= 0, row.key < (1 << 47) else {
            return nil
        }
        return UInt64(row.key) << entityBits | UInt64(row.entityID)
    }

    private static func unpack(_ bits: UInt64) -> RowReference {
        let value = bits & ~placeholderBit
        return RowReference(entityID: Int64(value & entityMask), key: Int64(bitPattern: value >> entityBits))
    }
}
