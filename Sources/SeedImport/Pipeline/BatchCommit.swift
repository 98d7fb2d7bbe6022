// The run's one commit step, for both paths: a batch built as rows is written with SQL, a batch
// applied to objects is saved by the context; either way its checkpoint, the references it
// leaves for after the load (staged by key), the destinations it created for references and
// the run identities of its new objects commit in the same transaction, and the context is empty after. A save that breaks the
// model's rules refuses (with `skip`) the records whose objects break them and saves the rest.
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
    private let staging: StagedReferences
    private let rowWriter: RowWriter
    private let planFile: String
    /// What the run keeps in the store only while it is active.
    private let scratch: RunScratch

    init(
        context: ObjectContext, tally: RunTally, lookup: ObjectLookup, staging: StagedReferences, layouts: RowLayouts,
        planFile: String, scratch: RunScratch
    ) {
        self.context = context
        self.tally = tally
        self.lookup = lookup
        self.staging = staging
        self.rowWriter = RowWriter(mappings: staging.mappings, layouts: layouts)
        self.planFile = planFile
        self.scratch = scratch
    }

    /// Commits `built` (made from `batch`, read from the source numbered `source`) with
    /// `checkpoint` (and the records set aside from it), counting what it inserted and changed.
    func commit(_ built: BuiltBatch, of batch: PreparedBatch, source: Int, checkpoint: ImportCheckpoint) throws {
        let metadata: [String: String?] = [ImportCheckpoint.key: checkpoint.encoded()]
        let setAside = built.setAside
        let keepSetAside = { (connection: SQLiteConnection) in try SetAsideRecords.append(setAside, on: connection) }
        switch built.content {
        case .rows(let rows):
            try write(rows, of: batch, source: source, metadata: metadata, alsoWrite: keepSetAside)
        case .objects(let applied):
            try commit(applied, metadata: metadata, alsoWrite: keepSetAside)
        }
    }

    /// Saves the objects `applied` changed, counting what they inserted and changed, with
    /// `metadata` and what `alsoWrite` writes in the same transaction.
    func commit(
        _ applied: AppliedObjects, metadata: [String: String?], alsoWrite: @escaping (SQLiteConnection) throws -> Void
    ) throws {
        countChanges(applied)
        try save(applied, metadata: metadata, alsoWrite: alsoWrite)
    }

    /// Writes `rows` of new rows, whose values are in `batch` (read from the source numbered
    /// `source`), with `metadata` (and what `alsoWrite` writes), counting them.
    func write(
        _ rows: RowBatch, of batch: PreparedBatch, source: Int, metadata: [String: String?] = [:],
        alsoWrite: (SQLiteConnection) throws -> Void = { _ in }
    ) throws {
        let writer = rowWriter
        let staging = self.staging
        try context.writeRows(metadata: metadata) { connection in
            try writer.write(rows, of: batch, on: connection)
            try staging.append(rows.staged, of: batch, source: source, on: connection)
            try staging.noteFirstWriters(rows.firstWriters, of: batch, source: source, on: connection)
            try staging.noteRowPositions(rows.positions, source: source, on: connection)
            try alsoWrite(connection)
        }
        for (index, entityRows) in rows.rows.enumerated() where !entityRows.keys.isEmpty {
            tally.count(context.model.entities[index].name) { $0.inserted += entityRows.keys.count }
        }
    }

    /// Saves what the resolution of staged references changed in the context (counting the
    /// destinations it created), and forgets the staged references of objects up to `through`
    /// (with `only`, of the relationship mappings it names) in the same transaction.
    func saveResolved(_ applied: AppliedObjects, removingStagedThrough through: Int64?, only: Set<Int>? = nil) throws {
        countChanges(applied)
        try save(applied, metadata: [:]) { connection in
            if let through { try self.staging.removeObjectReferences(through: through, only: only, on: connection) }
        }
    }

    /// Commits the end of the run: `metadata` (and the context's last changes) in the
    /// transaction that ends `journal` and removes what the run kept in the store.
    func finish(metadata: [String: String?], journal: RunJournal) throws {
        try save(
            AppliedObjects(), metadata: scratch.removedMetadata.merging(metadata) { _, new in new },
            finishing: journal, alsoWrite: scratch.dropTables)
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

    /// Saves the context with `metadata`, the batch's waiting references and created
    /// destinations (and what `alsoWrite` writes) in one transaction, refusing (with `skip`) the
    /// records whose objects break the model's rules; then empties the context.
    private func save(
        _ applied: AppliedObjects, metadata: [String: String?], finishing journal: RunJournal? = nil,
        alsoWrite: @escaping (SQLiteConnection) throws -> Void = { _ in }
    ) throws {
        let staging = self.staging
        let context = self.context
        let lookup = self.lookup
        guard context.hasChanges || !metadata.isEmpty || journal != nil else {
            // Nothing to save: what the transaction would have carried is written alone.
            try context.writeRows(alsoWrite)
            lookup.endBatch()
            return
        }
        while true {
            let placed = context.insertedObjects.filter { staging.notesRowPositions[$0.entity.index] }.compactMap {
                object in applied.origins[ObjectIdentifier(object)].map { (object, $0.resolved) }
            }
            do {
                try context.save(metadata: metadata, finishing: journal) { permanentID in
                    let staged = applied.waiting.compactMap { item in
                        permanentID(item.owner).map {
                            StagedReference(
                                mapping: item.reference.mapping,
                                owner: RowReference(entityID: $0.entityID, key: $0.key),
                                keys: Array(item.reference.keys.enumerated().map { ($0, $1) }), throughObjects: true,
                                position: item.reference.position)
                        }
                    }
                    try context.readRows { connection in
                        for item in applied.overridden {
                            try staging.removeOverridden(item.relationship, of: item.owner, on: connection)
                        }
                        try staging.append(staged, on: connection)
                        try staging.recordCreated(applied.created, on: connection)
                        try staging.noteFirstWriters(
                            applied.firstWriters.compactMap { item in
                                permanentID(item.object) == nil ? nil : (item.key, item.position.resolved)
                            }, on: connection)
                        try staging.removeCreated(applied.filled, on: connection)
                        try staging.noteRowPositions(
                            placed.compactMap { object, position in
                                permanentID(object).map { (RowReference(entityID: $0.entityID, key: $0.key), position) }
                            }, on: connection)
                        try RunIdentities.note(lookup.newIdentities(permanentID), on: connection)
                        try alsoWrite(connection)
                    }
                    return [:]
                }
                lookup.endBatch()
                context.reset()
                return
            } catch let error as ObjectValidationError {
                try refuse(error, origins: applied.origins)
            }
        }
    }

    /// Refuses the records whose objects broke the model's rules and takes their changes back.
    private func refuse(_ error: ObjectValidationError, origins: [ObjectIdentifier: PreparedPosition]) throws {
        for failure in error.failures {
            let object = try? context.object(with: failure.objectID)
            let position = object.flatMap { origins[ObjectIdentifier($0)]?.resolved }
            let recordError = RecordError(
                position: position
                    ?? SourcePosition(file: planFile, line: 0, column: 0, byteOffset: 0, recordNumber: 0, path: ""),
                field: failure.key, value: failure.value,
                message: "\(failure.entity).\(failure.key ?? "") \(failure.rule)")
            try tally.reject(recordError, record: nil, entity: failure.entity)
            if let object {
                if object.isInserted {
                    // Counted as inserted before the save (countChanges): it is not, after all.
                    try context.delete(object)
                    tally.count(object.entity.name) { $0.inserted -= 1 }
                } else {
                    try context.refresh(object, mergeChanges: false)
                }
            }
        }
    }
}
