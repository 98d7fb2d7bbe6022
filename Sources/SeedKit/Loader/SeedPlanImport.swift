// First launch from bundled source files: the plan is imported into a new store built aside and
// renamed into place, or into the user's store (upsert by the plan's keys; the plan's `seed:`
// version is written by the import's finishing save, in the same transaction as its last batch).
// Cancellation: the importer stops between batches when the loader's task is cancelled and puts
// its target back (a new store removed, its run in the user's store undone); the loader also
// checks before the import starts and before a new store is moved into place.
// Invariants: a new store appears only complete and synced, and a failed or cancelled one leaves
// no file; an import into the user's store is one run of its run journal (a killed one is
// resumed, or undone, by the next import).
import Foundation
import GraphStore
import SeedImport

/// One import of a plan's sources for a first launch.
struct SeedPlanImport {
    let files: LoaderFiles
    /// The plan, read once by the loader.
    let plan: PlanFile
    let planFile: String
    /// The plan's model (loaded once by the loader), or nil when it names none.
    let model: ObjectModel?
    let options: SeedLoaderOptions
    let emit: @Sendable (SeedLoader.Progress) -> Void

    /// Imports into a new store written beside the user's, records its objects as seed objects
    /// (docs/FirstLaunch.md, "Seed upgrades") and renames it into place.
    func intoNewStore() async throws -> ImportReport {
        var importOptions = baseOptions()
        importOptions.store = files.temporaryCopy
        importOptions.newStoreWithoutWAL = true
        let files = self.files
        do {
            let report = try await run(importOptions)
            try await BlockingWork.run(name: "seedkit.loader") { cancellation in
                try cancellation.check()
                try NewStoreRecord.write(at: files.temporaryCopy)
                try DurableFile.sync(files.temporaryCopy)
                try DurableFile.install(files.temporaryCopy, at: files.store)
            }
            return report
        } catch {
            try? files.removeLeftovers()
            throw error
        }
    }

    /// Imports into the user's store, resuming this plan's run if a kill interrupted it (any
    /// other run left active is undone first by the importer).
    func intoExistingStore() async throws -> ImportReport {
        var importOptions = baseOptions()
        importOptions.store = files.store
        importOptions.resume = true
        return try await run(importOptions)
    }

    private func baseOptions() -> ImportOptions {
        var importOptions = ImportOptions()
        importOptions.batchSize = options.batchSize
        return importOptions
    }

    /// Runs the import, forwarding its progress. Cancelling the task stops the importer between
    /// batches (it removes a new store, or undoes its run in the user's store).
    private func run(_ importOptions: ImportOptions) async throws -> ImportReport {
        try Task.checkCancellation()
        let model = try self.model ?? ValidatedPlan.model(for: plan.plan, store: importOptions.store)
        var importOptions = importOptions
        let emit = self.emit
        let steps = ProgressSteps()
        importOptions.onProgress = { update in
            emit(SeedLoader.Progress(phase: .importing, completed: update.records, total: nil, step: steps.next()))
        }
        let importer = Importer(plan: try ValidatedPlan(plan, model: model, path: planFile), options: importOptions)
        return try await importer.run()
    }
}
