// What a batch update or delete did.

/// The outcome of a ``BatchUpdateRequest`` or ``BatchDeleteRequest``.
///
/// ```swift
/// let result = try context.execute(BatchDeleteRequest(entityName: "Item", predicate: .key("listed") == false))
/// print(result.count, result.objectIDs.count)
/// otherContext.merge(result.changes)
/// ```
public struct BatchResult: Sendable, Hashable {
    /// The IDs of the objects the request matched (updated, or deleted), in primary-key order.
    public var objectIDs: [ObjectID]
    /// Everything the batch changed: the matched objects, plus (for a delete) the objects a
    /// cascade deleted and those whose references to deleted objects were cleared.
    public var changes: ChangeSet

    /// How many objects the request matched.
    public var count: Int { objectIDs.count }

    /// A result for `objectIDs` with `changes`.
    public init(objectIDs: [ObjectID], changes: ChangeSet) {
        self.objectIDs = objectIDs
        self.changes = changes
    }
}
