// A batch update: constant attribute values written with one SQL UPDATE to every object of an
// entity that matches a predicate, without loading the objects.

/// Sets attributes of every matching object in the store directly.
///
/// ```swift
/// let result = try context.execute(BatchUpdateRequest(
///     entityName: "Person", predicate: .key("age") > 60, values: ["retired": .boolean(true)]))
/// result.count           // rows updated
/// viewContext.merge(result.changes)
/// ```
public struct BatchUpdateRequest: Sendable {
    /// The entity whose objects are updated.
    public var entityName: String
    /// Which objects; nil updates all of them.
    public var predicate: FetchPredicate?
    /// The new values by attribute name (nil clears an optional attribute).
    public var values: [String: AttributeValue?]
    /// Whether objects of sub-entities are updated too.
    public var includesSubentities: Bool

    /// An update of `values` on the `entityName` objects matching `predicate`.
    public init(
        entityName: String, predicate: FetchPredicate? = nil, values: [String: AttributeValue?],
        includesSubentities: Bool = true
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.values = values
        self.includesSubentities = includesSubentities
    }

    /// The fetch request selecting the objects to update.
    var fetchRequest: FetchRequest {
        var request = FetchRequest(entityName: entityName, predicate: predicate)
        request.includesSubentities = includesSubentities
        return request
    }
}
