// The merge of a newer seed store into the user's store (docs/FirstLaunch.md): a deep copy from
// the seed (attached read-only) with a lineage — objects matched through the store's seed record,
// then by key; properties the user changed and objects the user deleted treated as the upgrade
// policy says — and `seed.version` and the rewritten record committed in the transaction that
// ends the copy's run.
// Cancellation: the merge runs on a BlockingWork thread, so cancelling the loader's task reaches
// the deep copy, which stops before its next batch and undoes its run.
// Invariants: the user's store holds either its state before the merge or the complete merge
// with the new version (the copy is one run of the store's run journal: a failure, a
// cancellation or a kill leaves whole batches plus their undo log, and the copy undoes a run
// left active before it starts); the seed is only read.
import DeepCopy
import Foundation
import GraphStore

/// One merge of a seed store into the user's store, run on the loader's thread.
struct SeedMerge {
    let files: LoaderFiles
    let seed: String
    let version: String
    let options: SeedLoaderOptions
    let emit: @Sendable (SeedLoader.Progress) -> Void

    /// Runs the merge and returns its report.
    ///
    /// - Throws: `CancellationError` (the store as it was), ``DeepCopyError`` or store errors.
    func run() throws -> SeedMergeReport {
        var sourceOptions = StoreOptions()
        sourceOptions.readOnly = true
        let source = try PersistentStore.open(at: seed, options: sourceOptions)
        let target = try PersistentStore.open(at: files.store, model: options.model)
        let counter = MergeProgressCounter(total: try source.objectCounts().values.reduce(0, +))
        var copyOptions = DeepCopyOptions()
        copyOptions.lineage = options.upgradePolicy.lineage
        if let batchSize = options.batchSize { copyOptions.batchSize = max(1, batchSize) }
        copyOptions.completionMetadata = ["seed.version": version]
        copyOptions.progress = { [emit] report in emit(counter.update(report)) }
        do {
            return SeedMergeReport(copy: try DeepCopier(from: source, to: target, options: copyOptions).run())
        } catch {
            // DeepCopier undoes its run on failure; should that undo itself fail, do it here.
            try ObjectContext(store: target).undoLeftoverRun()
            throw error
        }
    }
}
