// Child contexts: making one on top of a context, and the permanent IDs a family shares — the
// root context records the IDs its saves make permanent, and every descendant gives its own
// objects those IDs (re-registering them) the next time it is used.
// Invariants: after `adoptPermanentIDs()`, no object of the context is registered under a
// temporary ID the ledger knows; its old temporary ID still resolves (`permanentIDs`).

extension ObjectContext {
    /// A child context on top of this one, in the same isolation domain (use it where you use
    /// this context: on the main actor for the view context, inside the same `perform` for a
    /// background context's; ``BackgroundContext/newChildContext(name:)`` makes one with a queue
    /// of its own).
    ///
    /// ```swift
    /// let editor = try viewContext.newChildContext()
    /// let item = try editor.existingObject(with: id)
    /// try item.set("price", 2.99)
    /// try editor.save()          // into viewContext; the store is unchanged
    /// try viewContext.save()     // to the store
    /// ```
    ///
    /// The child sees this context as its store: faults and fetches read this context's objects,
    /// unsaved changes included; its ``save()`` validates its objects and pushes its inserts,
    /// updates, deletions and relationship changes into this context; its ``mergePolicy`` decides
    /// what happens to an object this context changed after the child read it. Discarding the
    /// child — ``rollback()``, ``reset()`` or just releasing it — discards what it did not save.
    /// Objects the child inserts keep their temporary IDs in the child and here until this
    /// context (or the root of a deeper family) saves them to the store; from then on they carry
    /// their permanent IDs in every context of the family, and their temporary IDs still resolve.
    public func newChildContext(name: String? = nil) throws -> ObjectContext {
        let child = try ObjectContext(
            store: store, nesting: ContextNesting(parent: SameDomainParent(context: self), ledger: ledgerForChildren()))
        child.name = name
        nesting.add(sameDomainChild: child)
        return child
    }

    /// Whether this is a child context: its saves go to its parent context, not to the store.
    public var hasParent: Bool { nesting.parent != nil }

    /// The ledger this context's children share: its own family's, or (for a root context) the
    /// one its children hold, made on first use.
    func ledgerForChildren() -> PermanentIDLedger {
        if let ledger = nesting.ledger ?? nesting.childrenLedger { return ledger }
        let ledger = PermanentIDLedger()
        nesting.childrenLedger = ledger
        return ledger
    }

    /// Runs `body` with the parent context `parent` reaches, then adopts the IDs that became
    /// permanent meanwhile, so that the IDs `body` returns find their objects here.
    func ask<T: Sendable>(_ parent: any ParentContextLink, _ body: @Sendable (ObjectContext) throws -> T) throws -> T {
        let result = try parent.withParent(body)
        adoptPermanentIDs()
        return result
    }

    /// Throws when this is a child context: `operation` needs a context of the store.
    func requireStoreContext(_ operation: String) throws {
        if hasParent { throw ObjectError(.childContext(operation), entity: model.name) }
    }

    /// After a save of this root context (while it has children): records the IDs it made
    /// permanent for its family and lets the children in its isolation domain adopt them now.
    func publishPermanentIDs(_ pairs: [ObjectID: ObjectID]) {
        nesting.childrenLedger?.record(pairs)
        adoptPermanentIDs()
    }

    /// Gives every object of this context (and of its children in the same isolation domain) the
    /// permanent ID its root's saves gave it since the last time.
    func adoptPermanentIDs() {
        if let ledger = nesting.ledger, let pairs = ledger.pairs(after: &nesting.adoptedGeneration) {
            for (id, object) in registered where id.isTemporary {
                guard let permanent = pairs[id] else { continue }
                reregister(object, as: permanent)
            }
        }
        for child in nesting.liveSameDomainChildren {
            child.adoptPermanentIDs()
        }
    }

    /// Re-registers `object` under `permanent`, remembering its temporary ID. An object already
    /// registered under `permanent` (the row the root's merge policy merged it into) gives way.
    func reregister(_ object: ManagedObject, as permanent: ObjectID) {
        let temporary = object.objectID
        registered.removeValue(forKey: temporary)
        if let other = registered[permanent], other !== object { turnIntoFault(other) }
        registered[permanent] = object
        permanentIDs[temporary] = permanent
        object.objectID = permanent
    }
}
