// The first step of a first launch after an app update (docs/FirstLaunch.md, "A new model
// version"): when the user's store is at an older version of the app's model, it is migrated to
// the app's version — under the loader's directory lock, before the seed is copied or merged —
// so that a newer seed built with the new model can be merged into it. The seed's model is
// checked against the target before anything is written: a seed built with another model stays
// `incompatibleModel` and the store is left as it was.
// Invariants: the migration installs its result atomically, so a launch killed at any point finds
// the store at the old version (and migrates again) or at the new one (and goes on merging).
import Foundation
import GraphStore
import ModelFiles
import SeedImport
import StoreMigration

extension SeedLoader {
    /// Migrates the user's store to the app's model version when ``SeedLoaderOptions/migration``
    /// is set and the store is at another version; the caller holds the directory lock.
    ///
    /// - Returns: The migration's report, nil when there was nothing to migrate.
    func migrateStoreIfNeeded(files: LoaderFiles) async throws -> MigrationReport? {
        guard let source = options.migration, files.storeExists else { return nil }
        let (targetName, target) = try migrationTarget(source)
        if let seedModel = try seedModelFingerprint() {
            try seedModel.require(
                sameAs: ModelFingerprint(model: target, owner: "the app's model version \(targetName)"))
        }
        guard try !PersistentStore.metadata(at: store).isAt(target) else { return nil }
        var migrationOptions = MigrationOptions()
        migrationOptions.target = targetName
        if let batchSize = options.batchSize { migrationOptions.batchSize = batchSize }
        migrationOptions.onStopPoint = options.onMigrationStopPoint
        let emit = self.emit
        migrationOptions.onProgress = { progress in
            emit(Progress(phase: .migrating, completed: progress.completed, total: progress.total, step: progress.step))
        }
        let migrator = StoreMigrator(store: store, source: source, options: migrationOptions)
        return try await migrator.runHoldingDirectoryLock()
    }

    /// The version to migrate to: the one with the app's model (``SeedLoaderOptions/model``),
    /// else the current version.
    private func migrationTarget(_ source: MigrationSource) throws -> (String, ObjectModel) {
        let versions = source.versions
        if let model = options.model {
            guard let version = versions.versions.last(where: { $0.model.versionHash == model.versionHash }) else {
                throw SeedLoadError(
                    .incompatibleModel,
                    "the app's model \(model.name) (hash \(model.versionHash.prefix(16))) is none of the migration's versions (\(versions.names.joined(separator: ", ")))"
                )
            }
            return (version.name, version.model)
        }
        guard let name = versions.currentName, let model = versions.current else {
            throw SeedLoadError(
                .incompatibleModel, "the migration's versions name no current version: set SeedLoaderOptions.model")
        }
        return (name, model)
    }

    /// The seed's model as its metadata (a seed store) or its plan (a plan naming a model) gives
    /// it; nil for a plan without a model.
    private func seedModelFingerprint() throws -> ModelFingerprint? {
        switch seed {
        case .store(let path):
            return ModelFingerprint(metadata: try PersistentStore.metadata(at: path), owner: "the seed \(path)")
        case .plan(let path):
            let plan = try PlanFile.load(from: path).plan
            return try plan.model.map {
                ModelFingerprint(model: try ModelLoader.load(from: plan.resolve($0)), owner: "the plan \(path)")
            }
        }
    }
}
