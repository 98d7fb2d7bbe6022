// How a child context reaches its parent: directly when both live in one isolation domain (a
// child made with `ObjectContext.newChildContext()`), or by waiting on the queue of the
// `BackgroundContext` that owns the parent (a child made with
// `BackgroundContext.newChildContext()`).
// Invariants: `body` runs isolated to the parent context and the call returns when it ends;
// only Sendable values go in (captured) and come out (returned), so no object crosses.

/// A child context's way to its parent.
protocol ParentContextLink {
    /// Runs `body` with the parent context, isolated to it, and returns its result.
    func withParent<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) throws -> T
}

/// A parent in the child's own isolation domain; the child keeps it alive.
struct SameDomainParent: ParentContextLink {
    let context: ObjectContext

    func withParent<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) throws -> T {
        try body(context)
    }
}

/// A parent owned by a background context: the child waits on its queue.
struct BackgroundParent: ParentContextLink {
    let owner: BackgroundContext

    func withParent<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) throws -> T {
        try owner.performAndWait(body)
    }
}
