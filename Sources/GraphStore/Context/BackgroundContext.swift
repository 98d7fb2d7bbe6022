// A background (private-queue) context: an actor that owns an ObjectContext and runs work on
// it, asynchronously (`perform`) or blocking (`performAndWait`); and its child contexts, each an
// actor of its own on its own queue.
// Invariants: the ObjectContext and its objects never leave the actor's isolation — `perform`
// closures may return only Sendable values (object IDs, plain values); the actor's executor is
// a serial queue, so blocking entry and async entry never overlap; a child reaches its parent
// only through the parent's `performAndWait`, with Sendable values.

/// A context that works off the main thread.
///
/// ```swift
/// let background = try container.newBackgroundContext()
/// let id = try await background.perform { context in
///     let item = try context.insert("Item")
///     try item.set("sku", "A-1")
///     try context.save()
///     return item.objectID
/// }
/// ```
public actor BackgroundContext {
    private let executor: QueueExecutor
    private let context: ObjectContext
    private let store: PersistentStore

    /// A background context with its own connection to `store`.
    public init(store: PersistentStore, name: String? = nil) throws {
        executor = QueueExecutor(label: "seedkit.context." + (name ?? "background"))
        context = try ObjectContext(store: store)
        context.name = name
        self.store = store
    }

    /// A child of `parent`: its saves go to `parent`'s context.
    private init(parent: BackgroundContext, name: String?) throws {
        let ledger = parent.performAndWait { $0.ledgerForChildren() }
        executor = QueueExecutor(label: "seedkit.context." + (name ?? "child"))
        context = try ObjectContext(
            store: parent.store, nesting: ContextNesting(parent: BackgroundParent(owner: parent), ledger: ledger))
        context.name = name
        store = parent.store
    }

    /// A child context on top of this one, running on a queue of its own.
    ///
    /// The child's ``ObjectContext/save()`` pushes its changes into this context (not to the
    /// store); this context's save writes them. Its fetches and faults see this context's
    /// unsaved changes. Releasing the child discards what it did not save.
    ///
    /// ```swift
    /// let editor = try background.newChildContext(name: "editor")
    /// try await editor.perform { context in
    ///     try context.existingObject(with: id).set("price", 2.99)
    ///     try context.save()                     // into `background`
    /// }
    /// try await background.perform { try $0.save() }   // to the store
    /// ```
    ///
    /// The child waits on this context's queue whenever it needs it (to fault, fetch or save),
    /// as Core Data's children do. Entering the child with ``performAndWait(_:)`` from inside this
    /// context's work is allowed (the child then runs this context's part directly), but blocking
    /// this context's queue from another thread while its child waits on it deadlocks.
    public nonisolated func newChildContext(name: String? = nil) throws -> BackgroundContext {
        try BackgroundContext(parent: self, name: name)
    }

    /// The actor runs on its own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Runs `body` with the context, isolated to it, and returns its (Sendable) result.
    public func perform<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) rethrows -> T {
        context.adoptPermanentIDs()
        return try body(context)
    }

    /// Runs `body` with the context and waits for it, for callers that are not async.
    /// Calling it from inside the same context runs `body` directly.
    public nonisolated func performAndWait<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) rethrows -> T {
        if executor.isCurrent {
            return try assumeIsolated { try $0.perform(body) }
        }
        return try executor.sync {
            try assumeIsolated { try $0.perform(body) }
        }
    }
}
