// The batch-building stage of a run: key resolution and building, batch by batch, by one of two
// paths. A store the run created gets new rows (RowBuilder, straight from the prepared batch's
// flat values), unless a record of the batch names a key the run already wrote (it updates,
// which objects do); otherwise the records are applied to objects (ObjectApplier), after the
// ones that would change nothing are left out (UnchangedRecords). In a store the run created, a
// record whose key the run may have written already, though its key index cannot say
// (KeyIndex `seen`), is set aside for after the load (SetAsideRecords). Records refused while
// building go to the run's tally.
import GraphStore
import RecordReaders

/// A batch's content for the commit step, and the records set aside from it.
struct BuiltBatch {
    let content: BatchContent
    let setAside: [SetAsideRecord]
}

/// Builds each batch's content for the commit step.
final class BatchBuilder {
    let target: ImportTarget
    let tally: RunTally
    let mappings: PlanMappings
    let layouts: RowLayouts
    let keys: KeyIndex
    let lookup: ObjectLookup
    let applier: ObjectApplier
    /// Whether batches of new records are built as rows (a store the run created, a plan that fits).
    let buildsRows: Bool
    /// Whether records that would change nothing are left out of the object path.
    let comparesStoredRows: Bool
    /// The source files, by source number.
    let files: [String]
    /// The keys of the batch being sorted (kept to reuse its buffers).
    private var batchKeys = KeySet()
    /// The stored destinations the comparison with stored rows resolved, kept from batch to batch.
    let destinations: DestinationCache

    init(
        target: ImportTarget, tally: RunTally, mappings: PlanMappings, layouts: RowLayouts, keys: KeyIndex,
        lookup: ObjectLookup, applier: ObjectApplier, buildsRows: Bool, comparesStoredRows: Bool, files: [String],
        destinationsPerLookup: Int
    ) {
        self.target = target
        self.tally = tally
        self.mappings = mappings
        self.layouts = layouts
        self.keys = keys
        self.lookup = lookup
        self.applier = applier
        self.buildsRows = buildsRows
        self.comparesStoredRows = comparesStoredRows
        self.files = files
        destinations = DestinationCache(
            mappings: mappings, layout: target.store.layout, capacity: destinationsPerLookup
        ) { table in target.watermarks[table, default: 0] }
    }

    private var context: ObjectContext { target.context }
    private var layout: StoreLayout { target.store.layout }

    /// The content of the batch numbered `number` of `batch`, read from the source numbered
    /// `source` for `mapping`; its records that did not prepare are refused.
    func build(_ batch: PreparedBatch, mapping: CompiledMapping, source: Int, number: Int) throws -> BuiltBatch {
        var accepted: [Int] = []
        accepted.reserveCapacity(batch.records.count)
        // Broken records the reader skipped are refused in their place among the others.
        var nextBroken = 0
        func refuseBroken(before position: Int) throws {
            while nextBroken < batch.broken.count, batch.broken[nextBroken].before <= position {
                tally.countRecord()
                try tally.reject(batch.broken[nextBroken].error, record: nil, entity: mapping.entity.name)
                nextBroken += 1
            }
        }
        for position in batch.records.indices {
            try refuseBroken(before: position)
            tally.countRecord()
            if let error = batch.failures[position] {
                try tally.reject(error, record: batch.records[position], entity: mapping.entity.name)
            } else {
                accepted.append(position)
            }
        }
        try refuseBroken(before: batch.records.count)
        var setAside: [SetAsideRecord] = []
        var repeats = false
        if !target.existed {
            (accepted, setAside, repeats) = batch.keyBytes.withUnsafeBytes { keyBytes in
                sortOut(accepted, of: batch, keyBytes: keyBytes, source: source, number: number)
            }
        }
        if buildsRows && !repeats {
            return BuiltBatch(
                content: .rows(try buildRows(accepted, of: batch, source: source, mapping: mapping)), setAside: setAside
            )
        }
        // The reader thread made the objects of a batch bound for objects; a batch of new
        // records that repeats a key has them made here.
        let objects =
            batch.objects.count == batch.records.count
            ? batch.objects
            : batch.records.indices.map { position in
                batch.recordEntries[position] < 0
                    ? nil
                    : batch.object(
                        batch.recordEntries[position], mappings: mappings, file: files[source],
                        record: batch.records[position])
            }
        // Only the records that change something are copied out of the batch.
        let changing = try leaveOutUnchanged(accepted, of: objects, mapping: mapping).compactMap { position in
            objects[position].map { ($0, batch.records[position]) }
        }
        return BuiltBatch(content: .objects(try applyObjects(changing, mapping: mapping)), setAside: setAside)
    }

    /// Sorts the records of a store the run created: those whose key (or a nested record's) the
    /// run may have written already are set aside; for the others, whether one names a key the
    /// run wrote or another record of the batch (then the batch goes through objects).
    private func sortOut(
        _ accepted: [Int], of batch: PreparedBatch, keyBytes: UnsafeRawBufferPointer, source: Int, number: Int
    ) -> ([Int], [SetAsideRecord], repeats: Bool) {
        var kept: [Int] = []
        kept.reserveCapacity(accepted.count)
        var setAside: [SetAsideRecord] = []
        var repeats = false
        batchKeys.removeAll()
        for position in accepted {
            var maybe = false
            var repeatsBatchKey = false
            forEachKey(of: batch.recordEntries[position], in: batch, keyBytes: keyBytes) { lookup, key in
                switch keys.seen(lookup, key) {
                case .maybe: maybe = true
                case .known: repeats = true
                case .new: break
                }
                if !batchKeys.insert(lookup, key) { repeatsBatchKey = true }
            }
            if maybe {
                // Later records with its keys come after it: they are set aside too.
                forEachKey(of: batch.recordEntries[position], in: batch, keyBytes: keyBytes) {
                    keys.markSetAside($0, $1)
                }
                setAside.append(
                    SetAsideRecord(
                        source: source, batch: number, repeatsBatchKey: repeatsBatchKey, record: batch.records[position]
                    ))
            } else {
                repeats = repeats || repeatsBatchKey
                kept.append(position)
            }
        }
        return (kept, setAside, repeats)
    }

    /// Calls `body` with the key of the entry at `index` and of each entry nested in it.
    private func forEachKey(
        of index: Int32, in batch: PreparedBatch, keyBytes: UnsafeRawBufferPointer, _ body: (Int, IndexKey) -> Void
    ) {
        let entry = batch.entries[Int(index)]
        let lookup = layouts.keyLookups[Int(entry.mapping)]
        if entry.key >= 0 && lookup >= 0 { body(lookup, RowBuilder.indexKey(batch.keys[Int(entry.key)], keyBytes)) }
        for group in batch.groups[Int(entry.firstGroup)..<Int(entry.firstGroup + entry.groupCount)] {
            for child in batch.children[Int(group.firstChild)..<Int(group.firstChild + group.childCount)] {
                forEachKey(of: child, in: batch, keyBytes: keyBytes, body)
            }
        }
    }

    // MARK: - Rows

    private func buildRows(_ accepted: [Int], of batch: PreparedBatch, source: Int, mapping: CompiledMapping) throws
        -> RowBatch
    {
        let model = context.model
        var builder = RowBuilder(
            mappings: mappings, layouts: layouts, keys: keys,
            nextKeys: try context.readRows { try ImportSQL.nextFreeKeys(on: $0, layout: layout) }, file: files[source])
        var rows = RowBatch(entities: model.entities.count, relationships: mappings.relationships.count)
        try batch.keyBytes.withUnsafeBytes { keyBytes in
            for position in accepted {
                do {
                    try builder.add(batch.recordEntries[position], of: batch, keyBytes: keyBytes, to: &rows)
                } catch let error as RecordError {
                    try tally.reject(error, record: batch.records[position], entity: mapping.entity.name)
                }
            }
        }
        return rows
    }

    // MARK: - Objects

    /// Counts the records at `positions` whose objects (`objects`, by position in the batch)
    /// would change nothing and returns the positions of the others (see ``UnchangedRecords``).
    private func leaveOutUnchanged(_ positions: [Int], of objects: [PreparedObject?], mapping: CompiledMapping) throws
        -> [Int]
    {
        guard comparesStoredRows, UnchangedRecords.applies(to: mapping, layout: layout) else { return positions }
        let ownRowsAbove = target.watermarks[layout.table(of: mapping.entity), default: 0]
        let unchanged = try context.readRows { connection in
            try UnchangedRecords(
                layout: layout, ownRowsAbove: ownRowsAbove, connection: connection, destinations: destinations
            ).find(positions, of: objects, mapping: mapping)
        }
        guard !unchanged.isEmpty else { return positions }
        for entity in unchanged.values { tally.count(entity.name) { $0.unchanged += 1 } }
        return positions.filter { unchanged[$0] == nil }
    }

    /// Applies prepared records to objects of the context; the objects the records at
    /// `uncounted` match are not counted as matched (their records repeat a key of their batch).
    func applyObjects(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, uncounted: Set<Int> = []
    ) throws -> AppliedObjects {
        var wanted: [LookupID: Set<KeyValue>] = [:]
        for (object, _) in prepared { object.collectLookups(into: &wanted) }
        try lookup.prefetch(wanted)
        try prefetchToMany(prepared.map(\.0))
        var applied = AppliedObjects()
        for (index, (object, record)) in prepared.enumerated() {
            do {
                try applier.apply(object, into: &applied, countsMatch: !uncounted.contains(index))
            } catch let error as RecordError {
                try tally.reject(error, record: record, entity: mapping.entity.name)
            }
        }
        destinations.forgetChanged(in: context, layout: layout)
        return applied
    }

    /// Loads the mapped to-many relationships of the batch's existing objects in bulk, so
    /// adding a member they already have changes nothing (per mapping the records follow: with
    /// `entityField`, the entity each names).
    private func prefetchToMany(_ prepared: [PreparedObject]) throws {
        for records in Dictionary(grouping: prepared, by: \.mapping.number).values {
            let mapping = records[0].mapping
            guard let keyLookup = mapping.keyLookup else { continue }
            let existing = records.compactMap { object in object.key.flatMap { lookup.object(keyLookup, $0) } }
                .filter { !$0.isInserted && $0.entity.isKind(of: mapping.entity) }
            guard !existing.isEmpty else { continue }
            for relationship in mapping.relationships where relationship.relationship.isToMany {
                try context.prefetch(relationship.relationship.name, of: existing)
            }
        }
    }
}
