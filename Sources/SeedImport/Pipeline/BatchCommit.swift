// The run's one commit step, for both paths: a batch built as rows is written with SQL, a batch
// applied to objects is saved by the context; either way its checkpoint and the references it
// leaves for the deferred pass commit in the same transaction, and the context is empty after.
// A save that breaks the model's rules refuses (with `skip`) the records whose objects break
// them and saves the rest.
// Invariants: a batch commits whole with its checkpoint, or not at all (a failure ends the run);
// after a commit the context holds no objects and the object lookup no keys.
import Foundation
import GraphStore
import RecordReaders

/// What one batch commits.
enum BatchContent {
    /// New rows, built by the row path.
    case rows(RowBatch)
    /// Changes in the context, applied by the object path.
    case objects(AppliedObjects)
}

/// Commits batches (and the run's end) to the import's store.
final class BatchCommit {
    private let context: ObjectContext
    private let tally: RunTally
    private let lookup: ObjectLookup
    private let rowWriter: RowWriter
    private let planFile: String
    /// References waiting for the deferred pass, committed with the batches that left them.
    private(set) var deferred: [DeferredReference] = []

    init(context: ObjectContext, tally: RunTally, lookup: ObjectLookup, planFile: String) {
        self.context = context
        self.tally = tally
        self.lookup = lookup
        self.rowWriter = RowWriter(model: context.model)
        self.planFile = planFile
    }

    /// Commits `content` with `checkpoint`, counting what it inserted and changed.
    func commit(_ content: BatchContent, checkpoint: ImportCheckpoint) throws {
        var metadata: [String: String?] = [ImportCheckpoint.key: checkpoint.encoded()]
        let deferredKey = ImportCheckpoint.deferredPrefix + String(checkpoint.batches)
        switch content {
        case .rows(let batch):
            let waiting = batch.deferrals.map { item in
                DeferredReference(
                    owner: ObjectID(
                        storeUUID: context.store.identifier, entityID: item.owner.entityID, key: item.owner.key),
                    reference: item.reference, recordPosition: item.origin.resolved)
            }
            if !waiting.isEmpty { metadata[deferredKey] = DeferredReference.encode(waiting) }
            let writer = rowWriter
            try context.writeRows(metadata: metadata) { connection in try writer.write(batch, on: connection) }
            deferred += waiting
            for row in batch.rows { tally.count(row.entity.name) { $0.inserted += 1 } }
        case .objects(let applied):
            countChanges(applied)
            var saved: [DeferredReference] = []
            try save(applied, metadata: metadata) { permanentID in
                saved = applied.waiting.compactMap { item in
                    permanentID(item.owner).map {
                        DeferredReference(owner: $0, reference: item.reference, recordPosition: item.origin.resolved)
                    }
                }
                return saved.isEmpty ? [:] : [deferredKey: DeferredReference.encode(saved)]
            }
            deferred += saved
            lookup.endBatch()
            context.reset()
        }
    }

    /// Takes over the references a killed run left waiting (restored from its checkpoints).
    func resume(deferred restored: [DeferredReference]) {
        deferred = restored
    }

    /// Forgets the waiting references (the deferred pass has applied them).
    func clearDeferred() {
        deferred = []
    }

    /// Saves what the deferred pass changed in the context, refusing records as a batch would.
    func saveResolved() throws {
        try save(AppliedObjects(), metadata: [:])
        lookup.endBatch()
        context.reset()
    }

    /// Commits the end of the run: `metadata` (and the context's last changes) in the
    /// transaction that ends `journal`.
    func finish(metadata: [String: String?], journal: RunJournal) throws {
        try save(AppliedObjects(), metadata: metadata, finishing: journal)
    }

    // MARK: - Objects

    private func countChanges(_ applied: AppliedObjects) {
        for object in context.insertedObjects {
            tally.count(object.entity.name) { $0.inserted += 1 }
        }
        for object in applied.matched.values {
            tally.count(object.entity.name) { counts in
                if object.hasChanges { counts.updated += 1 } else { counts.unchanged += 1 }
            }
        }
    }

    /// Saves the context, refusing (with `skip`) the records whose objects break the model's rules.
    private func save(
        _ applied: AppliedObjects, metadata: [String: String?], finishing journal: RunJournal? = nil,
        lateMetadata: ((ManagedObject) -> ObjectID?) throws -> [String: String?] = { _ in [:] }
    ) throws {
        while true {
            do {
                try context.save(metadata: metadata, finishing: journal, lateMetadata: lateMetadata)
                return
            } catch let error as ObjectValidationError {
                for failure in error.failures {
                    let object = try? context.object(with: failure.objectID)
                    let position = object.flatMap { applied.origins[ObjectIdentifier($0)]?.resolved }
                    let recordError = RecordError(
                        position: position
                            ?? SourcePosition(
                                file: planFile, line: 0, column: 0, byteOffset: 0, recordNumber: 0, path: ""),
                        field: failure.key, value: failure.value,
                        message: "\(failure.entity).\(failure.key ?? "") \(failure.rule)")
                    try tally.reject(recordError, record: nil, entity: failure.entity)
                    if let object {
                        if object.isInserted {
                            try context.delete(object)
                        } else {
                            try context.refresh(object, mergeChanges: false)
                        }
                    }
                }
            }
        }
    }
}
