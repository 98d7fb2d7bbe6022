// The last steps of a run, after every source: a new store's deferred indexes are built; the
// records set aside during the load (their key may repeat one the run wrote) are applied
// through objects, in order; the references staged during the load are resolved — those of new
// rows set-based (StagedResolution), those of objects through the object path a chunk at a
// time, each now resolving or left to its `missing` policy; then the run's end commits with its
// completion metadata and drops the staging tables.
// Order: a set-aside record comes later than every row it may repeat, so it is applied before
// the staged keys of those rows are resolved; a relationship it sets anew drops what the row
// staged for it (ObjectApplier: the later record wins).
// Invariants: a record refused here (with `skip`) is left out whole — the objects this run
// inserted for it are deleted and no longer counted; the run ends in the transaction of its last
// save, so a kill before it leaves the run to undo or resume.
import GraphStore
import RecordReaders

/// Finishes an import run.
struct RunFinish {
    let target: ImportTarget
    let tally: RunTally
    let builder: BatchBuilder
    let commit: BatchCommit
    let staging: StagedReferences
    let layouts: RowLayouts
    let batchSize: Int
    let cancellation: CancellationFlag
    /// The mapping of a source, its fields resolved against the source (a CSV file's header).
    let mapping: (Int) throws -> CompiledMapping

    private var lookup: ObjectLookup { builder.lookup }

    /// Builds the indexes a new store left out while it loaded, once the memory only the load
    /// needed is freed and the records repeating a unique constraint are refused
    /// (ConstraintDuplicates; with `skip`, left out whole).
    func buildIndexes(progress: () -> Void) throws {
        builder.keys.endLoad()
        try target.endLoad()
        let store = target.store
        guard try store.metadata()[StoreMetadata.Key.indexesPending] != nil else { return }
        progress()
        let repeats = try ConstraintDuplicates(target: target, tally: tally, staging: staging).run()
        if !repeats.isEmpty {
            try target.context.writeRows { connection in
                for row in repeats { try staging.removeReferences(of: row, on: connection) }
            }
            try leaveOut(rows: repeats)
        }
        try store.createIndexes()
    }

    /// Applies the set-aside records, then resolves the staged references: those of new rows
    /// set-based, then those of objects. The links that keys and matches go through
    /// (`key: [order, product]`) are resolved first, so that set-aside records and references
    /// find the objects they name by them.
    func resolveAfterLoad(progress: () -> Void) throws {
        lookup.useStore()
        let throughLinks = staging.mappings.throughRelationships
        if !throughLinks.isEmpty { try resolveStaged(only: throughLinks, progress: progress) }
        try applySetAside()
        try resolveStaged(only: nil, progress: progress)
    }

    /// Resolves the staged references of the relationship mappings `only` names (nil: all).
    private func resolveStaged(only: Set<Int>?, progress: () -> Void) throws {
        guard try target.context.readRows({ try staging.hasReferences(on: $0) }) else { return }
        progress()
        try cancellation.check()
        let refused = try StagedResolution(
            target: target, tally: tally, staging: staging, layouts: layouts, commit: commit, batchSize: batchSize
        ).run(only: only)
        if !refused.isEmpty { try leaveOut(rows: refused) }
        try resolveThroughObjects(only: only)
    }

    /// Applies the records set aside during the load through objects, a batch at a time (the
    /// batch they came in), each batch in one transaction that also forgets them.
    private func applySetAside() throws {
        let context = target.context
        var preparer = RecordPreparer()
        while let next = try context.readRows({ try SetAsideRecords.nextBatch(on: $0) }) {
            try cancellation.check()
            let source = next.records[0].source
            let mapping = try self.mapping(source)
            var batch = PreparedBatch()
            for item in next.records { preparer.prepare(item.record, mapping: mapping, into: &batch) }
            var prepared: [(PreparedObject, SourceRecord)] = []
            var uncounted: Set<Int> = []
            for (position, item) in next.records.enumerated() {
                if let error = batch.failures[position] {
                    try tally.reject(error, record: item.record, entity: mapping.entity.name)
                    continue
                }
                if item.repeatsBatchKey { uncounted.insert(prepared.count) }
                prepared.append(
                    (
                        batch.object(
                            batch.recordEntries[position], mappings: staging.mappings, file: builder.files[source],
                            record: item.record), item.record
                    ))
            }
            let applied = try builder.applyObjects(prepared, mapping: mapping, uncounted: uncounted)
            try commit.commit(applied, metadata: [:]) { connection in
                try SetAsideRecords.remove(through: next.through, on: connection)
            }
        }
    }

    /// Resolves the staged references of objects (of the relationship mappings `only` names;
    /// nil: all), a chunk of references at a time.
    private func resolveThroughObjects(only: Set<Int>?) throws {
        let context = target.context
        var finalPass = builder.applier
        finalPass.isFinalPass = true
        var after: Int64 = 0
        while true {
            try cancellation.check()
            let chunk = try context.readRows {
                try staging.objectReferences(after: after, limit: batchSize, only: only, on: $0, store: target.store)
            }
            guard let last = chunk.last?.ref else { return }
            var wanted: [LookupID: Set<KeyValue>] = [:]
            for item in chunk {
                wanted[item.waiting.reference.lookup, default: []].formUnion(item.waiting.reference.keys)
            }
            try lookup.prefetch(wanted)
            var refused: [ManagedObject] = []
            var applied = AppliedObjects()
            for item in chunk {
                let owner = try context.object(with: item.waiting.owner)
                let reference = item.waiting.reference
                do {
                    try finalPass.applyReference(reference, to: owner, origin: reference.origin, into: &applied)
                } catch let error as RecordError {
                    try tally.reject(error, record: nil, entity: owner.entity.name)
                    refused.append(owner)
                }
            }
            try leaveOut(refused)
            try commit.saveResolved(applied, removingStagedThrough: last, only: only)
            after = last
        }
    }

    /// Ends the run: writes the seed version and removes the checkpoint and the staging
    /// tables, in the transaction that ends `journal`.
    func end(_ journal: RunJournal, seedVersion: String?) throws {
        try commit.finish(metadata: seedVersion.map { ["seed.version": $0] } ?? [:], journal: journal)
    }

    /// Leaves out the rows of records refused after the load (``leaveOut(_:)``) and saves.
    private func leaveOut(rows: [RowReference]) throws {
        let context = target.context
        try leaveOut(
            rows.map {
                try context.object(
                    with: ObjectID(storeUUID: target.store.identifier, entityID: $0.entityID, key: $0.key))
            })
        try commit.saveResolved(AppliedObjects(), removingStagedThrough: nil)
    }

    /// Takes back the objects of records refused after the load (with `skip`), so that a
    /// refused record is left out whole: those this run inserted are deleted and no longer
    /// counted as inserted. An object that existed before the run keeps what its record set
    /// (the run's changes to it are not undone one by one), and so does one whose entity has a
    /// `deny` relationship (deleting it could block the save).
    private func leaveOut(_ refused: [ManagedObject]) throws {
        let layout = target.store.layout
        var seen: Set<ObjectIdentifier> = []
        for owner in refused where seen.insert(ObjectIdentifier(owner)).inserted {
            guard target.isOwnRow(owner.objectID.key, in: layout.table(of: owner.entity)),
                !owner.entity.relationships.contains(where: { $0.deleteRule == .deny })
            else { continue }
            try target.context.delete(owner)
            tally.count(owner.entity.name) { $0.inserted -= 1 }
        }
    }
}
