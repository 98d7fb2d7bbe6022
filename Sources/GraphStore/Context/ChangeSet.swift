// What one save changed, and the broadcaster that hands change sets to every observer of a store.
// Invariant: observers receive change sets in commit order; a finished observer is dropped.
import Synchronization

/// The object IDs a save inserted, updated and deleted.
///
/// ```swift
/// for await changes in store.changeSets() {
///     viewContext.merge(changes)
/// }
/// ```
public struct ChangeSet: Sendable, Hashable {
    /// Objects the save inserted (their permanent IDs).
    public var inserted: Set<ObjectID>
    /// Objects the save updated.
    public var updated: Set<ObjectID>
    /// Objects the save deleted.
    public var deleted: Set<ObjectID>

    /// A change set of the given IDs.
    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Delivers each saved ``ChangeSet`` to every current observer.
public final class ChangeSetBroadcaster: Sendable {
    private let observers = Mutex<[Int: AsyncStream<ChangeSet>.Continuation]>([:])
    private let nextToken = Atomic<Int>(0)

    /// A broadcaster with no observers.
    public init() {}

    /// A stream of every change set published from now on.
    public func changeSets() -> AsyncStream<ChangeSet> {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeSet.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.removeValue(forKey: token) }
        }
        observers.withLock { $0[token] = continuation }
        return stream
    }

    /// Sends `changes` to every observer.
    func publish(_ changes: ChangeSet) {
        let current = observers.withLock { Array($0.values) }
        for continuation in current {
            continuation.yield(changes)
        }
    }
}
