// The batch-building stage of a run: key resolution and building, batch by batch, by one of two
// paths. A store the run created gets new rows (RowBuilder), unless a record of the batch names
// a key the run already wrote (it updates, which objects do); otherwise the records are applied
// to objects (ObjectApplier), after the ones that would change nothing are left out
// (UnchangedRecords). In a store the run created, a record whose key the run may have written
// already, though its key index cannot say (KeyIndex `seen`), is set aside for after the load
// (SetAsideRecords). Records refused while building go to the run's tally.
import GraphStore
import RecordReaders

/// A batch's content for the commit step, and the records set aside from it.
struct BuiltBatch {
    let content: BatchContent
    let setAside: [SetAsideRecord]
}

/// Builds each batch's content for the commit step.
struct BatchBuilder {
    let target: ImportTarget
    let tally: RunTally
    let keys: KeyIndex
    let lookup: ObjectLookup
    let applier: ObjectApplier
    /// Whether batches of new records are built as rows (a store the run created, a plan that fits).
    let buildsRows: Bool
    /// Whether records that would change nothing are left out of the object path.
    let comparesStoredRows: Bool

    private var context: ObjectContext { target.context }

    /// The content of the batch numbered `batch` of `prepared` records of `mapping` from the
    /// source numbered `source`.
    func build(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, source: Int, batch: Int)
        throws -> BuiltBatch
    {
        let (records, setAside) =
            target.existed ? (prepared, []) : setAsideRepeats(prepared, source: source, batch: batch)
        if buildsRows && RowBuilder.admits(records, keys: keys) {
            return BuiltBatch(content: .rows(try buildRows(records, mapping: mapping)), setAside: setAside)
        }
        let changing = try leaveOutUnchanged(records, mapping: mapping)
        return BuiltBatch(content: .objects(try applyObjects(changing, mapping: mapping)), setAside: setAside)
    }

    /// Splits off the records whose key (or a nested record's) the run may have written already.
    private func setAsideRepeats(_ prepared: [(PreparedObject, SourceRecord)], source: Int, batch: Int) -> (
        [(PreparedObject, SourceRecord)], [SetAsideRecord]
    ) {
        var kept: [(PreparedObject, SourceRecord)] = []
        kept.reserveCapacity(prepared.count)
        var setAside: [SetAsideRecord] = []
        var batchKeys: Set<KeyOfLookup> = []
        for item in prepared {
            var recordKeys: [KeyOfLookup] = []
            item.0.collectKeys(into: &recordKeys)
            if recordKeys.contains(where: { keys.seen($0.lookup, $0.key) == .maybe }) {
                setAside.append(
                    SetAsideRecord(
                        source: source, batch: batch, repeatsBatchKey: recordKeys.contains(where: batchKeys.contains),
                        record: item.1))
            } else {
                kept.append(item)
            }
            batchKeys.formUnion(recordKeys)
        }
        return (kept, setAside)
    }

    // MARK: - Rows

    private func buildRows(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping) throws -> RowBatch {
        let model = context.model
        var builder = RowBuilder(
            model: model, keys: keys,
            nextKeys: try context.readRows { try ImportSQL.nextFreeKeys(on: $0, model: model) })
        var batch = RowBatch()
        try forEachRecord(prepared, mapping: mapping) { try builder.add($1, to: &batch) }
        return batch
    }

    // MARK: - Objects

    /// Counts the records that would change nothing and returns the others (see ``UnchangedRecords``).
    private func leaveOutUnchanged(_ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping) throws
        -> [(PreparedObject, SourceRecord)]
    {
        guard comparesStoredRows, UnchangedRecords.applies(to: mapping) else { return prepared }
        let model = context.model
        let ownRowsAbove = target.watermarks[ImportSQL.tableName(of: mapping.entity, in: model), default: 0]
        let unchanged = try context.readRows { connection in
            try UnchangedRecords(model: model, ownRowsAbove: ownRowsAbove, connection: connection)
                .find(in: prepared, mapping: mapping)
        }
        guard !unchanged.isEmpty else { return prepared }
        for entity in unchanged.values { tally.count(entity.name) { $0.unchanged += 1 } }
        return prepared.indices.filter { unchanged[$0] == nil }.map { prepared[$0] }
    }

    /// Applies prepared records to objects of the context; the objects the records at
    /// `uncounted` match are not counted as matched (their records repeat a key of their batch).
    func applyObjects(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, uncounted: Set<Int> = []
    ) throws -> AppliedObjects {
        var wanted: [LookupID: Set<KeyValue>] = [:]
        for (object, _) in prepared { object.collectLookups(into: &wanted) }
        try lookup.prefetch(wanted)
        try prefetchToMany(prepared.map(\.0), mapping: mapping)
        var applied = AppliedObjects()
        try forEachRecord(prepared, mapping: mapping) { index, object in
            try applier.apply(object, into: &applied, countsMatch: !uncounted.contains(index))
        }
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

    /// Runs `body` on each record (with its position), refusing through the tally those it
    /// throws a ``RecordError`` for.
    private func forEachRecord(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping,
        _ body: (Int, PreparedObject) throws -> Void
    ) throws {
        for (index, (object, record)) in prepared.enumerated() {
            do {
                try body(index, object)
            } catch let error as RecordError {
                try tally.reject(error, record: record, entity: mapping.entity.name)
            }
        }
    }
}
