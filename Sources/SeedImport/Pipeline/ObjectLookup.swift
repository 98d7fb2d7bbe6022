// Key resolution for the object path: finds the objects a batch's keys name, set-based — one
// query per lookup and chunk of keys per batch (never one per record), or, on a store this run
// created while it loads (its indexes not built yet), through the run's key index (the rows
// such a store holds are the run's own), which may not know every key.
// Run identities (`key: [object-id]`) are never in the store's rows: they are always found in
// the run's identity table (RunIdentities), which the commit step fills with each batch's new
// objects (``newIdentities``), in any store.
// Invariants: within a batch, one key maps to one object (later records update it); what it
// holds is forgotten after the batch's commit, when the key index learns the batch's new rows.
import GraphStore

/// The objects a batch's keys name, in the import's context.
final class ObjectLookup {
    private let context: ObjectContext
    private let model: ObjectModel
    /// The run's key index, while the store holds nothing but this run's rows and its indexes
    /// are not built (nil: keys are looked up in the store).
    private var runKeys: KeyIndex?
    /// The number of each lookup (the identity table names lookups by it).
    private let lookupNumber: (LookupID) -> Int?
    private var batch: [LookupID: [KeyValue: ManagedObject]] = [:]
    /// The objects this batch inserted with a run identity, for the identity table.
    private var inserted: [(lookup: Int, id: String, object: ManagedObject)] = []
    private static let chunkSize = 256

    /// A lookup in `context`; with `runKeys`, keys are found there rather than in the store;
    /// `lookupNumber` numbers lookups as the plan's mappings do.
    init(context: ObjectContext, runKeys: KeyIndex?, lookupNumber: @escaping (LookupID) -> Int?) {
        self.context = context
        self.model = context.model
        self.runKeys = runKeys
        self.lookupNumber = lookupNumber
    }

    /// Makes every wanted key that exists available to ``object(_:_:)`` for this batch.
    func prefetch(_ wanted: [LookupID: Set<KeyValue>]) throws {
        for (lookup, keys) in wanted.sorted(by: { $0.key.entityIndex < $1.key.entityIndex }) {
            let missing = keys.filter { batch[lookup]?[$0] == nil }
            guard !missing.isEmpty else { continue }
            if lookup.isRunIdentity {
                try fetchIdentities(lookup, Array(missing))
            } else if let runKeys {
                for key in missing {
                    if let row = runKeys.row(lookup, key) {
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

    /// Whether an object with `key` may exist that ``object(_:_:)`` does not give (the run's key
    /// index does not hold every key of `lookup`).
    func mayMiss(_ lookup: LookupID, _ key: KeyValue) -> Bool {
        guard let runKeys, batch[lookup]?[key] == nil else { return false }
        return runKeys.find(lookup, key) == .unknown
    }

    /// From now on, keys are looked up in the store (its indexes are built).
    func useStore() {
        endBatch()
        runKeys = nil
    }

    /// Records that `object` now has `key` (it was just inserted).
    func register(_ object: ManagedObject, _ lookup: LookupID, _ key: KeyValue) {
        batch[lookup, default: [:]][key] = object
        if lookup.isRunIdentity, let number = lookupNumber(lookup), case .string(let id) = key.parts.first {
            inserted.append((number, id, object))
        }
    }

    /// The run identities of the objects this batch inserted, with their rows as `permanentID`
    /// gives them (objects that are not saved left out), for the identity table.
    func newIdentities(_ permanentID: (ManagedObject) -> ObjectID?) -> [(lookup: Int, id: String, row: RowReference)] {
        inserted.compactMap { item in
            permanentID(item.object).map { (item.lookup, item.id, RowReference(entityID: $0.entityID, key: $0.key)) }
        }
    }

    /// Ends a batch after its commit: the run's key index learns the rows of the batch's new objects.
    func endBatch() {
        if let runKeys {
            for (lookup, objects) in batch {
                for (key, object) in objects where !object.objectID.isTemporary {
                    runKeys.register(
                        RowReference(entityID: object.objectID.entityID, key: object.objectID.key), lookup, key)
                }
            }
        }
        batch = [:]
        inserted = []
    }

    /// Fetches the objects whose run identities are any of `keys` from the identity table.
    private func fetchIdentities(_ lookup: LookupID, _ keys: [KeyValue]) throws {
        guard let number = lookupNumber(lookup) else { return }
        var ids: [String: KeyValue] = [:]
        for key in keys {
            if case .string(let id) = key.parts.first { ids[id] = key }
        }
        let rows = try context.readRows { try RunIdentities.rows(number, ids: Array(ids.keys), on: $0) }
        for (id, row) in rows {
            guard let key = ids[id] else { continue }
            let objectID = ObjectID(storeUUID: context.store.identifier, entityID: row.entityID, key: row.key)
            batch[lookup, default: [:]][key] = try context.object(with: objectID)
        }
    }

    /// Fetches the objects whose lookup attributes (or, through relationships, their
    /// destinations' attributes) equal any of `keys`, in fixed-size chunks (the same SQL text
    /// each time, so the prepared statement is reused).
    private func fetch(_ lookup: LookupID, _ keys: [KeyValue]) throws {
        let entity = model.entities[lookup.entityIndex]
        let names = lookup.partKeyPaths(in: model)
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
                guard let parts = try lookup.parts(of: object) else { continue }
                let key = KeyValue(parts)
                if wanted.contains(key) { batch[lookup, default: [:]][key] = object }
            }
        }
    }
}
