// A copy into a store that does not exist yet: the copy is checked against the models before any
// file is made, the store is created with the model, and a copy that fails or is cancelled
// removes it again with its side files (StoreFiles), so it leaves nothing behind. A copy that
// moves whole tables (same layout and model, everything asked for) writes through a rollback
// journal (new pages are not journalled) and the store switches to write-ahead logging after it.
// A kill leaves the new store with whole batches and an active run (a half-written batch is
// rolled back from its journal or log when the store is next opened), which the next copy undoes
// first.
// Invariant: only files this call created are removed; a path that holds a store is refused.
import Foundation
import GraphStore

extension DeepCopier {
    /// Copies from `source` into a new store created at `path` with `model` (default: the
    /// source's model); should the copy fail or its task be cancelled, no file remains at `path`.
    ///
    /// ```swift
    /// let report = try DeepCopier.copy(from: catalog, toNewStoreAt: "Copy.sqlite")
    /// ```
    ///
    /// - Throws: ``DeepCopyError`` when `path` holds a file or the copy cannot run, or store errors.
    public static func copy(
        from source: PersistentStore, toNewStoreAt path: String, model: ObjectModel? = nil,
        storeOptions: StoreOptions = StoreOptions(), options: DeepCopyOptions = DeepCopyOptions()
    ) throws -> CopyReport {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw DeepCopyError("\(path) already exists: copy into it with DeepCopier(from:to:)")
        }
        let model = model ?? source.model
        let plan = try CopyPlan(
            source: source.layout,
            target: try PersistentStore.newStoreLayout(for: model, options: storeOptions, path: path),
            options: options)
        // Side files without their store are stale; SQLite would read a stale WAL into the new file.
        try StoreFiles.removeSideFiles(of: path)
        do {
            return try copyIntoCreatedStore(
                from: source, at: path, model: model, storeOptions: storeOptions, options: options,
                movingTablesWhole: plan.copiesEverythingAsLaidOut)
        } catch {
            try? StoreFiles.remove(path)
            throw error
        }
    }

    /// Creates the store and copies into it; every connection to it is closed on return.
    ///
    /// A copy that moves whole tables writes the new store through a rollback journal, which
    /// leaves out pages new to the file — all of them here — where a write-ahead log would take
    /// every page twice (into the log, then into the file at a checkpoint); the store gets the
    /// journal `storeOptions` asks for once the copy is done. Other copies commit batch by batch
    /// and keep the log, whose commits need no sync.
    private static func copyIntoCreatedStore(
        from source: PersistentStore, at path: String, model: ObjectModel, storeOptions: StoreOptions,
        options: DeepCopyOptions, movingTablesWhole: Bool
    ) throws -> CopyReport {
        var creating = storeOptions
        if movingTablesWhole { creating.writeAheadLog = false }
        let target = try PersistentStore.open(at: path, model: model, options: creating)
        let report = try DeepCopier(from: source, to: target, options: options).run()
        if creating.writeAheadLog != storeOptions.writeAheadLog { try target.useWriteAheadLog() }
        return report
    }
}
