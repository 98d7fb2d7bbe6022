// The batch-building stage of a run: key resolution and building, batch by batch, by one of two
// paths. A store the run created gets new rows (RowBuilder), unless a record of the batch names
// a key the run already wrote (it updates, which objects do); otherwise the records are applied
// to objects (ObjectApplier), after the ones that would change nothing are left out
// (UnchangedRecords). Records refused while building go to the run's tally.
import GraphStore
import RecordReaders

/// Builds each batch's content for the commit step.
struct BatchBuilder {
    let context: ObjectContext
    let tally: RunTally
    let keys: KeyIndex
    let lookup: ObjectLookup
    let applier: ObjectApplier
    /// Whether batches of new records are built as rows (a store the run created, a plan that fits).
    let buildsRows: Bool
    /// Whether records that would change nothing are left out of the object path.
    let comparesStoredRows: Bool

    /// The content of a batch of `prepared` records of `mapping`.
    func build(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping) throws -> BatchContent {
        if buildsRows && RowBuilder.admits(prepared, keys: keys) {
            return .rows(try buildRows(prepared, mapping: mapping))
        }
        return .objects(try applyObjects(try leaveOutUnchanged(prepared, mapping: mapping), mapping: mapping))
    }

    // MARK: - Rows

    private func buildRows(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping) throws -> RowBatch {
        let model = context.model
        var builder = RowBuilder(
            model: model, keys: keys, nextKeys: try context.readRows { try RowSQL.nextFreeKeys(on: $0, model: model) })
        var batch = RowBatch()
        try forEachRecord(prepared, mapping: mapping) { try builder.add($0, to: &batch) }
        return batch
    }

    // MARK: - Objects

    /// Counts the records that would change nothing and returns the others (see ``UnchangedRecords``).
    private func leaveOutUnchanged(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping) throws
        -> [(PreparedObject, SourceRecord)]
    {
        guard comparesStoredRows, UnchangedRecords.applies(to: mapping) else { return prepared }
        let model = context.model
        let unchanged = try context.readRows { connection in
            try UnchangedRecords(model: model, keys: keys, connection: connection).find(in: prepared, mapping: mapping)
        }
        guard !unchanged.isEmpty else { return prepared }
        for entity in unchanged.values { tally.count(entity.name) { $0.unchanged += 1 } }
        return prepared.indices.filter { unchanged[$0] == nil }.map { prepared[$0] }
    }

    /// Applies prepared records to objects of the context.
    private func applyObjects(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping) throws
        -> AppliedObjects
    {
        var wanted: [LookupID: Set<KeyValue>] = [:]
        for (object, _) in prepared { object.collectLookups(into: &wanted) }
        try lookup.prefetch(wanted)
        try prefetchToMany(prepared.map(\.0), mapping: mapping)
        var applied = AppliedObjects()
        try forEachRecord(prepared, mapping: mapping) { try applier.apply($0, into: &applied) }
        return applied
    }

    /// Loads the mapped to-many relationships of the batch's existing objects in bulk, so
    /// adding a member they already have changes nothing.
    private func prefetchToMany(_ prepared: [PreparedObject], mapping: CompiledMapping) throws {
        guard let keyLookup = mapping.keyLookup else { return }
        let existing = prepared.compactMap { object in object.key.flatMap { lookup.object(keyLookup, $0) } }
            .filter { !$0.isInserted }
        guard !existing.isEmpty else { return }
        for relationship in mapping.relationships where relationship.relationship.isToMany {
            try context.prefetch(relationship.relationship.name, of: existing)
        }
    }

    /// Runs `body` on each record, refusing through the tally those it throws a ``RecordError`` for.
    private func forEachRecord(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, _ body: (PreparedObject) throws -> Void
    ) throws {
        for (object, record) in prepared {
            do {
                try body(object)
            } catch let error as RecordError {
                try tally.reject(error, record: record, entity: mapping.entity.name)
            }
        }
    }
}
