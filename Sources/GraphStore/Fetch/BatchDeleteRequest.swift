// A batch delete: every object of an entity that matches a predicate deleted with set-based SQL,
// delete rules included, without loading the objects.

/// Deletes every matching object in the store directly, applying delete rules: cascade deletes
/// the destinations (recursively), deny refuses the delete while a destination remains, and every
/// reference to a deleted object (to-one columns, join-table rows) is cleared.
///
/// ```swift
/// let result = try context.execute(BatchDeleteRequest(entityName: "Organization", predicate: .key("name") == "Zenith"))
/// result.count                 // organizations deleted
/// result.changes.deleted       // and the people the cascade took with them
/// viewContext.merge(result.changes)
/// ```
public struct BatchDeleteRequest: Sendable {
    /// The entity whose objects are deleted.
    public var entityName: String
    /// Which objects; nil deletes all of them.
    public var predicate: FetchPredicate?
    /// Whether objects of sub-entities are deleted too.
    public var includesSubentities: Bool

    /// A delete of the `entityName` objects matching `predicate`.
    public init(entityName: String, predicate: FetchPredicate? = nil, includesSubentities: Bool = true) {
        self.entityName = entityName
        self.predicate = predicate
        self.includesSubentities = includesSubentities
    }

    /// The fetch request selecting the objects to delete.
    var fetchRequest: FetchRequest {
        var request = FetchRequest(entityName: entityName, predicate: predicate)
        request.includesSubentities = includesSubentities
        return request
    }
}
