// One import run, top-down, on the thread that owns its context:
//
//   target      ImportTarget    open (or create) the store, begin or resume its run journal
//   per source  RecordStage     reader → mapping: records read and prepared on a reader thread,
//                               sources over one file sharing one pass (SharedReads, RecordFeed)
//   per batch   BatchBuilder    key resolution and batch building: new rows for a store the run
//                               created (RowBuilder), else changes to objects (ObjectApplier)
//               BatchCommit     one commit: the batch with its checkpoint and waiting references
//   finish      RunFinish       a new store's indexes, the staged references resolved (set-based
//                               for new rows, through objects for the others), the run's end
//
// Invariants: each batch commits with its checkpoint and staged references in one
// transaction; memory holds a batch and bounded indexes, never state per record of the run;
// cancellation is honoured between batches and between the steps after the load, and puts the
// target back like any failure (the error is then `CancellationError`); with `abort`, any
// failure puts the target back as it was (the journal undoes the run, or a store the run
// created is removed); with `skip`, bad records are refused whole and written to the rejects
// file.
import Foundation
import GraphStore
import RecordReaders

/// Runs a plan into a store.
final class ImportRun {
    private let plan: ImportPlan
    private let options: ImportOptions
    private let model: ObjectModel
    private let planFile: String
    private let progress: (ImportProgress) -> Void
    private let cancellation: CancellationFlag
    private let started = Date()
    private let runID: String

    init(
        plan: ImportPlan, model: ObjectModel, planFile: String, options: ImportOptions,
        cancellation: CancellationFlag = CancellationFlag(), progress: @escaping (ImportProgress) -> Void
    ) {
        self.cancellation = cancellation
        self.plan = plan
        self.model = model
        self.planFile = planFile
        self.options = options
        self.progress = progress
        self.runID = "import-" + plan.fingerprint.prefix(16)
    }

    private var batchSize: Int { max(1, options.batchSize ?? plan.batchSize) }

    /// Runs the import and returns its report; throws ``ImportFailure`` when it fails.
    func execute() throws -> ImportReport {
        guard let storePath = options.store ?? plan.store.map(plan.resolve) else {
            throw ImportFailure(
                report: ImportReport(),
                reason: "no store: give one in the plan (store:) or on the command line (--store)")
        }
        let tally = RunTally(
            plan: plan, store: storePath, policy: options.onError ?? plan.onError,
            maxErrors: options.maxErrors ?? plan.maxErrors,
            rejectsPath: options.rejects ?? plan.rejects.map(plan.resolve))
        let mappings = try PlanMappings(plan: plan, model: model, planFile: planFile) { index throws(PlanErrors) in
            try Self.header(of: plan, source: index, planFile: planFile)
        }
        tally.note(mappings.notes)
        let files = plan.sources.map { plan.resolve($0.file) }
        let reads = SharedReads(
            files: files, formats: plan.sources.map(\.format), options: plan.sources.indices.map(readerOptions),
            mappings: mappings.sources, spillPrefix: storePath + ".seedkit-pass-")
        reads.removeSpills()
        defer { reads.removeSpills() }
        let scratch = RunScratch(metadataKeys: [ImportCheckpoint.key]) { connection in
            try StagedReferences.drop(on: connection)
            try SetAsideRecords.drop(on: connection)
            try RunIdentities.drop(on: connection)
        }
        let target: ImportTarget
        do {
            target = try ImportTarget(path: storePath, model: model, plan: plan, options: options, scratch: scratch)
        } catch {
            throw ImportFailure(report: tally.report, reason: "\(error)")
        }
        do {
            let context = target.context
            let layout = target.store.layout
            let staging = StagedReferences(layout: layout, mappings: mappings, files: files)
            let layouts = RowLayouts(layout: layout, mappings: mappings)
            let inputBytes = Set(files).reduce(0) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
            }
            let keys = KeyIndex(
                capacity: options.limits.keysPerLookup,
                filterBits: KeyFilter.bits(forInputBytes: inputBytes, limit: options.limits.filterBits),
                lookups: mappings.lookups.count, indexed: mappings.indexedLookups, lookupNumber: mappings.number(of:))
            let lookup = ObjectLookup(
                context: context, runKeys: target.existed ? nil : keys, lookupNumber: mappings.number(of:))
            let applier = ObjectApplier(target: target, lookup: lookup, keys: keys, staging: staging)
            let builder = BatchBuilder(
                target: target, tally: tally, mappings: mappings, layouts: layouts, keys: keys, lookup: lookup,
                applier: applier,
                buildsRows: !target.existed && options.usesRowPath
                    && RowPathRules.admit(mappings.sources, layout: layout),
                comparesStoredRows: options.comparesStoredRows, files: files,
                destinationsPerLookup: options.limits.destinationsPerLookup)
            importLog.debug(
                "writing \(builder.buildsRows ? "rows directly" : "through objects") (new store: \(!target.existed))")
            let commit = BatchCommit(
                context: context, tally: tally, lookup: lookup, staging: staging, layouts: layouts, planFile: planFile,
                scratch: scratch)
            let finish = RunFinish(
                target: target, tally: tally, builder: builder, commit: commit, staging: staging, layouts: layouts,
                batchSize: batchSize, cancellation: cancellation
            ) { index in try self.resolvedMapping(mappings.sources[index], source: index) }
            // Run identities mean nothing outside their run: a run that has them starts again.
            try target.run(id: runID, resume: options.resume && !plan.usesRunIdentities) { resumed in
                try context.readRows { connection in
                    try staging.create(on: connection, resuming: resumed != nil)
                    try SetAsideRecords.create(on: connection, resuming: resumed != nil)
                    // Only when needed: a seed's bytes depend on every table its build made.
                    if plan.usesRunIdentities { try RunIdentities.create(on: connection, resuming: resumed != nil) }
                }
                var checkpoint = resumed ?? ImportCheckpoint(run: runID, source: 0, records: 0, batches: 0)
                for index in checkpoint.source..<plan.sources.count {
                    tally.reading(source: index)
                    try importSource(
                        index, mapping: mappings.sources[index], reads: reads, checkpoint: &checkpoint,
                        builder: builder, commit: commit, tally: tally)
                }
                tally.reading(source: nil)
                try cancellation.check()
                try finish.buildIndexes { emit(phase: "indexing", tally: tally) }
                try finish.resolveAfterLoad { emit(phase: "references", tally: tally) }
                try cancellation.check()
            } finish: { journal in
                try finish.end(journal, seedVersion: plan.seedVersion)
            }
        } catch {
            target.abandon()
            tally.end(seconds: Date().timeIntervalSince(started), committed: false)
            throw failure(error, tally: tally)
        }
        tally.end(seconds: Date().timeIntervalSince(started), committed: !target.isDryRun)
        emit(phase: "done", tally: tally)
        return tally.report
    }

    // MARK: - Sources

    /// The reader options of the source numbered `index`.
    private func readerOptions(_ index: Int) -> ReaderOptions {
        var options = Self.readerOptions(of: plan, source: index)
        options.readAhead = options.readAhead && (self.options.readsAhead ?? Self.readsAheadByDefault)
        return options
    }

    /// Whether sources are parsed ahead when ``ImportOptions/readsAhead`` does not say:
    /// `SEEDKIT_READ_AHEAD` (1 or 0) when set, else only with three cores or more. On two, the
    /// writing and reader threads keep both busy, and a third thread competing with them costs
    /// more (records built on one core and prepared on another) than it overlaps.
    private static let readsAheadByDefault =
        (ProcessInfo.processInfo.environment["SEEDKIT_READ_AHEAD"].flatMap { Int($0) }).map { $0 != 0 }
        ?? (ProcessInfo.processInfo.activeProcessorCount > 2)

    private static func readerOptions(of plan: ImportPlan, source index: Int) -> ReaderOptions {
        let source = plan.sources[index]
        var options = ReaderOptions(records: source.records)
        options.csv = source.csv.map(Self.csvOptions)
        return options
    }

    /// The header of `plan`'s source `index`, read before a run writes anything: a CSV/TSV
    /// file's columns; the first record of another format only for a source mapped wholly by
    /// convention (no `attributes:`, no `relationships:`), which is all it informs and which
    /// may lie far into the file.
    static func header(of plan: ImportPlan, source index: Int, planFile: String) throws(PlanErrors) -> SourceHeader? {
        let source = plan.sources[index]
        let path = plan.resolve(source.file)
        let format = source.format ?? RecordFormat(path: path)
        let conventional = source.mapping.attributes == nil && source.mapping.relationships.isEmpty
        guard format?.isTabular == true || conventional else { return nil }
        do {
            let reader = try RecordReaderFactory.open(
                .file(path), format: source.format, options: readerOptions(of: plan, source: index))
            return SourceHeader(reading: reader, format: format)
        } catch {
            throw PlanErrors([PlanError(file: planFile, keyPath: "sources[\(index)].file", message: "\(error)")])
        }
    }

    /// `mapping` with its fields resolved against the source numbered `index` (a CSV header).
    private func resolvedMapping(_ mapping: CompiledMapping, source index: Int) throws -> CompiledMapping {
        let source = plan.sources[index]
        do {
            return try RecordStage.resolve(
                mapping, in: .file(plan.resolve(source.file)), format: source.format, options: readerOptions(index))
        } catch {
            throw RecordError(error)
        }
    }

    /// Streams one source through the stages, batch by batch, from the record `checkpoint` names.
    private func importSource(
        _ index: Int, mapping: CompiledMapping, reads: SharedReads, checkpoint: inout ImportCheckpoint,
        builder: BatchBuilder, commit: BatchCommit, tally: RunTally
    ) throws {
        let source = plan.sources[index]
        let path = plan.resolve(source.file)
        let total = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let skip = index == checkpoint.source ? checkpoint.records : 0
        let (input, isPass) = reads.input(for: index)
        if isPass { tally.countPass(over: path, bytes: total) }
        // Into a store that held data every batch goes through objects: the reader thread makes
        // its records whole, alongside the writing thread.
        let reader = RecordStage(
            input: input, batchSize: batchSize, skip: skip, mapping: mapping,
            objects: builder.buildsRows ? nil : RecordStage.ObjectForm(mappings: builder.mappings, file: path))
        defer { reader.cancel() }
        var resolved = mapping
        var recordsDone = skip
        loop: while true {
            switch reader.next() {
            case .mapping(let mapping):
                resolved = mapping
            case .batch(let batch):
                try cancellation.check()
                recordsDone += batch.readCount
                checkpoint = ImportCheckpoint(
                    run: runID, source: index, records: recordsDone, batches: checkpoint.batches + 1)
                let built = try builder.build(batch, mapping: resolved, source: index, number: checkpoint.batches)
                try commit.commit(built, of: batch, source: index, checkpoint: checkpoint)
                emit(
                    phase: "reading", source: source.file, index: index, bytes: batch.bytesConsumed, total: total,
                    tally: tally)
                reader.recycle(batch)
            case .end:
                break loop
            case .failure(let error):
                // A reader cannot go on after an error in its input, so this ends the run whatever the policy.
                try tally.reject(RecordError(error), record: nil, entity: mapping.entity.name, fatal: true)
                break loop
            }
        }
        reads.finished(index)
        checkpoint = ImportCheckpoint(run: runID, source: index + 1, records: 0, batches: checkpoint.batches)
    }

    // MARK: - Errors and progress

    /// The error a failed run throws: an ``ImportFailure`` with the report up to the failure
    /// (or the `CancellationError` of a cancelled one).
    private func failure(_ error: any Error, tally: RunTally) -> any Error {
        if error is CancellationError { return error }
        if let failure = error as? ImportFailure { return failure.with(report: tally.report) }
        if let recordError = error as? RecordError {
            tally.keepFatal(recordError)
            return ImportFailure(report: tally.report, reason: recordError.description)
        }
        return ImportFailure(report: tally.report, reason: "\(error)")
    }

    private func emit(
        phase: String, source: String = "", index: Int? = nil, bytes: Int = 0, total: Int = 0, tally: RunTally
    ) {
        progress(
            ImportProgress(
                source: source, sourceIndex: index ?? plan.sources.count, sourceCount: plan.sources.count,
                bytesRead: bytes, bytesTotal: total, records: tally.report.records,
                seconds: Date().timeIntervalSince(started), phase: phase))
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
