// A container: one store, the main-actor view context, and background contexts, with saves of
// any context merged into the view context automatically when asked.
// Invariant: `viewContext` is only touched on the main actor.

/// A store with its contexts: the usual entry point.
///
/// ```swift
/// let container = try PersistentContainer(store: PersistentStore.open(at: path, model: model))
/// let background = try container.newBackgroundContext()
/// await MainActor.run { container.viewContext … }
/// ```
public final class PersistentContainer: Sendable {
    /// The store.
    public let store: PersistentStore
    /// The context for the main actor (user-interface work). Editors work on a child of it
    /// (``ObjectContext/newChildContext(name:)``), saved into it or dropped.
    @MainActor public let viewContext: ObjectContext

    /// A container over `store`, with its view context.
    @MainActor
    public init(store: PersistentStore) throws {
        self.store = store
        self.viewContext = try ObjectContext(store: store)
        viewContext.name = "view"
    }

    /// A new background context on the store.
    public func newBackgroundContext(name: String? = nil) throws -> BackgroundContext {
        try BackgroundContext(store: store, name: name)
    }

    /// Merges every save made on the store (by any context) into the view context, until the
    /// returned task is cancelled.
    @MainActor
    public func mergeSavesIntoViewContext() -> Task<Void, Never> {
        let changes = store.changeSets()
        return Task { @MainActor [weak self] in
            for await change in changes {
                guard let self else { return }
                self.viewContext.merge(change)
            }
        }
    }
}
