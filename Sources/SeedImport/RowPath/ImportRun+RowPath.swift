// The row path of an import run: a batch whose records all create new rows in a store the run
// created is built as rows and written with SQL in one transaction with its checkpoint and
// deferred references — no objects, no change tracking, no per-object save work.
import GraphStore
import RecordReaders

/// What a run writes its batches with.
struct BatchWriters {
    /// The run's context.
    let context: ObjectContext
    /// The run's key index.
    let resolver: ObjectResolver
    /// The object path.
    let applier: BatchApplier
    /// The row path, when the store is new and the plan fits it (``RowPathRules``).
    let rows: RowBatchWriter?
}

extension ImportRun {
    /// Builds and writes one batch as rows, refusing records that break the model's rules.
    func writeRows(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, writers: BatchWriters,
        writer: RowBatchWriter
    ) throws {
        let context = writers.context
        let layout = context.store.layout
        var builder = RowBatchBuilder(
            layout: layout, resolver: writers.resolver,
            nextKeys: try context.readRows { try nextFreeKeys(of: layout, on: $0) })
        var batch = RowBatch()
        for (object, record) in prepared {
            do {
                try builder.add(object, to: &batch)
            } catch let error as RecordError {
                try reject(error, record: record, entity: mapping.entity.name)
            }
        }
        let waiting = batch.deferrals.map { item in
            DeferredReference(
                owner: ObjectID(
                    storeUUID: context.store.identifier, entityID: item.owner.entityID, key: item.owner.key),
                reference: item.reference, recordPosition: item.origin.resolved)
        }
        var metadata: [String: String?] = [ImportCheckpoint.key: checkpoint.encoded()]
        if !waiting.isEmpty {
            metadata[ImportCheckpoint.deferredPrefix + String(checkpoint.batches)] = encodeDeferred(waiting)
        }
        try context.writeRows(metadata: metadata) { connection in try writer.write(batch, on: connection) }
        deferred += waiting
        for row in batch.rows { report.count(row.entity.name) { $0.inserted += 1 } }
    }

    /// The next free key of every root table of `layout`, by table name.
    func nextFreeKeys(of layout: StoreLayout, on connection: SQLiteConnection) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for root in layout.roots {
            keys[layout.table(of: root)] = try layout.highestKey(ofRoot: root, on: connection) + 1
        }
        return keys
    }
}
