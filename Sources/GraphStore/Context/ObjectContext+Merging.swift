// Merging another context's saved changes: updated objects are refreshed (unsaved changes kept),
// deleted ones are dropped, and loaded to-many collections are reloaded on next use.

extension ObjectContext {
    /// Brings this context up to date with a save made elsewhere.
    ///
    /// ```swift
    /// viewContext.merge(changes)   // changes from BackgroundContext's save
    /// ```
    public func merge(_ changes: ChangeSet) {
        for id in changes.deleted {
            guard let object = registered[id] else { continue }
            unregister(object)
        }
        for id in changes.updated {
            guard let object = registered[id], !object.isFault else { continue }
            try? refresh(object, mergeChanges: true)
        }
        guard !changes.inserted.isEmpty || !changes.deleted.isEmpty || !changes.updated.isEmpty else { return }
        // Memberships may have changed: loaded to-many collections of unchanged objects reload lazily.
        for object in registered.values where !object.hasChanges {
            for (slot, state) in object.toMany.enumerated() where state != nil {
                object.toMany[slot] = nil
            }
        }
    }
}
