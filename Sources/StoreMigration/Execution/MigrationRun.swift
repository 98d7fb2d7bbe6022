// One migration of one store, top-down (docs/Migration.md, "Execution" and "Crash safety"):
// plan (read only: the chain, every pass compiled, the first pass's dropped data counted, every
// refusal decided); then, under the directory's lock: leftovers of a killed migration removed,
// the store prepared (a run a killed job left undone, its write-ahead log checkpointed, so the
// file is complete by itself), its fingerprint and the free space checked; a change of metadata
// only is written in place (in SeedKit's layout; a Core Data store, whose entity version hashes
// are Core Data's keys, is rebuilt); otherwise each pass builds a new file, laid out as the store
// is, from the previous one (hooks run on it), and the last is installed in the store's place: a
// backup first if asked, then the store's side files removed, an atomic rename, and the directory
// synced.
// Invariants: at every instant the store is the complete old store or the complete new one;
// every error, a cancellation included, removes the migration's files and leaves the store as it
// was; a store written to by another process during the migration is not replaced.
import Foundation
import GraphStore
import ModelFiles

/// Runs one migration (on the caller's thread; StoreMigrator puts it on a thread of its own).
struct MigrationRun {
    let files: MigrationFiles
    let source: MigrationSource
    let options: MigrationOptions
    /// Receives every progress update.
    let emit: @Sendable (MigrationProgress) -> Void

    private var store: String { files.store }
    private var inPlace: Bool { files.store == files.result }

    // MARK: - Planning

    /// What a plan needs later: the resolved chain and the store's layout rules.
    struct Planned {
        let plan: MigrationPlan
        let chain: ResolvedChain
        let rules: any StoreLayoutRules
        let metadata: StoreMetadata
    }

    /// Works out the migration without writing anything.
    func plan() throws -> Planned {
        try withStorePath {
            guard FileManager.default.fileExists(atPath: store) else {
                throw MigrationError(.store("there is no store at this path"), store: store)
            }
            let metadata = try storeErrors { try PersistentStore.metadata(at: store) }
            let chain = try ChainResolver(source: source, options: options, store: store).resolve(metadata: metadata)
            let rules = try layoutRules(of: store)
            var dropped: [String] = []
            for (index, spec) in chain.passes.enumerated() {
                let problems = Self.newFileRules(rules).problems(storing: spec.destinationModel)
                guard problems.isEmpty else {
                    throw MigrationError(
                        .store(
                            "\(spec.to) cannot be laid out in the store's layout: " + problems.joined(separator: "; ")),
                        store: store)
                }
                let compiled = try compile(spec, pass: index, rules: rules)
                if index == 0 { dropped = try countDropped(compiled.program) }
            }
            let plan = MigrationPlan(
                store: store, sourceVersion: chain.sourceVersion, sourceHash: chain.sourceHash,
                targetVersion: chain.targetVersion, targetHash: chain.targetModel.versionHash,
                passes: chain.passes.map { MigrationPlan.Pass(steps: $0.steps) }, dataDropped: dropped,
                warnings: chain.warnings)
            return Planned(plan: plan, chain: chain, rules: rules, metadata: metadata)
        }
    }

    /// The store's layout rules, read from the file.
    private func layoutRules(of path: String) throws -> any StoreLayoutRules {
        try storeErrors {
            let connection = try SQLiteConnection(path: StoreReadAccess.uri(forFile: path), mode: .readOnly)
            defer { connection.close() }
            guard let rules = try StoreLayout.rules(of: connection) else { throw StoreError(.notAStore, path: path) }
            return rules
        }
    }

    /// The rules of the files the passes build: the store's layout (the result is laid out as the
    /// store was, so a Core Data store stays one that Core Data opens at the new version), for a
    /// new file — not the rules read from the store, which know the store's own tables.
    static func newFileRules(_ rules: any StoreLayoutRules) -> any StoreLayoutRules {
        StoreLayoutKind(rawValue: rules.name)?.rules ?? rules
    }

    /// The program of the pass numbered `pass` (from 0), and its policies when it has any: the
    /// first pass reads the store (`rules`, read from it), later ones the file the pass before built.
    private func compile(_ spec: PassSpec, pass: Int, rules: any StoreLayoutRules) throws -> (
        program: PassProgram, policies: PolicyCalls?
    ) {
        let sourceLayout = StoreLayout(model: spec.sourceModel, rules: pass == 0 ? rules : Self.newFileRules(rules))
        let destinationLayout = StoreLayout(model: spec.destinationModel, rules: Self.newFileRules(rules))
        switch spec.work {
        case .inferred(let mapping):
            let program = InferredPassCompiler(
                mapping: mapping, source: sourceLayout, destination: destinationLayout,
                truncateToMany: options.truncateToMany
            ).compile()
            return (program, nil)
        case .mapping(let index):
            let compiled = try MappingPassCompiler(
                mapping: source.mappings[index], file: source.mappingName(index), source: sourceLayout,
                destination: destinationLayout, policies: source.policies, skipped: options.skippedPolicies
            ).compile()
            return (
                compiled.program,
                compiled.uses.isEmpty ? nil : PolicyCalls(program: compiled.program, uses: compiled.uses)
            )
        }
    }

    /// Counts what `program` drops, on the store opened read-only.
    private func countDropped(_ program: PassProgram) throws -> [String] {
        guard !program.dataLoss.isEmpty else { return [] }
        return try storeErrors {
            let scratch = try SQLiteConnection.inMemory()
            defer { scratch.close() }
            let attach = try scratch.prepare("ATTACH DATABASE ? AS src")
            attach.bind(text: StoreReadAccess.uri(forFile: store), at: 1)
            try attach.execute()
            var lines: [String] = []
            for probe in program.dataLoss {
                let statement = try scratch.prepare(probe.sql)
                let count = try statement.step() ? statement.int64(0) : 0
                if count > 0 { lines.append("\(probe.subject): \(count) \(probe.unit)") }
            }
            return lines
        }
    }

    /// The rows of the store (objects and join-table rows): each pass's estimate until it counts its own.
    private func storeRows(_ planned: Planned) throws -> Int {
        guard let first = planned.chain.passes.first else { return 0 }
        let layout = StoreLayout(model: first.sourceModel, rules: planned.rules)
        return try storeErrors {
            let connection = try SQLiteConnection(path: StoreReadAccess.uri(forFile: store), mode: .readOnly)
            defer { connection.close() }
            var rows = 0
            for table in layout.roots.map(layout.table(of:)) + layout.joinTables.map(\.name) {
                let statement = try connection.prepare("SELECT count(*) FROM \(SQLiteIdentifier.quote(table))")
                rows += try statement.step() ? statement.int(0) : 0
            }
            return rows
        }
    }

    // MARK: - Running

    /// Migrates; the caller holds the directory's lock.
    func run() throws -> MigrationReport {
        let started = Date()
        let planned = try plan()
        var report = MigrationReport(
            store: store, output: files.result, from: planned.plan.sourceName, to: planned.chain.targetVersion)
        report.dryRun = options.dryRun
        report.warnings = planned.chain.warnings
        let tracker = ProgressTracker(
            passes: planned.chain.passes.map { ($0.from, $0.to) }, estimate: try storeRows(planned), emit: emit)
        guard !planned.chain.passes.isEmpty else {
            tracker.finish()
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        if !options.allowDataLoss && !planned.plan.dataDropped.isEmpty {
            throw MigrationError(.dataLoss(planned.plan.dataDropped), store: store)
        }
        tracker.enter(.preparing)
        return try withStorePath {
            do {
                try files.removeLeftovers()
                let metadata = try prepareStore(planned, report: &report)
                options.onStopPoint?(.prepared)
                let size = try files.storeSize()
                try files.requireSpace(size + size / 10)
                let fingerprint = try files.fingerprint()
                if inPlace, !options.dryRun, let spec = planned.chain.passes.first, planned.chain.passes.count == 1,
                    // Only a store naming its model by `model.hash` has its model's metadata
                    // rewritten in place; a Core Data store's new file gets Core Data's keys.
                    planned.metadata.modelHash != nil, try writesMetadataOnly(spec, rules: planned.rules)
                {
                    try rewriteMetadata(to: spec.destinationModel, from: planned.chain.sourceHash)
                    report.passes = [
                        MigrationReport.Pass(
                            from: spec.from, to: spec.to, kind: .metadata, mapping: nil, versions: spec.versions)
                    ]
                } else {
                    try runPasses(planned, metadata: metadata, tracker: tracker, report: &report)
                    if !options.dryRun { try install(fingerprint: fingerprint, tracker: tracker, report: &report) }
                }
                report.steps = planned.chain.passes.reduce(0) { $0 + $1.steps.count }
                report.changed = !options.dryRun
                tracker.finish()
                report.seconds = Date().timeIntervalSince(started)
                return report
            } catch {
                try? files.removeLeftovers()
                throw error
            }
        }
    }

    /// Undoes a run a killed job left in the store, and checkpoints its write-ahead log, so the
    /// store is one complete file; returns its metadata after that.
    private func prepareStore(_ planned: Planned, report: inout MigrationReport) throws -> StoreMetadata {
        guard inPlace else {
            if planned.metadata["run.active"] != nil {
                throw MigrationError(
                    .store(
                        "the store has an unfinished run (run.active): migrate it in place, or open it with SeedKit first"
                    ),
                    store: store)
            }
            return planned.metadata
        }
        return try storeErrors {
            var metadata = planned.metadata
            if metadata["run.active"] != nil {
                var storeOptions = StoreOptions()
                storeOptions.writeAheadLog = false
                let opened = try PersistentStore.open(
                    at: store, model: planned.chain.passes[0].sourceModel, options: storeOptions)
                if let run = try ObjectContext(store: opened).undoLeftoverRun() {
                    report.warnings.append(
                        "undid the unfinished run \(run.id) left in the store by a job that was killed")
                }
                metadata = try PersistentStore.metadata(at: store)
            }
            if let log = try? FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int, log > 0 {
                let connection = try SQLiteConnection(path: store, mode: .readWrite)
                defer { connection.close() }
                connection.busyTimeout = 1
                do {
                    // A fresh connection learns that the file is in WAL mode only when it first
                    // reads; until then a checkpoint does nothing and says so with -1 frames.
                    try connection.execute("SELECT count(*) FROM sqlite_master")
                    let result = try connection.checkpoint(mode: .truncate)
                    // Rollback-journal mode: the store is one self-contained file that the passes
                    // read and that no connection's closing checkpoints under them.
                    guard result.logFrameCount >= 0, result.checkpointedFrameCount == result.logFrameCount,
                        try connection.setJournalMode(.delete) == .delete
                    else {
                        throw MigrationError(.storeBusy, store: store)
                    }
                } catch let error as SQLiteError where error.isBusy || error.isLocked {
                    throw MigrationError(.storeBusy, store: store)
                }
            }
            return metadata
        }
    }

    /// Whether the single pass changes nothing but the model's metadata: every row kept as it is
    /// and both schemas equal.
    private func writesMetadataOnly(_ spec: PassSpec, rules: any StoreLayoutRules) throws -> Bool {
        guard case .inferred = spec.work, spec.hooks.isEmpty else { return false }
        let program = try compile(spec, pass: 0, rules: rules).program
        guard program.keepsEveryRow, program.sourceChecks.isEmpty, program.dataLoss.isEmpty else { return false }
        return try SchemaSnapshot(of: program.source) == SchemaSnapshot(of: program.destination)
    }

    /// Writes the new model's metadata into the store in one transaction.
    private func rewriteMetadata(to model: ObjectModel, from hash: String) throws {
        try storeErrors {
            let connection = try SQLiteConnection(path: store, mode: .readWrite)
            defer { connection.close() }
            let layout = StoreLayout(model: model, rules: try layoutRules(of: store))
            let old = try layout.readMetadata(on: connection, path: store)
            var values: [String: String?] = [:]
            for name in old.entityHashes.keys { values[StoreMetadata.Key.entityHashPrefix + name] = .some(nil) }
            values[StoreMetadata.Key.modelName] = model.name
            values[StoreMetadata.Key.modelHash] = model.versionHash
            values[StoreMetadata.Key.modelJSON] = String(decoding: try ModelFile(model).jsonData(), as: UTF8.self)
            for entity in model.entities {
                values[StoreMetadata.Key.entityHashPrefix + entity.name] = entity.versionHash
            }
            values[PassBuilder.migrationFromKey] = hash
            try connection.transaction(.immediate) { try layout.writeMetadata(values, on: connection) }
        }
    }

    /// Builds every pass's file, each from the one before; the last stays as `RESULT.seedkit-migrate`.
    private func runPasses(
        _ planned: Planned, metadata: StoreMetadata, tracker: ProgressTracker, report: inout MigrationReport
    ) throws {
        var input = store
        let count = planned.chain.passes.count
        for (index, spec) in planned.chain.passes.enumerated() {
            let output = files.passFile(index + 1, of: count)
            let compiled = try compile(spec, pass: index, rules: planned.rules)
            let builder = PassBuilder(
                program: compiled.program, input: input, output: output, metadata: metadata,
                migrationFrom: planned.chain.sourceHash, options: options, step: index + 1, progress: tracker,
                policies: compiled.policies)
            let outcome = try storeErrors { try builder.build() }
            // Links a pass drops (a to-many truncated to a to-one) are counted only as they are
            // written: they stop the migration here, before anything is installed.
            if !options.allowDataLoss && !outcome.dataDropped.isEmpty {
                throw MigrationError(
                    .dataLoss(outcome.dataDropped.map { "\($0) (\(spec.from) → \(spec.to))" }), store: store)
            }
            try runHooks(spec, at: output)
            if input != store { try files.remove(input) }
            input = output
            for (entity, counts) in outcome.counts.sorted(by: { $0.key < $1.key }) {
                report.add(counts.kept, \.kept, of: entity)
                report.add(counts.created, \.created, of: entity)
                report.add(counts.dropped, \.dropped, of: entity)
            }
            report.dataDropped += outcome.dataDropped.map { count > 1 ? "\($0) (\(spec.from) → \(spec.to))" : $0 }
            report.warnings += outcome.warnings
            var mapping: String?
            if case .mapping(let index) = spec.work { mapping = source.mappingName(index) }
            report.passes.append(
                MigrationReport.Pass(
                    from: spec.from, to: spec.to, kind: mapping == nil ? .inferred : .mapping, mapping: mapping,
                    versions: spec.versions))
        }
        if options.dryRun { try files.remove(input) }
    }

    /// Runs the hooks at the pass's version on its new file.
    private func runHooks(_ spec: PassSpec, at path: String) throws {
        guard !spec.hooks.isEmpty else { return }
        var storeOptions = StoreOptions()
        storeOptions.writeAheadLog = false
        let opened = try storeErrors {
            try PersistentStore.open(at: path, model: spec.destinationModel, options: storeOptions)
        }
        for hook in spec.hooks {
            try BlockingWork.checkCancellation()
            do {
                try hook.body(MigrationHookContext(version: spec.to, store: opened))
            } catch let error as CancellationError {
                throw error
            } catch {
                throw MigrationError(.policy("the hook at \(spec.to): \(error)"), store: store)
            }
        }
        try files.fileErrors { try StoreFiles.sync(path) }
    }

    /// Puts the last pass's file in the result's place: the store must be as it was when the
    /// migration began; a backup first if asked; then the atomic rename and the directory's sync.
    private func install(
        fingerprint: MigrationFiles.Fingerprint, tracker: ProgressTracker, report: inout MigrationReport
    )
        throws
    {
        tracker.enter(.installing)
        let built = files.passFile(1, of: 1)
        guard try files.fingerprint() == fingerprint else {
            throw MigrationError(.storeChangedDuringMigration, store: store)
        }
        options.onStopPoint?(.built)
        try BlockingWork.checkCancellation()
        if let backup = options.backup, inPlace {
            try files.backUp(to: backup)
            report.backup = backup
        }
        if !inPlace, FileManager.default.fileExists(atPath: files.result) {
            throw MigrationError(.fileSystem("\(files.result) already exists"), store: store)
        }
        try files.fileErrors {
            try StoreFiles.install(built, at: files.result) { options.onStopPoint?(.renamed) }
        }
    }

    // MARK: - Errors

    /// Runs `body`, turning store errors into migration errors about the store.
    private func storeErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw MigrationError(.store(error.description), store: store)
        } catch let error as SQLiteError {
            throw MigrationError(.store(error.description), store: store)
        }
    }

    /// Runs `body`, naming the store in migration errors that do not name one yet.
    private func withStorePath<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as MigrationError where error.store.isEmpty {
            error.store = store
            throw error
        }
    }
}
