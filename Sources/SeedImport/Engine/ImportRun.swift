// One import run, start to finish, on the thread that owns its context: open the store, start
// (or resume, or undo a leftover) run journal, stream each source in batches through
// prepare → resolve → apply → save → reset, run the deferred pass, and finish — or undo.
// Invariants: each batch commits with its checkpoint and deferred references in one
// transaction; with `abort`, any failure undoes the whole run (and deletes a store the run
// created); with `skip`, bad records are refused whole and written to the rejects file.
import Foundation
import GraphStore
import Logging
import RecordReaders

/// Runs a plan into a store.
final class ImportRun {
    private let plan: ImportPlan
    private let options: ImportOptions
    let model: ObjectModel
    private let planFile: String
    private let progress: (ImportProgress) -> Void
    private let started = Date()
    var report = ImportReport()
    private var context: ObjectContext?
    private var rejects: RejectsFile?
    var deferred: [DeferredReference] = []
    private(set) var checkpoint: ImportCheckpoint
    private let runID: String
    /// The highest key of each root table before the run began: rows above it are the run's own.
    private var watermarks: [String: Int64] = [:]

    init(
        plan: ImportPlan, model: ObjectModel, planFile: String, options: ImportOptions,
        progress: @escaping (ImportProgress) -> Void
    ) {
        self.plan = plan
        self.model = model
        self.planFile = planFile
        self.options = options
        self.progress = progress
        self.runID = "import-" + plan.fingerprint.prefix(16)
        self.checkpoint = ImportCheckpoint(run: runID, source: 0, records: 0, batches: 0)
    }

    private var onError: ErrorPolicy { options.onError ?? plan.onError }
    private var maxErrors: Int { options.maxErrors ?? plan.maxErrors }
    private var batchSize: Int { max(1, options.batchSize ?? plan.batchSize) }

    /// Runs the import and returns its report; throws ``ImportFailure`` when it fails.
    func execute() throws -> ImportReport {
        guard let storePath = options.store ?? plan.store.map(plan.resolve) else {
            throw ImportFailure(
                report: report, reason: "no store: give one in the plan (store:) or on the command line (--store)")
        }
        report.store = storePath
        let existed = FileManager.default.fileExists(atPath: storePath)
        var storeOptions = StoreOptions()
        storeOptions.deferIndexes = !existed && options.deferIndexesOnNewStore && !options.dryRun
        storeOptions.storeUUID = options.newStoreUUID
        storeOptions.writeAheadLog = !(options.newStoreWithoutWAL && !existed)
        let store: PersistentStore
        do {
            store = try PersistentStore.open(at: storePath, model: model, options: storeOptions)
        } catch {
            throw ImportFailure(report: report, reason: "\(error)")
        }
        let context = try ObjectContext(store: store)
        self.context = context
        let compiled = try compileSources()
        do {
            if options.dryRun {
                watermarks = try context.readRows { try nextFreeKeys(of: store.layout, on: $0) }.mapValues { $0 - 1 }
                try context.withoutCommitting {
                    try importAll(compiled, context: context, freshStore: !existed)
                }
                report.committed = false
            } else {
                let journal = try startJournal(context: context, store: store)
                watermarks = journal.watermarks
                // Batches commit without waiting for the disk; the last transaction (the run's end)
                // at the store's own durability. A new store's rows are appended, so its page cache
                // stays small; a store that holds data is read by key, which a larger one helps.
                let saved = try context.useBulkWrites(BulkWriteSettings(pageCacheKiB: existed ? 64 * 1024 : 8 * 1024))
                do {
                    try importAll(compiled, context: context, freshStore: !existed && checkpoint.batches == 0)
                    try context.restore(saved)
                    try finish(context: context, store: store, journal: journal)
                } catch {
                    try? context.restore(saved)
                    try? context.undoRun(journal)
                    throw error
                }
                report.committed = true
            }
        } catch {
            if !existed && !options.dryRun {
                try? StoreFiles.remove(storePath)
            }
            report.seconds = Date().timeIntervalSince(started)
            report.committed = false
            if let failure = error as? ImportFailure { throw failure.with(report: report) }
            if let recordError = error as? RecordError {
                if !report.errors.contains(recordError) { report.errors.append(recordError) }
                throw ImportFailure(report: report, reason: recordError.description)
            }
            throw ImportFailure(report: report, reason: "\(error)")
        }
        report.seconds = Date().timeIntervalSince(started)
        emit(phase: "done", source: "", index: plan.sources.count, bytes: 0, total: 0)
        return report
    }

    // MARK: - Journal

    private func startJournal(context: ObjectContext, store: PersistentStore) throws -> RunJournal {
        if let active = try context.activeRun() {
            // Run identities (`key: [object-id]`) live in memory only: such a run starts again.
            if options.resume, !plan.usesRunIdentities, active.id == runID,
                let stored = ImportCheckpoint.stored(in: try store.metadata()),
                stored.run == runID
            {
                checkpoint = stored
                if try store.metadata()[StoreMetadata.Key.indexesPending] != nil { try store.createIndexes() }
                try context.resumeRun(active)
                deferred = try restoreDeferred(from: store.metadata())
                return active
            }
            try context.undoRun(active)
        }
        return try context.beginRun(id: runID)
    }

    private func finish(context: ObjectContext, store: PersistentStore, journal: RunJournal) throws {
        var metadata: [String: String?] = [ImportCheckpoint.key: nil]
        for key in try store.metadata().values.keys where key.hasPrefix(ImportCheckpoint.deferredPrefix) {
            metadata[key] = .some(nil)
        }
        if let version = plan.seedVersion { metadata["seed.version"] = version }
        try save(context, metadata: metadata, finishing: journal)
        if try store.metadata()[StoreMetadata.Key.indexesPending] != nil {
            emit(phase: "indexing", source: "", index: plan.sources.count, bytes: 0, total: 0)
            try store.createIndexes()
        }
    }

    // MARK: - Sources

    private func compileSources() throws -> [CompiledMapping] {
        let compiler = MappingCompiler(model: model, planFile: planFile)
        var compiled: [CompiledMapping] = []
        for (index, source) in plan.sources.enumerated() {
            let format = source.format ?? RecordFormat(path: source.file)
            let separator = format == .csv || format == .tsv ? ";" : nil
            compiled.append(try compiler.compile(source.mapping, path: "sources[\(index)]", listSeparator: separator))
        }
        return compiled
    }

    private func importAll(_ compiled: [CompiledMapping], context: ObjectContext, freshStore: Bool) throws {
        let resolver = ObjectResolver(context: context, usesMemoryIndex: freshStore)
        let applier = BatchApplier(context: context, resolver: resolver)
        let rows =
            freshStore && options.usesRowPath && RowPathRules.admit(compiled, layout: context.store.layout)
            ? RowBatchWriter(layout: context.store.layout) : nil
        importLog.debug("writing \(rows == nil ? "through objects" : "rows directly") (fresh store: \(freshStore))")
        for index in checkpoint.source..<plan.sources.count {
            let skip = index == checkpoint.source ? checkpoint.records : 0
            try importSource(
                index, mapping: compiled[index], skip: skip,
                writers: BatchWriters(context: context, resolver: resolver, applier: applier, rows: rows))
        }
        try deferredPass(context: context, resolver: resolver, applier: applier)
    }

    private func importSource(_ index: Int, mapping: CompiledMapping, skip: Int, writers: BatchWriters) throws {
        let source = plan.sources[index]
        let path = plan.resolve(source.file)
        let total = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var readerOptions = ReaderOptions(records: source.records)
        readerOptions.csv = source.csv.map(Self.csvOptions)
        let queue = RecordBatchQueue(
            source: .file(path), format: source.format, options: readerOptions, batchSize: batchSize, skip: skip,
            mapping: mapping)
        defer { queue.cancel() }
        var resolved = mapping
        var recordsDone = skip
        loop: while true {
            switch queue.next() {
            case .mapping(let mapping):
                resolved = mapping
            case .batch(let batch):
                let prepared = try accept(batch.records, entity: resolved.entity.name)
                recordsDone += batch.records.count
                checkpoint = ImportCheckpoint(
                    run: runID, source: index, records: recordsDone, batches: checkpoint.batches + 1)
                if let rows = writers.rows, RowBatchBuilder.admits(prepared, resolver: writers.resolver) {
                    try writeRows(prepared, mapping: resolved, writers: writers, writer: rows)
                } else {
                    let changing = try leaveOutUnchanged(prepared, mapping: resolved, writers: writers)
                    try applyBatch(changing, mapping: resolved, writers: writers)
                    try saveBatch(context: writers.context, resolver: writers.resolver, applier: writers.applier)
                }
                emit(phase: "reading", source: source.file, index: index, bytes: batch.bytesConsumed, total: total)
                queue.recycle(RecycledBatch(batch: batch, prepared: prepared))
            case .end:
                break loop
            case .failure(let error):
                // A reader cannot go on after an error in its input, so this ends the run whatever the policy.
                try reject(RecordError(error), record: nil, entity: mapping.entity.name, fatal: true)
                break loop
            }
        }
        checkpoint = ImportCheckpoint(run: runID, source: index + 1, records: 0, batches: checkpoint.batches)
    }

    /// Counts a batch's records and refuses the ones that did not fit their mapping.
    private func accept(_ records: [PreparedRecord], entity: String) throws -> [(PreparedObject, SourceRecord)] {
        var prepared: [(PreparedObject, SourceRecord)] = []
        prepared.reserveCapacity(records.count)
        for item in records {
            report.records += 1
            switch item.prepared {
            case .success(let object): if let record = item.record { prepared.append((object, record)) }
            case .failure(let error): try reject(error, record: item.record, entity: entity)
            }
        }
        return prepared
    }

    /// Counts the records that would change nothing and returns the others (see ``UnchangedRecords``).
    private func leaveOutUnchanged(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, writers: BatchWriters
    ) throws -> [(PreparedObject, SourceRecord)] {
        let layout = writers.context.store.layout
        guard options.comparesStoredRows, UnchangedRecords.applies(to: mapping, layout: layout) else { return prepared }
        let unchanged = try writers.context.readRows { connection in
            try UnchangedRecords(layout: layout, resolver: writers.resolver, connection: connection)
                .find(in: prepared, mapping: mapping)
        }
        guard !unchanged.isEmpty else { return prepared }
        for entity in unchanged.values { report.count(entity.name) { $0.unchanged += 1 } }
        return prepared.indices.filter { unchanged[$0] == nil }.map { prepared[$0] }
    }

    /// Applies prepared records to objects of the context (the object path).
    private func applyBatch(
        _ prepared: [(PreparedObject, SourceRecord)], mapping: CompiledMapping, writers: BatchWriters
    )
        throws
    {
        var wanted: [LookupID: Set<KeyValue>] = [:]
        for (object, _) in prepared { object.collectLookups(into: &wanted) }
        try writers.resolver.prefetch(wanted)
        try prefetchToMany(
            prepared.map(\.0), mapping: mapping, resolver: writers.resolver, context: writers.context)
        for (object, record) in prepared {
            do {
                try writers.applier.apply(object)
            } catch let error as RecordError {
                try reject(error, record: record, entity: mapping.entity.name)
            }
        }
    }

    /// Loads the mapped to-many relationships of the batch's existing objects in bulk, so
    /// adding a member they already have changes nothing.
    private func prefetchToMany(
        _ prepared: [PreparedObject], mapping: CompiledMapping, resolver: ObjectResolver, context: ObjectContext
    ) throws {
        guard let lookup = mapping.keyLookup else { return }
        let existing = prepared.compactMap { object in object.key.flatMap { resolver.object(lookup, $0) } }
            .filter { !$0.isInserted }
        guard !existing.isEmpty else { return }
        for relationship in mapping.relationships where relationship.relationship.isToMany {
            try context.prefetch(relationship.relationship.name, of: existing)
        }
    }

    // MARK: - Saving

    private func saveBatch(context: ObjectContext, resolver: ObjectResolver, applier: BatchApplier) throws {
        countChanges(context: context, applier: applier)
        let waiting = applier.waiting
        let deferredKey = ImportCheckpoint.deferredPrefix + String(checkpoint.batches)
        var saved: [DeferredReference] = []
        try save(context, metadata: [ImportCheckpoint.key: checkpoint.encoded()], finishing: nil) { permanentID in
            saved = waiting.compactMap { item in
                permanentID(item.owner).map {
                    DeferredReference(owner: $0, reference: item.reference, recordPosition: item.origin.resolved)
                }
            }
            return saved.isEmpty ? [:] : [deferredKey: self.encodeDeferred(saved)]
        }
        deferred += saved
        resolver.endBatch()
        applier.endBatch()
        context.reset()
    }

    /// Saves, refusing (with `skip`) the records whose objects break the model's rules.
    private func save(
        _ context: ObjectContext, metadata: [String: String?], finishing journal: RunJournal?,
        lateMetadata: ((ManagedObject) -> ObjectID?) throws -> [String: String?] = { _ in [:] }
    ) throws {
        while true {
            do {
                try context.save(metadata: metadata, finishing: journal, lateMetadata: lateMetadata)
                return
            } catch let error as ObjectValidationError {
                let origins = currentOrigins
                for failure in error.failures {
                    let object = try? context.object(with: failure.objectID)
                    let position = object.flatMap { origins[ObjectIdentifier($0)]?.resolved }
                    let recordError = RecordError(
                        position: position
                            ?? SourcePosition(
                                file: planFile, line: 0, column: 0, byteOffset: 0, recordNumber: 0, path: ""),
                        field: failure.key, value: failure.value,
                        message: "\(failure.entity).\(failure.key ?? "") \(failure.rule)")
                    try reject(recordError, record: nil, entity: failure.entity)
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

    private var currentApplier: BatchApplier?
    private var currentOrigins: [ObjectIdentifier: PreparedPosition] { currentApplier?.origins ?? [:] }

    private func countChanges(context: ObjectContext, applier: BatchApplier) {
        currentApplier = applier
        for object in context.insertedObjects {
            report.count(object.entity.name) { $0.inserted += 1 }
        }
        for object in applier.matched.values {
            report.count(object.entity.name) { counts in
                if object.hasChanges { counts.updated += 1 } else { counts.unchanged += 1 }
            }
        }
    }

    // MARK: - Errors

    /// Refuses a record: with `abort` (or a fatal error) the run stops; with `skip` it is
    /// written to the rejects file and counted, until `maxErrors`.
    func reject(_ error: RecordError, record: SourceRecord?, entity: String, fatal: Bool = false) throws {
        report.errors.append(error)
        report.count(entity) { $0.rejected += 1 }
        guard onError == .skip, !fatal else { throw error }
        if rejects == nil, let path = options.rejects ?? plan.rejects.map(plan.resolve) {
            rejects = try RejectsFile(path: path)
        }
        try rejects?.write(error, record: record)
        if report.errors.count > maxErrors {
            throw ImportFailure(
                report: report, reason: "more than \(maxErrors) rejected records (maxErrors); nothing was imported")
        }
    }

    // MARK: - Deferred references

    private func deferredPass(context: ObjectContext, resolver: ObjectResolver, applier: BatchApplier) throws {
        guard !deferred.isEmpty else { return }
        emit(phase: "references", source: "", index: plan.sources.count, bytes: 0, total: 0)
        applier.isFinalPass = true
        defer { applier.isFinalPass = false }
        for start in stride(from: 0, to: deferred.count, by: batchSize) {
            let chunk = deferred[start..<min(deferred.count, start + batchSize)]
            var wanted: [LookupID: Set<KeyValue>] = [:]
            for item in chunk { wanted[item.reference.lookup, default: []].formUnion(item.reference.keys) }
            try resolver.prefetch(wanted)
            var refused: [ManagedObject] = []
            for item in chunk {
                let owner = try context.object(with: item.owner)
                do {
                    try applier.applyReference(item.reference, to: owner, origin: .known(item.recordPosition))
                } catch let error as RecordError {
                    try reject(error, record: nil, entity: owner.entity.name)
                    refused.append(owner)
                }
            }
            try leaveOut(refused, context: context)
            try save(context, metadata: [:], finishing: nil)
            resolver.endBatch()
            applier.endBatch()
            context.reset()
        }
        deferred = []
    }

    /// Takes back the objects of records refused in the deferred pass (with `skip`), so that a
    /// refused record is left out whole: those this run inserted are deleted and no longer
    /// counted as inserted. An object that existed before the run keeps what its record set
    /// (the run's changes to it are not undone one by one), and so does one whose entity has a
    /// `deny` relationship (deleting it could block the save).
    private func leaveOut(_ refused: [ManagedObject], context: ObjectContext) throws {
        var seen: Set<ObjectIdentifier> = []
        for owner in refused where seen.insert(ObjectIdentifier(owner)).inserted {
            let table = context.store.layout.table(of: owner.entity)
            guard owner.objectID.key > watermarks[table, default: 0],
                !owner.entity.relationships.contains(where: { $0.deleteRule == .deny })
            else { continue }
            try context.delete(owner)
            report.count(owner.entity.name) { $0.inserted -= 1 }
        }
    }

    func encodeDeferred(_ references: [DeferredReference]) -> String {
        let stored = references.map { item in
            StoredDeferredReference(
                entity: item.owner.entityID, key: item.owner.key, mapping: item.reference.mapping.id,
                keys: item.reference.keys.map { $0.parts.map(\.description) }, file: item.recordPosition.file,
                line: item.recordPosition.line, column: item.recordPosition.column,
                byteOffset: item.recordPosition.byteOffset, record: item.recordPosition.recordNumber)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(stored)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    private func restoreDeferred(from metadata: StoreMetadata) throws -> [DeferredReference] {
        let mappings = try compileSources().reduce(into: [String: CompiledRelationship]()) { result, mapping in
            result.merge(mapping.relationshipsByID) { first, _ in first }
        }
        var restored: [DeferredReference] = []
        for (key, text) in metadata.values.sorted(by: { $0.key < $1.key })
        where key.hasPrefix(ImportCheckpoint.deferredPrefix) {
            let items = try JSONDecoder().decode([StoredDeferredReference].self, from: Data(text.utf8))
            for item in items {
                guard let mapping = mappings[item.mapping], case .reference(_, let coercers, _, _, _) = mapping.source
                else { continue }
                let keys = try item.keys.map { parts in
                    KeyValue(
                        try zip(parts, coercers).map { part, coercer in try coercer.coerce(text: part) ?? .string(part)
                        })
                }
                let position = SourcePosition(
                    file: item.file, line: item.line, column: item.column, byteOffset: item.byteOffset,
                    recordNumber: item.record, path: "")
                let reference = PreparedReference(mapping: mapping, keys: keys, origin: .known(position))
                let owner = ObjectID(
                    storeUUID: context?.store.identifier ?? UUID(), entityID: item.entity, key: item.key)
                restored.append(DeferredReference(owner: owner, reference: reference, recordPosition: position))
            }
        }
        return restored
    }

    // MARK: - Progress

    private func emit(phase: String, source: String, index: Int, bytes: Int, total: Int) {
        progress(
            ImportProgress(
                source: source, sourceIndex: index, sourceCount: plan.sources.count, bytesRead: bytes,
                bytesTotal: total,
                records: report.records, seconds: Date().timeIntervalSince(started), phase: phase))
    }

    private static func csvOptions(_ options: CSVPlanOptions) -> CSVOptions {
        var csv = CSVOptions()
        if let delimiter = options.delimiter?.utf8.first { csv.delimiter = delimiter }
        if let quote = options.quote { csv.quote = quote.utf8.first }
        if let header = options.header { csv.hasHeader = header }
        if let ragged = options.allowRagged { csv.allowRagged = ragged }
        if let strict = options.strict { csv.strict = strict }
        return csv
    }
}
