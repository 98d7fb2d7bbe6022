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
// Layout: per lookup, an open-addressing table (linear probing, at most half full) of 32-byte
// entries — the key's hash, its canonical bytes' place in the table's byte arena (KeyEncoding),
// the row — so finding a key costs a hash comparison and a `memcmp`, no `String` and no
// reference counting.
// A lookup whose rows the run also writes without learning them under it (PlanMappings
// `indexedLookups`) is never learnt: every key of it is unknown from the start.
// Invariant: entries are never evicted; a key is held at most once per lookup.
import Foundation
import GraphStore

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

/// A key as the index takes it: its canonical bytes (KeyEncoding) and their hash.
struct IndexKey {
    let hash: UInt64
    let bytes: UnsafeRawBufferPointer
}

/// Key → row of the rows a run wrote, per lookup, up to a fixed number of keys per lookup.
final class KeyIndex {
    /// Keys held per lookup at the most.
    let capacity: Int
    /// One table per lookup. Only the import's writing thread touches the index, and no two
    /// accesses to it overlap, so the per-access exclusivity check is left out: it cost a tenth
    /// of the time of a key lookup.
    @exclusivity(unchecked) private var tables: [Table]
    /// The keys of full lookups, made when a lookup first fills up (unchecked as `tables` is).
    @exclusivity(unchecked) private var filter: KeyFilter?
    private let filterBits: Int
    /// Whether the load is over (no filter is made any more).
    private var loadEnded = false
    /// The number of each lookup (for the object path's `LookupID`s).
    private let lookupNumber: (LookupID) -> Int?

    /// An empty index of `lookups` lookups holding up to `capacity` keys each and, beyond, a
    /// filter of `filterBits` bits; `lookupNumber` numbers lookups given by ``LookupID``. A
    /// lookup whose `indexed` is false (PlanMappings `indexedLookups`) holds nothing: the run
    /// writes rows it may find without learning them under it, so every key is unknown.
    init(
        capacity: Int, filterBits: Int = 1 << 27, lookups: Int, indexed: [Bool]? = nil,
        lookupNumber: @escaping (LookupID) -> Int? = { _ in nil }
    ) {
        self.capacity = max(0, capacity)
        self.filterBits = filterBits
        self.lookupNumber = lookupNumber
        tables = (0..<lookups).map { number in
            var table = Table()
            if let indexed, indexed.indices.contains(number), !indexed[number] {
                table.isIndexed = false
                table.isFull = true
            }
            return table
        }
    }

    // MARK: - Finding

    /// What the index knows of `key` of the lookup numbered `lookup`.
    func find(_ lookup: Int, _ key: IndexKey) -> KeyLookupResult {
        guard tables.indices.contains(lookup) else { return .unknown }
        if capacity == 0 { return .unknown }
        if let slot = tables[lookup].slot(of: key) {
            let entry = tables[lookup].entries[slot]
            // A key of a record set aside names a row only once the record is applied.
            guard !entry.isSetAside else { return .unknown }
            return .row(
                RowReference(entityID: Int64(entry.entityID), key: entry.rowKey), placeholder: entry.isPlaceholder)
        }
        return tables[lookup].isFull ? .unknown : .absent
    }

    /// The row the run wrote with `key`, if the index holds it.
    func row(_ lookup: Int, _ key: IndexKey) -> RowReference? {
        if case .row(let row, _) = find(lookup, key) { return row }
        return nil
    }

    /// Whether a record with `key` may repeat a key the run wrote.
    func seen(_ lookup: Int, _ key: IndexKey) -> KeySeen {
        switch find(lookup, key) {
        case .row: return .known
        case .absent: return .new
        case .unknown:
            // Held but unknown: a key of a record set aside.
            guard tables[lookup].isIndexed, let filter, tables[lookup].slot(of: key) == nil else { return .maybe }
            return filter.mayContain(Self.filterHash(key.hash, lookup: lookup)) ? .maybe : .new
        }
    }

    /// Whether ``register(_:_:_:placeholder:)`` would learn `key`: the index holds it, or has room.
    func canLearn(_ lookup: Int, _ key: IndexKey) -> Bool {
        guard tables.indices.contains(lookup), tables[lookup].isIndexed else { return false }
        return tables[lookup].count < capacity || tables[lookup].slot(of: key) != nil
    }

    // MARK: - Learning

    /// Learns that `row` has `key` (a placeholder when `placeholder`); replaces what the index
    /// held for `key`. Returns false, learning nothing, when the lookup's index is full (the key
    /// then goes into the filter).
    @discardableResult
    func register(_ row: RowReference, _ lookup: Int, _ key: IndexKey, placeholder: Bool = false) -> Bool {
        guard canLearn(lookup, key) else {
            remember(key, of: lookup)
            return false
        }
        tables[lookup].insert(key, row: row, flags: placeholder ? Table.placeholderFlags : Table.rowFlags)
        return true
    }

    /// Notes that a record with `key` was set aside for after the load: from now on records with
    /// `key` may repeat it (``seen(_:_:)`` says `.maybe`), and references to it wait.
    func markSetAside(_ lookup: Int, _ key: IndexKey) {
        if canLearn(lookup, key) {
            tables[lookup].insert(key, row: RowReference(entityID: 0, key: 0), flags: Table.setAsideFlags)
        } else {
            remember(key, of: lookup)
        }
    }

    /// Ends the load: the filter, which only sorts the records of the load (``seen(_:_:)``), is
    /// freed; the keys the index holds stay (placeholders are still filled after the load).
    func endLoad() {
        filter = nil
        loadEnded = true
    }

    /// Forgets `key` (its row will not be written: its record was refused).
    func forget(_ lookup: Int, _ key: IndexKey) {
        if tables.indices.contains(lookup) { tables[lookup].remove(key) }
    }

    /// Whether `key` names a placeholder no record filled yet; from now on it counts as filled.
    func fillPlaceholder(_ lookup: Int, _ key: IndexKey) -> Bool {
        guard case .row(let row, placeholder: true) = find(lookup, key) else { return false }
        register(row, lookup, key)
        return true
    }

    /// The keys the index holds, all lookups together (a bound tests can check).
    var count: Int { tables.reduce(0) { $0 + $1.count } }

    /// The bytes the filter holds (0 until a lookup fills up).
    var filterByteCount: Int { filter?.byteCount ?? 0 }

    // MARK: - Keys as attribute values (the object path)

    /// What the index knows of `key` of `lookup`.
    func find(_ lookup: LookupID, _ key: KeyValue) -> KeyLookupResult {
        withKey(lookup, key) { find($0, $1) } ?? .unknown
    }

    /// The row the run wrote with `key` of `lookup`, if the index holds it.
    func row(_ lookup: LookupID, _ key: KeyValue) -> RowReference? {
        withKey(lookup, key) { row($0, $1) } ?? nil
    }

    /// Learns that `row` has `key` of `lookup` (see ``register(_:_:_:placeholder:)``).
    func register(_ row: RowReference, _ lookup: LookupID, _ key: KeyValue) {
        _ = withKey(lookup, key) { register(row, $0, $1) }
    }

    /// Whether `key` of `lookup` names a placeholder no record filled yet; from now on it counts as filled.
    func fillPlaceholder(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        withKey(lookup, key) { fillPlaceholder($0, $1) } ?? false
    }

    /// Calls `body` with the lookup's number and `key` as the index takes it (nil for a lookup
    /// the index does not have).
    private func withKey<R>(_ lookup: LookupID, _ key: KeyValue, _ body: (Int, IndexKey) -> R) -> R? {
        guard let number = lookupNumber(lookup), tables.indices.contains(number) else { return nil }
        let bytes = KeyEncoding.bytes(of: key)
        return bytes.withUnsafeBytes { body(number, IndexKey(hash: KeyEncoding.hash($0), bytes: $0)) }
    }

    // MARK: - Tables

    /// Notes `key` in the filter of the full `lookup` (making the filter, with the keys the
    /// index holds, the first time; after the load there is none).
    private func remember(_ key: IndexKey, of lookup: Int) {
        guard tables.indices.contains(lookup), tables[lookup].isIndexed else { return }
        if !tables[lookup].isFull {
            tables[lookup].isFull = true
            guard !loadEnded else { return }
            if filter == nil { filter = KeyFilter(bits: filterBits) }
            for hash in tables[lookup].hashes { filter?.insert(Self.filterHash(hash, lookup: lookup)) }
        }
        filter?.insert(Self.filterHash(key.hash, lookup: lookup))
    }

    /// A key's hash for the filter, which all lookups share.
    private static func filterHash(_ hash: UInt64, lookup: Int) -> UInt64 {
        KeyEncoding.mix(hash ^ (UInt64(lookup) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// One lookup's keys: linear probing over a power-of-two table kept at most half full.
    private struct Table {
        struct Entry {
            var hash: UInt64 = 0
            var keyStart: UInt32 = 0
            var keyLength: UInt32 = 0
            var rowKey: Int64 = 0
            var entityID: Int32 = 0
            var flags: UInt32 = 0

            var isUsed: Bool { flags & 1 != 0 }
            var isPlaceholder: Bool { flags & 2 != 0 }
            var isSetAside: Bool { flags & 4 != 0 }
        }

        static let rowFlags: UInt32 = 1
        static let placeholderFlags: UInt32 = 3
        static let setAsideFlags: UInt32 = 5

        var entries = [Entry](repeating: Entry(), count: 16)
        var bytes: [UInt8] = []
        var count = 0
        var isFull = false
        /// False for a lookup the index must not learn (it is full from the start, and knows nothing).
        var isIndexed = true
        private var mask: Int { entries.count - 1 }

        /// The hashes of the keys held.
        var hashes: [UInt64] { entries.filter(\.isUsed).map(\.hash) }

        func slot(of key: IndexKey) -> Int? {
            var slot = Int(truncatingIfNeeded: key.hash) & mask
            while entries[slot].isUsed {
                if entries[slot].hash == key.hash && holds(key, at: slot) { return slot }
                slot = (slot + 1) & mask
            }
            return nil
        }

        mutating func insert(_ key: IndexKey, row: RowReference, flags: UInt32) {
            if let slot = slot(of: key) {
                entries[slot].rowKey = row.key
                entries[slot].entityID = Int32(truncatingIfNeeded: row.entityID)
                entries[slot].flags = flags
                return
            }
            if (count + 1) * 2 > entries.count { grow() }
            var slot = Int(truncatingIfNeeded: key.hash) & mask
            while entries[slot].isUsed { slot = (slot + 1) & mask }
            entries[slot] = Entry(
                hash: key.hash, keyStart: UInt32(bytes.count), keyLength: UInt32(key.bytes.count), rowKey: row.key,
                entityID: Int32(truncatingIfNeeded: row.entityID), flags: flags)
            bytes.append(contentsOf: key.bytes)
            count += 1
        }

        /// Removes `key`, shifting back the entries that probed past it.
        mutating func remove(_ key: IndexKey) {
            guard var hole = slot(of: key) else { return }
            entries[hole] = Entry()
            count -= 1
            var next = (hole + 1) & mask
            while entries[next].isUsed {
                let home = Int(truncatingIfNeeded: entries[next].hash) & mask
                // The entry may move to the hole unless its home lies after the hole, up to it.
                let distanceToHole = (hole - home) & mask
                let distanceToNext = (next - home) & mask
                if distanceToHole < distanceToNext {
                    entries[hole] = entries[next]
                    entries[next] = Entry()
                    hole = next
                }
                next = (next + 1) & mask
            }
        }

        private func holds(_ key: IndexKey, at slot: Int) -> Bool {
            let entry = entries[slot]
            guard Int(entry.keyLength) == key.bytes.count else { return false }
            return bytes.withUnsafeBytes { stored in
                guard let base = stored.baseAddress, let wanted = key.bytes.baseAddress else { return true }
                return memcmp(base + Int(entry.keyStart), wanted, key.bytes.count) == 0
            }
        }

        private mutating func grow() {
            let old = entries
            entries = [Entry](repeating: Entry(), count: old.count * 2)
            for entry in old where entry.isUsed {
                var slot = Int(truncatingIfNeeded: entry.hash) & mask
                while entries[slot].isUsed { slot = (slot + 1) & mask }
                entries[slot] = entry
            }
        }
    }
}
