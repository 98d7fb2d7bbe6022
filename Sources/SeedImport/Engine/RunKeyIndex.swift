// The keys an import run inserted into a store it created, with the row each one names: the
// one structure of an import that grows with the input (docs/Performance.md "Memory"), so
// its entries are kept small. A row is packed into 8 bytes — the entity's store ID in the low
// 16 bits, the primary key in the high 48 — rather than a 16-byte RowReference, which takes a
// fifth off every bucket of the index's hash tables (24-byte key, 8-byte row).
// Invariant: a key is in at most one of the two tables; rows that do not fit the packing (an
// entity ID of 2^16 or more, a key of 2^47 or more, or a negative one) go to the wide table.

/// Key → row of the rows a run inserted, per lookup.
struct RunKeyIndex {
    private var packed: [LookupID: [KeyValue: UInt64]] = [:]
    private var wide: [LookupID: [KeyValue: RowReference]] = [:]

    private static let entityBits: UInt64 = 16
    private static let entityMask: UInt64 = (1 << entityBits) - 1

    /// The row registered for `key`, or nil; setting nil forgets the key.
    subscript(lookup: LookupID, key: KeyValue) -> RowReference? {
        get {
            if let bits = packed[lookup]?[key] {
                return RowReference(
                    entityID: Int64(bits & Self.entityMask), key: Int64(bitPattern: bits >> Self.entityBits))
            }
            return wide[lookup]?[key]
        }
        set {
            guard let row = newValue else {
                packed[lookup]?[key] = nil
                wide[lookup]?[key] = nil
                return
            }
            if let bits = Self.pack(row) {
                packed[lookup, default: [:]][key] = bits
                if wide[lookup]?[key] != nil { wide[lookup]?[key] = nil }
            } else {
                wide[lookup, default: [:]][key] = row
                if packed[lookup]?[key] != nil { packed[lookup]?[key] = nil }
            }
        }
    }

    /// `row` in 8 bytes, or nil when its entity ID or key is out of the packed range.
    private static func pack(_ row: RowReference) -> UInt64? {
        guard row.entityID >= 0, UInt64(row.entityID) <= entityMask, row.key >= 0, row.key < (1 << 47) else {
            return nil
        }
        return UInt64(row.key) << entityBits | UInt64(row.entityID)
    }
}
