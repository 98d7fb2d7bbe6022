// The merge of a newer seed store into the user's store (docs/FirstLaunch.md): a deep copy from a private
// copy of the seed, objects matched by key with the caller's conflict policy, and `seed.version`
// written in the transaction that ends the copy's run.
// Cancellation: the merge runs on a BlockingWork thread, so cancelling the loader's task reaches
// the deep copy, which stops before its next batch and undoes its run.
// Invariants: the user's store holds either its state before the merge or the complete merge
// with the new version (the copy is one run of the store's run journal: a failure, a
// cancellation or a kill leaves whole batches plus their undo log, and the next merge undoes a
// run left active before it starts); the private seed copy is removed when the merge ends.
import DeepCopy
import Foundation
import GraphStore

/// One merge of a seed store into the user's store, run on the loader's thread.
struct SeedMerge {
    let files: LoaderFiles
    let seed: String
    let version: String
    let options: SeedLoaderOptions
    let cancellation: CancellationFlag
    let emit: @Sendable (SeedLoader.Progress) -> Void

    /// Runs the merge and returns the copy's report.
    ///
    /// - Throws: `CancellationError` (the store as it was), ``DeepCopyError`` or store errors.
    func run() throws -> CopyReport {
        try DurableFile.copy(from: seed, to: files.mergeSource, sync: false) { _, _, _ in try cancellation.check() }
        defer { try? files.removeLeftovers() }
        var sourceOptions = StoreOptions()
        sourceOptions.readOnly = true
        // A Core Data–layout seed holds no model: it is read with the app's.
        let coreDataSeed = try PersistentStore.metadata(at: files.mergeSource).coreDataEntityHashes != nil
        let source = try PersistentStore.open(
            at: files.mergeSource, model: coreDataSeed ? options.model : nil, options: sourceOptions)
        let target = try PersistentStore.open(at: files.store, model: options.model)
        try Self.undoInterruptedRun(in: target)
        let counter = MergeProgressCounter(total: try source.objectCounts().values.reduce(0, +))
        var copyOptions = DeepCopyOptions()
        copyOptions.onConflict = options.onConflict
        if let batchSize = options.batchSize { copyOptions.batchSize = max(1, batchSize) }
        copyOptions.completionMetadata = ["seed.version": version]
        copyOptions.progress = { [emit] report in emit(counter.update(report)) }
        try cancellation.check()
        do {
            return try DeepCopier(from: source, to: target, options: copyOptions).run()
        } catch {
            // DeepCopier undoes its run on failure; should that undo itself fail, do it here.
            try Self.undoInterruptedRun(in: target)
            try cancellation.check()
            throw error
        }
    }

    /// Undoes the run left active in `store` by a merge (or import) that was killed or failed.
    static func undoInterruptedRun(in store: PersistentStore) throws {
        try ObjectContext(store: store).undoLeftoverRun()
    }
}
