// First launch (docs/FirstLaunch.md): bring the bundled seed into the user's store exactly once, deciding
// from the store's metadata — never from a flag set too early.
//
//   user store                          action
//   none                                copy the seed (temp file, its seed record, fsync,
//                                       atomic rename), or import the plan's sources into a new
//                                       store likewise
//   seed.version missing/older/different merge the seed by deep copy (or import the plan);
//                                       the version is written with the last batch
//   seed.version the same               nothing (one metadata read)
//   seed.version newer                  nothing (a seed is never downgraded)
//
// With options.migration, a store at another model version is first migrated to the app's
// (SeedLoader+Migration.swift), then the table above applies.
//
// Invariants: one loader at a time per directory (DirectoryLock), so concurrent callers and
// processes serialise and the later ones find the work done; blocking work runs on a thread of
// its own; leftovers of a killed launch (temporary files, a run left active) are cleared before
// deciding; an incompatible seed model is reported before anything is written.
import Foundation
import GraphStore
import ModelFiles
import Logging
import SeedImport

/// Prepares the user's store at app start-up from the seed the app ships with.
///
/// ```swift
/// let loader = SeedLoader(seed: .store(bundledSeedPath), store: supportDirectory + "/App.sqlite")
/// Task { for await step in loader.progress { show(step.phase, step.fraction) } }
/// switch try await loader.prepare() {
/// case .merged(let version, let report): print("seed \(version): \(report.summary)")
/// default: break
/// }
/// let store = try PersistentStore.open(at: supportDirectory + "/App.sqlite")
/// ```
///
/// `prepare()` is safe to call on every launch, from several tasks or processes at once, and
/// again after a crash or kill at any point. Cancelling its task stops the work between batches
/// (or chunks of a copy) and leaves the store as it was: no store when there was none, the
/// user's store unchanged otherwise.
public final class SeedLoader: Sendable {
    /// The bundled seed.
    public let seed: SeedSource
    /// The user's store.
    public let store: String
    /// The loader's options.
    public let options: SeedLoaderOptions
    /// Progress updates of ``prepare()``; finishes when a `prepare()` call ends (a loader is meant
    /// for one call: make another one to watch a later call).
    public let progress: AsyncStream<Progress>
    private let continuation: AsyncStream<Progress>.Continuation

    /// A loader bringing `seed` into the store at `store` (a path; its directory is created
    /// when missing).
    public init(seed: SeedSource, store: String, options: SeedLoaderOptions = SeedLoaderOptions()) {
        self.seed = seed
        self.store = store
        self.options = options
        (progress, continuation) = AsyncStream.makeStream(of: Progress.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Brings the seed into the user's store, deciding from the store's metadata what to do (see ``Outcome``).
    ///
    /// - Throws: ``SeedLoadError`` (incompatible model, no version to compare, a file error),
    ///   `CancellationError`, or the merge's or import's error; the user's store is then as it
    ///   was before the call.
    @discardableResult
    public func prepare() async throws -> Outcome {
        try await prepareReport().outcome
    }

    /// Like ``prepare()``, and also reports the migration of the user's store that came first
    /// (``SeedLoaderOptions/migration``).
    ///
    /// - Throws: As ``prepare()``, and `MigrationError` when the store cannot be migrated; the
    ///   user's store is then as it was.
    public func prepareReport() async throws -> PrepareReport {
        defer { continuation.finish() }
        let files = LoaderFiles(store: store)
        try files.createDirectory()
        return try await DirectoryLock.withLock(on: files.directory) {
            try files.removeLeftovers()
            let migration = try await migrateStoreIfNeeded(files: files)
            let storeMetadata = files.storeExists ? try PersistentStore.metadata(at: store) : nil
            let outcome: Outcome
            switch seed {
            case .store(let path): outcome = try await load(store: path, into: storeMetadata, files: files)
            case .plan(let path): outcome = try await load(plan: path, into: storeMetadata, files: files)
            }
            emit(Progress(phase: .finished, completed: 1, total: 1, step: 1))
            return PrepareReport(outcome: outcome, migration: migration)
        }
    }

    // MARK: - Seed stores

    private func load(store seedPath: String, into storeMetadata: StoreMetadata?, files: LoaderFiles) async throws
        -> Outcome
    {
        guard let storeMetadata else {
            let seedMetadata = try PersistentStore.metadata(at: seedPath)
            try requireCompatible(ModelFingerprint(metadata: seedMetadata, owner: "the seed \(seedPath)"), with: nil)
            try await copy(seedPath, into: files)
            return .copiedSeed(version: seedMetadata["seed.version"])
        }
        var seedMetadata: StoreMetadata?
        if options.seedVersion == nil { seedMetadata = try PersistentStore.metadata(at: seedPath) }
        guard let version = options.seedVersion ?? seedMetadata?["seed.version"] else {
            throw SeedLoadError(
                .missingSeedVersion,
                "the seed \(seedPath) has no seed.version to compare with the store \(store): build it from a plan with seed: {version: …}, or set SeedLoaderOptions.seedVersion"
            )
        }
        if let outcome = nothingToDo(storeVersion: storeMetadata["seed.version"], seedVersion: version) {
            return outcome
        }
        let seed = try seedMetadata ?? PersistentStore.metadata(at: seedPath)
        try requireCompatible(ModelFingerprint(metadata: seed, owner: "the seed \(seedPath)"), with: storeMetadata)
        let merge = SeedMerge(files: files, seed: seedPath, version: version, options: options, emit: emit)
        let report = try await BlockingWork.run(name: "seedkit.loader") { _ in try merge.run() }
        return .merged(version: version, report: report)
    }

    /// Copies the seed file into place: a chunked copy to the temporary file (stopping between
    /// chunks when cancelled, the partial file removed), its seed record when the seed carries
    /// none, fsync, then the atomic rename.
    private func copy(_ seedPath: String, into files: LoaderFiles) async throws {
        let emit = self.emit
        try await BlockingWork.run(name: "seedkit.loader") { cancellation in
            try DurableFile.copy(from: seedPath, to: files.temporaryCopy, sync: false) { copied, total, chunk in
                emit(Progress(phase: .copying, completed: copied, total: total, step: chunk))
                try cancellation.check()
            }
            do {
                try NewStoreRecord.write(at: files.temporaryCopy)
                try DurableFile.sync(files.temporaryCopy)
                try cancellation.check()
                try DurableFile.install(files.temporaryCopy, at: files.store)
            } catch {
                try? files.removeLeftovers()
                throw error
            }
        }
    }

    // MARK: - Plans

    private func load(plan planPath: String, into storeMetadata: StoreMetadata?, files: LoaderFiles) async throws
        -> Outcome
    {
        let file = try PlanFile.load(from: planPath)
        let plan = file.plan
        let planModel = try plan.model.map { try ModelLoader.load(from: plan.resolve($0)) }
        let seedModel = planModel.map { ModelFingerprint(model: $0, owner: "the plan \(planPath)") }
        let work = SeedPlanImport(
            files: files, plan: file, planFile: planPath, model: planModel, options: options, emit: emit)
        guard let storeMetadata else {
            if let seedModel { try requireCompatible(seedModel, with: nil) }
            return .imported(version: plan.seedVersion, report: try await work.intoNewStore())
        }
        guard let version = plan.seedVersion else {
            throw SeedLoadError(
                .missingSeedVersion,
                "the plan \(planPath) has no seed: {version: …} to compare with the store \(store)")
        }
        if let outcome = nothingToDo(storeVersion: storeMetadata["seed.version"], seedVersion: version) {
            return outcome
        }
        if let seedModel { try requireCompatible(seedModel, with: storeMetadata) }
        return .imported(version: version, report: try await work.intoExistingStore())
    }

    // MARK: - Decisions

    /// The outcome when the store's version means there is nothing to do, else nil.
    private func nothingToDo(storeVersion: String?, seedVersion: String) -> Outcome? {
        let order = SeedVersionOrder(store: storeVersion, seed: seedVersion)
        loaderLog.debug("store \(store) at seed version \(storeVersion ?? "-"), seed \(seedVersion): \(order)")
        return switch order {
        case .same: .upToDate(version: seedVersion)
        case .newer: .storeIsNewer(store: storeVersion ?? "", seed: seedVersion)
        case .missing, .older, .different: nil
        }
    }

    /// Throws unless the seed's model is the app's (when given) and the user store's (when there is one).
    private func requireCompatible(_ seedModel: ModelFingerprint, with storeMetadata: StoreMetadata?) throws {
        if let model = options.model {
            try seedModel.require(sameAs: ModelFingerprint(model: model, owner: "the app"))
        }
        if let storeMetadata {
            try seedModel.require(sameAs: ModelFingerprint(metadata: storeMetadata, owner: "the store \(store)"))
        }
    }

    /// Delivers a progress update to the callback and the stream.
    var emit: @Sendable (Progress) -> Void {
        { [options, continuation] update in
            options.onProgress?(update)
            continuation.yield(update)
        }
    }
}
