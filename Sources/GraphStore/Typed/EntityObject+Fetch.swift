// Typed fetch helpers: the objects of one entity (and its sub-entities) as its Swift type,
// through the context's ordinary fetch, so unsaved changes count exactly as in `fetch(_:)`.

extension EntityObject {
    /// The objects of this entity (sub-entities included) that match `predicate`, in the order
    /// of `sortDescriptors` (then primary key), at most `limit` of them.
    ///
    /// ```swift
    /// let cheap = try Item.fetch(
    ///     in: context, where: Item.Keys.price < 5 && Item.Keys.unit.then(Unit.Keys.name) == "kg",
    ///     sortedBy: [Item.Keys.price.descending])
    /// ```
    ///
    /// - Throws: ``FetchError`` for a predicate or sort key the model does not allow.
    public static func fetch(
        in context: ObjectContext, where predicate: FetchPredicate? = nil,
        sortedBy sortDescriptors: [FetchSortDescriptor] = [], limit: Int? = nil
    ) throws -> [Self] {
        var request = fetchRequest(where: predicate, sortedBy: sortDescriptors)
        request.fetchLimit = limit
        return try context.fetch(request).map(Self.init(unchecked:))
    }

    /// The first object in the order of `sortDescriptors` that matches `predicate`, or nil.
    public static func first(
        in context: ObjectContext, where predicate: FetchPredicate? = nil,
        sortedBy sortDescriptors: [FetchSortDescriptor] = []
    ) throws -> Self? {
        try fetch(in: context, where: predicate, sortedBy: sortDescriptors, limit: 1).first
    }

    /// How many objects of this entity (sub-entities included) match `predicate`.
    public static func count(in context: ObjectContext, where predicate: FetchPredicate? = nil) throws -> Int {
        try context.count(for: fetchRequest(where: predicate))
    }

    /// A fetch request for this entity, to set the options the helpers leave out (offset,
    /// prefetching, sub-entities) before `context.fetch(_:)`.
    public static func fetchRequest(
        where predicate: FetchPredicate? = nil, sortedBy sortDescriptors: [FetchSortDescriptor] = []
    ) -> FetchRequest {
        FetchRequest(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
    }
}
