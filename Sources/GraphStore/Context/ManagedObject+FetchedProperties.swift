// Fetched properties: a stored fetch per object, evaluated on first read and kept until the
// object is refreshed (or its context reset), as in Core Data.
// Invariant: `$FETCH_SOURCE` is the object itself; any other variable is an error.

extension ManagedObject {
    /// The objects of the fetched property `name` (declared on the entity or an ancestor),
    /// fetched on first use and cached until ``ObjectContext/refresh(_:mergeChanges:)``.
    ///
    /// ```swift
    /// let colleagues = try person.fetchedObjects("olderColleagues")
    /// ```
    ///
    /// - Throws: ``ObjectError`` for an unknown property or an object without a context;
    ///   ``PredicateSyntaxError`` or ``FetchError`` for a predicate that does not parse or run.
    public func fetchedObjects(_ name: String) throws -> [ManagedObject] {
        if let cached = fetchedValues[name] { return cached }
        guard let context else { throw ObjectError(.detached, entity: entity.name, key: name, objectID: objectID) }
        guard let property = fetchedPropertyDescription(name, in: context.model) else {
            throw ObjectError(.unknownKey, entity: entity.name, key: name, objectID: objectID)
        }
        let predicate = try FetchPredicate(format: property.predicateFormat).substituting(["FETCH_SOURCE": objectID])
        let objects = try context.fetch(FetchRequest(entityName: property.entity, predicate: predicate))
        fetchedValues[name] = objects
        return objects
    }

    /// The declaration of the fetched property `name` on the entity or its nearest ancestor.
    private func fetchedPropertyDescription(_ name: String, in model: ObjectModel) -> FetchedPropertyDescription? {
        var current: ModelEntity? = entity
        while let candidate = current {
            if let property = candidate.declaration.fetchedProperties.first(where: { $0.name == name }) {
                return property
            }
            current = candidate.parentIndex.map { model.entities[$0] }
        }
        return nil
    }
}
