// Finds existing objects by key for an import, set-based: one query per lookup and chunk of
// keys per batch (never one per record), or — on a store this run created — from an in-memory
// index of what the run inserted (the only rows such a store holds).
// Invariants: within a batch, one key maps to one object (later records update it); the
// memory index holds permanent IDs only (it is updated after each save).
import GraphStore

/// A stored row: its entity's store ID and its key.
struct RowReference: Hashable {
    let entityID: Int64
    let key: Int64
}

/// Resolves keys to objects in the import's context.
final class ObjectResolver {
    private let context: ObjectContext
    private let model: ObjectModel
    /// Whether the store held nothing but this run's rows when it began.
    private let usesMemoryIndex: Bool
    /// Row of each key the run inserted (memory-index mode), kept compact: this index is the one
    /// structure that grows with the input.
    private var index = RunKeyIndex()
    private var batch: [LookupID: [KeyValue: ManagedObject]] = [:]
    /// Keys of destinations this run created for references (`missing: create`) whose own
    /// record has not come yet: when it comes, it fills them whatever the conflict policy.
    private var placeholders: [LookupID: Set<KeyValue>] = [:]
    private static let chunkSize = 256

    init(context: ObjectContext, usesMemoryIndex: Bool) {
        self.context = context
        self.model = context.model
        self.usesMemoryIndex = usesMemoryIndex
    }

    /// Makes every wanted key that exists available to ``object(_:_:)`` for this batch.
    func prefetch(_ wanted: [LookupID: Set<KeyValue>]) throws {
        for (lookup, keys) in wanted.sorted(by: { $0.key.entityIndex < $1.key.entityIndex }) {
            let missing = keys.filter { batch[lookup]?[$0] == nil }
            guard !missing.isEmpty else { continue }
            // Run identities are never stored: the run's own index is the only place to look.
            if usesMemoryIndex || lookup.isRunIdentity {
                for key in missing {
                    if let row = index[lookup, key] {
                        let id = ObjectID(storeUUID: context.store.identifier, entityID: row.entityID, key: row.key)
                        batch[lookup, default: [:]][key] = try context.object(with: id)
                    }
                }
            } else {
                try fetch(lookup, Array(missing))
            }
        }
    }

    /// The object with `key`, if it exists (in the store or earlier in this run's batch).
    func object(_ lookup: LookupID, _ key: KeyValue) -> ManagedObject? {
        batch[lookup]?[key]
    }

    /// The row the run wrote with `key` in an earlier batch (memory-index mode only).
    func row(_ lookup: LookupID, _ key: KeyValue) -> RowReference? {
        index[lookup, key]
    }

    /// Learns the key of a row the row path is writing.
    func register(row: RowReference, _ lookup: LookupID, _ key: KeyValue) {
        index[lookup, key] = row
    }

    /// Forgets a key registered for a row that will not be written (its record was refused).
    func unregister(_ lookup: LookupID, _ key: KeyValue) {
        index[lookup, key] = nil
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

    /// Records that `object` now has `key` (it was just inserted).
    func register(_ object: ManagedObject, _ lookup: LookupID, _ key: KeyValue) {
        batch[lookup, default: [:]][key] = object
    }

    /// Ends a batch after its save: the memory index learns the permanent IDs of the batch's
    /// objects (in any store, those of run identities).
    func endBatch() {
        for (lookup, objects) in batch where usesMemoryIndex || lookup.isRunIdentity {
            for (key, object) in objects where !object.objectID.isTemporary {
                index[lookup, key] = RowReference(entityID: object.objectID.entityID, key: object.objectID.key)
            }
        }
        batch = [:]
    }

    /// Fetches the objects whose lookup attributes equal any of `keys`, in fixed-size chunks
    /// (the same SQL text each time, so the prepared statement is reused).
    private func fetch(_ lookup: LookupID, _ keys: [KeyValue]) throws {
        let entity = model.entities[lookup.entityIndex]
        let names = lookup.slots.map { entity.attributes[$0].name }
        for start in stride(from: 0, to: keys.count, by: Self.chunkSize) {
            let chunk = Array(keys[start..<min(keys.count, start + Self.chunkSize)])
            var predicate: FetchPredicate?
            for (position, name) in names.enumerated() {
                var values = chunk.map { $0.parts[position] }
                while values.count < Self.chunkSize { values.append(values[values.count - 1]) }
                let condition = FetchPredicate.key(name).in(values)
                predicate = predicate.map { $0 && condition } ?? condition
            }
            var request = FetchRequest(entityName: entity.name, predicate: predicate)
            request.includesPendingChanges = false
            let wanted = Set(chunk)
            for object in try context.fetch(request) {
                let key = KeyValue(try lookup.slots.map { slot in try object.value(at: slot) ?? .string("") })
                if wanted.contains(key) { batch[lookup, default: [:]][key] = object }
            }
        }
    }
}
