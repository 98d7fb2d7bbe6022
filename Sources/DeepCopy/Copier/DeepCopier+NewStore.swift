// A copy into a store that does not exist yet: the copy is checked against the models before any
// file is made, the store is created with the model, and a copy that fails or is cancelled
// removes it again with its side files (StoreFiles), so it leaves nothing behind. A kill leaves
// the new store with whole batches and an active run, which the next copy undoes first.
// A new store laid out unlike the source (another layout or model) is created without its
// secondary indexes when the copy takes every object with a fresh key (so it never looks rows of
// the target up by an indexed column): its rows cannot move as they are, and building each index
// once after the rows (DeepCopier.run, before the run's end) costs less than keeping it up to
// date row by row.
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
        let layout = try PersistentStore.newStoreLayout(for: model, options: storeOptions, path: path)
        _ = try CopyPlan(source: source.layout, target: layout, options: options)
        var storeOptions = storeOptions
        if storeOptions.template == nil && !source.layout.isSame(as: layout) && options.givesEveryRowANewKey {
            storeOptions.deferIndexes = true
        }
        // Side files without their store are stale; SQLite would read a stale WAL into the new file.
        try StoreFiles.removeSideFiles(of: path)
        do {
            return try copyIntoCreatedStore(
                from: source, at: path, model: model, storeOptions: storeOptions, options: options)
        } catch {
            try? StoreFiles.remove(path)
            throw error
        }
    }

    /// Creates the store and copies into it; every connection to it is closed on return.
    private static func copyIntoCreatedStore(
        from source: PersistentStore, at path: String, model: ObjectModel, storeOptions: StoreOptions,
        options: DeepCopyOptions
    ) throws -> CopyReport {
        let target = try PersistentStore.open(at: path, model: model, options: storeOptions)
        return try DeepCopier(from: source, to: target, options: options).run()
    }
}

extension DeepCopyOptions {
    /// Whether a copy with these options into an empty store inserts every source object as a new
    /// row under its own key (IdentityMap.offset): all entities, no predicate, no key of the
    /// caller's (a key that is not unique merges objects) and no lineage.
    fileprivate var givesEveryRowANewKey: Bool {
        entities == nil && predicates.isEmpty && keys.isEmpty && lineage == nil
    }
}
