// Merging another context's saved changes: updated objects are refreshed (unsaved changes kept),
// deleted ones are forgotten (with their pending changes and every reference changed objects hold
// to them), and loaded to-many collections of unchanged objects are reloaded on next use.

extension ObjectContext {
    /// Brings this context up to date with a save made elsewhere.
    ///
    /// ```swift
    /// viewContext.merge(changes)   // changes from BackgroundContext's save
    /// ```
    ///
    /// Updated objects are refreshed with ``refresh(_:mergeChanges:)`` and `mergeChanges` true, so
    /// their unsaved changes here win over the saved values. Deleted objects are unregistered and
    /// lose their unsaved changes: later use of one throws ``ObjectError`` (`.detached`), and
    /// ``existingObject(with:)`` reports its ID as not found.
    public func merge(_ changes: ChangeSet) {
        var gone = Set<ObjectIdentifier>()
        for id in changes.deleted {
            guard let object = registered[id] else { continue }
            discardChanges(of: object)
            unregister(object)
            gone.insert(ObjectIdentifier(object))
        }
        for id in changes.updated {
            guard let object = registered[id], !object.isFault else { continue }
            try? refresh(object, mergeChanges: true)
        }
        guard !changes.inserted.isEmpty || !changes.deleted.isEmpty || !changes.updated.isEmpty else { return }
        // Memberships may have changed: loaded to-many collections of unchanged objects reload lazily;
        // changed objects keep theirs, less the deleted objects, and stop pointing at deleted objects.
        for object in registered.values {
            guard object.hasChanges else {
                for (slot, state) in object.toMany.enumerated() where state != nil {
                    object.toMany[slot] = nil
                }
                continue
            }
            guard !gone.isEmpty else { continue }
            for (slot, destination) in object.toOne.enumerated() {
                if let destination, gone.contains(ObjectIdentifier(destination)) { object.toOne[slot] = nil }
            }
            for state in object.toMany {
                for member in state?.members ?? [] where gone.contains(ObjectIdentifier(member)) {
                    state?.remove(member)
                }
            }
        }
    }

    /// Brings this context up to date with a save made elsewhere: the spelling of
    /// ``merge(_:)`` that names its argument.
    ///
    /// ```swift
    /// for await changes in store.changeSets() {
    ///     viewContext.merge(changes: changes)
    /// }
    /// ```
    public func merge(changes: ChangeSet) {
        merge(changes)
    }
}
