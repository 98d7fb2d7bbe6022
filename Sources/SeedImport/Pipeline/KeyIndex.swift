// The run's one key index: the row each key names among the rows this run wrote to a store it
// created, and the destinations the run created for references (`missing: create`) that no
// record has filled yet. Both the row path and the object path read and write it; nothing
// else keeps keys across batches.
// Layout: the one structure of an import that grows with the input (docs/Performance.md
// "Memory"), so its entries are kept small. A row is packed into 8 bytes — the entity's store
// ID in the low 16 bits, the primary key in the high 48 — rather than a 16-byte RowReference.
// Invariant: a key is in at most one of the two tables; rows that do not fit the packing (an
// entity ID of 2^16 or more, a key of 2^47 or more, or a negative one) go to the wide table.

/// A stored row: its entity's store ID and its key.
struct RowReference: Hashable {
    let entityID: Int64
    let key: Int64
}

/// Key → row of the rows a run wrote, per lookup, and the placeholders it created.
final class KeyIndex {
    private var packed: [LookupID: [KeyValue: UInt64]] = [:]
    private var wide: [LookupID: [KeyValue: RowReference]] = [:]
    /// Keys of destinations this run created for references whose own record has not come yet:
    /// when it comes, it fills them whatever the conflict policy.
    private var placeholders: [LookupID: Set<KeyValue>] = [:]

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

    /// Notes that the run created the destination with `key` for a reference.
    func markPlaceholder(_ lookup: LookupID, _ key: KeyValue) {
        placeholders[lookup, default: []].insert(key)
    }

    /// Whether `key` names a destination the run created for a reference and no record filled yet.
    func isPlaceholder(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        placeholders[lookup]?.contains(key) ?? false
    }

    /// Whether `key` names a destination the run created for a reference and no record filled
    /// yet; from now on it counts as filled.
    func fillPlaceholder(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        placeholders[lookup]?.remove(key) != nil
    }

    /// `row` in 8 bytes, or nil when its entity ID or key is out of the packed range.
    private static func pack(_ row: RowReference) -> UInt64? {
        guard row.entityID >= 0, UInt64(row.entityID) <= entityMask, row.key >= 0, row.key < (1 << 47) else {
            return nil
        }
        return UInt64(row.key) << entityBits | UInt64(row.entityID)
    }
}
