// A set of keys (by lookup number and canonical bytes) for the length of one batch: which keys
// records of the batch had already. Open addressing over a byte arena, emptied and reused from
// batch to batch, so noting a key costs no allocation once the buffers have grown.

/// Keys seen, per lookup.
struct KeySet {
    private var slots: [Slot] = Array(repeating: Slot(), count: 64)
    private var bytes: [UInt8] = []
    private var count = 0

    private struct Slot {
        var hash: UInt64 = 0
        var lookup: Int32 = -1
        var start: UInt32 = 0
        var length: UInt32 = 0
    }

    /// Notes `key` of the lookup numbered `lookup`; false when it was noted already.
    mutating func insert(_ lookup: Int, _ key: IndexKey) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        var slot = Int(truncatingIfNeeded: key.hash) & (slots.count - 1)
        while slots[slot].lookup >= 0 {
            if matches(slots[slot], lookup, key) { return false }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = Slot(
            hash: key.hash, lookup: Int32(lookup), start: UInt32(bytes.count), length: UInt32(key.bytes.count))
        bytes.append(contentsOf: key.bytes)
        count += 1
        return true
    }

    /// Whether `key` of the lookup numbered `lookup` was noted.
    func contains(_ lookup: Int, _ key: IndexKey) -> Bool {
        var slot = Int(truncatingIfNeeded: key.hash) & (slots.count - 1)
        while slots[slot].lookup >= 0 {
            if matches(slots[slot], lookup, key) { return true }
            slot = (slot + 1) & (slots.count - 1)
        }
        return false
    }

    /// Forgets every key, keeping the buffers.
    mutating func removeAll() {
        for index in slots.indices { slots[index].lookup = -1 }
        bytes.removeAll(keepingCapacity: true)
        count = 0
    }

    private func matches(_ slot: Slot, _ lookup: Int, _ key: IndexKey) -> Bool {
        guard slot.hash == key.hash, Int(slot.lookup) == lookup, Int(slot.length) == key.bytes.count else {
            return false
        }
        return bytes[Int(slot.start)..<Int(slot.start + slot.length)].elementsEqual(key.bytes)
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        for entry in old where entry.lookup >= 0 {
            var slot = Int(truncatingIfNeeded: entry.hash) & (slots.count - 1)
            while slots[slot].lookup >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }
}
