// The last steps of a run, after every source: the deferred pass resolves the references that
// waited for later records (each must resolve now, or its `missing` policy decides), then the
// run's end commits with its completion metadata, and a new store's deferred indexes are built.
// Invariants: a record refused in the deferred pass (with `skip`) is left out whole — the
// objects this run inserted for it are deleted and no longer counted; the run ends in the
// transaction of its last save, so a kill before it leaves the run to undo or resume.
import GraphStore

/// Finishes an import run.
struct RunFinish {
    let target: ImportTarget
    let tally: RunTally
    let commit: BatchCommit
    let applier: ObjectApplier
    let lookup: ObjectLookup
    let batchSize: Int

    /// Resolves the references left for the deferred pass, batch by batch.
    func resolveDeferred(progress: () -> Void) throws {
        let deferred = commit.deferred
        guard !deferred.isEmpty else { return }
        progress()
        let context = target.context
        var finalPass = applier
        finalPass.isFinalPass = true
        for start in stride(from: 0, to: deferred.count, by: batchSize) {
            let chunk = deferred[start..<min(deferred.count, start + batchSize)]
            var wanted: [LookupID: Set<KeyValue>] = [:]
            for item in chunk { wanted[item.reference.lookup, default: []].formUnion(item.reference.keys) }
            try lookup.prefetch(wanted)
            var refused: [ManagedObject] = []
            var applied = AppliedObjects()
            for item in chunk {
                let owner = try context.object(with: item.owner)
                do {
                    try finalPass.applyReference(
                        item.reference, to: owner, origin: .known(item.recordPosition), into: &applied)
                } catch let error as RecordError {
                    try tally.reject(error, record: nil, entity: owner.entity.name)
                    refused.append(owner)
                }
            }
            try leaveOut(refused)
            try commit.saveResolved()
        }
        commit.clearDeferred()
    }

    /// Ends the run: drops the checkpoint and the deferred references, writes the seed version,
    /// in the transaction that ends `journal`; then builds the indexes a new store deferred.
    func end(_ journal: RunJournal, seedVersion: String?, indexing: () -> Void) throws {
        let store = target.store
        var metadata: [String: String?] = [ImportCheckpoint.key: nil]
        for key in try store.metadata().values.keys where key.hasPrefix(ImportCheckpoint.deferredPrefix) {
            metadata[key] = .some(nil)
        }
        if let seedVersion { metadata["seed.version"] = seedVersion }
        try commit.finish(metadata: metadata, journal: journal)
        if try store.metadata()[StoreMetadata.Key.indexesPending] != nil {
            indexing()
            try store.createIndexes()
        }
    }

    /// Takes back the objects of records refused in the deferred pass (with `skip`), so that a
    /// refused record is left out whole: those this run inserted are deleted and no longer
    /// counted as inserted. An object that existed before the run keeps what its record set
    /// (the run's changes to it are not undone one by one), and so does one whose entity has a
    /// `deny` relationship (deleting it could block the save).
    private func leaveOut(_ refused: [ManagedObject]) throws {
        let model = target.context.model
        var seen: Set<ObjectIdentifier> = []
        for owner in refused where seen.insert(ObjectIdentifier(owner)).inserted {
            guard target.isOwnRow(owner.objectID.key, in: model.root(of: owner.entity).tableName),
                !owner.entity.relationships.contains(where: { $0.deleteRule == .deny })
            else { continue }
            try target.context.delete(owner)
            tally.count(owner.entity.name) { $0.inserted -= 1 }
        }
    }
}
