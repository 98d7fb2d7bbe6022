// A background (private-queue) context: an actor that owns an ObjectContext and runs work on
// it, asynchronously (`perform`) or blocking (`performAndWait`).
// Invariants: the ObjectContext and its objects never leave the actor's isolation — `perform`
// closures may return only Sendable values (object IDs, plain values); the actor's executor is
// a serial queue, so blocking entry and async entry never overlap.

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

    /// A background context with its own connection to `store`.
    public init(store: PersistentStore, name: String? = nil) throws {
        executor = QueueExecutor(label: "seedkit.context." + (name ?? "background"))
        context = try ObjectContext(store: store)
        context.name = name
    }

    /// The actor runs on its own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Runs `body` with the context, isolated to it, and returns its (Sendable) result.
    public func perform<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) rethrows -> T {
        try body(context)
    }

    /// Runs `body` with the context and waits for it, for callers that are not async.
    /// Calling it from inside the same context runs `body` directly.
    public nonisolated func performAndWait<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) rethrows -> T {
        if executor.isCurrent {
            return try assumeIsolated { try $0.perform(body) }
        }
        return try executor.queue.sync {
            try assumeIsolated { try $0.perform(body) }
        }
    }
}
