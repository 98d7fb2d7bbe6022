// The public relationship API of objects: to-one, to-many and ordered to-many, by name or slot.
// Every mutation keeps the inverse relationship in sync (see ObjectContext+Relationships.swift).

extension ManagedObject {
    /// The destination of a to-one relationship.
    ///
    /// ```swift
    /// let unit = try item.related("unit")
    /// ```
    public func related(_ key: String) throws -> ManagedObject? {
        try related(at: relationshipIndex(key))
    }

    /// The destination of the to-one relationship in slot `index`.
    public func related(at index: Int) throws -> ManagedObject? {
        let relationship = try relationshipOfKind(at: index, toMany: false)
        return try liveContext(key: relationship.name).toOneValue(of: self, relationship)
    }

    /// Sets a to-one relationship (nil unlinks it); the inverse follows.
    public func setRelated(_ key: String, to object: ManagedObject?) throws {
        try setRelated(at: relationshipIndex(key), to: object)
    }

    /// Sets the to-one relationship in slot `index`; the inverse follows.
    public func setRelated(at index: Int, to object: ManagedObject?) throws {
        let relationship = try relationshipOfKind(at: index, toMany: false)
        try liveContext(key: relationship.name).setToOne(self, relationship, to: object)
    }

    /// The members of a to-many relationship (in order when it is ordered). Reading them loads
    /// the relationship if it is still a fault.
    public func relatedObjects(_ key: String) throws -> [ManagedObject] {
        try relatedObjects(at: relationshipIndex(key))
    }

    /// The members of the to-many relationship in slot `index`.
    public func relatedObjects(at index: Int) throws -> [ManagedObject] {
        let relationship = try relationshipOfKind(at: index, toMany: true)
        return try liveContext(key: relationship.name).toManyState(of: self, relationship, load: true).members
    }

    /// Whether the to-many relationship's members have not been loaded yet (never fires it).
    public func hasFault(forRelationship key: String) throws -> Bool {
        let relationship = try relationshipOfKind(at: relationshipIndex(key), toMany: nil)
        if relationship.isToMany { return toMany[relationship.index]?.isFault ?? !isInserted }
        return isFault
    }

    /// Adds `object` to a to-many relationship (at the end of an ordered one).
    public func add(_ object: ManagedObject, to key: String) throws {
        try add(object, toRelationshipAt: relationshipIndex(key))
    }

    /// Adds `object` to the to-many relationship in slot `index`.
    public func add(_ object: ManagedObject, toRelationshipAt index: Int) throws {
        let relationship = try relationshipOfKind(at: index, toMany: true)
        try liveContext(key: relationship.name).addToMany(self, relationship, object, at: nil)
    }

    /// Inserts `object` at `position` of an ordered to-many relationship (moving it there if it
    /// is already a member).
    public func insert(_ object: ManagedObject, at position: Int, into key: String) throws {
        let relationship = try orderedRelationship(key)
        try liveContext(key: key).addToMany(self, relationship, object, at: position)
    }

    /// Removes `object` from a to-many relationship.
    public func remove(_ object: ManagedObject, from key: String) throws {
        let relationship = try relationshipOfKind(at: relationshipIndex(key), toMany: true)
        try liveContext(key: key).removeFromToMany(self, relationship, object)
    }

    /// Moves the member at `source` to `destination` in an ordered to-many relationship.
    public func moveRelated(in key: String, from source: Int, to destination: Int) throws {
        let relationship = try orderedRelationship(key)
        try liveContext(key: key).move(self, relationship, from: source, to: destination)
    }

    /// Makes a to-many relationship hold exactly `objects` (in that order when ordered).
    public func setRelatedObjects(_ key: String, to objects: [ManagedObject]) throws {
        let relationship = try relationshipOfKind(at: relationshipIndex(key), toMany: true)
        try liveContext(key: key).setToMany(self, relationship, objects)
    }

    private func orderedRelationship(_ key: String) throws -> ModelRelationship {
        let relationship = try relationshipOfKind(at: relationshipIndex(key), toMany: true)
        guard relationship.isOrdered else {
            throw ObjectError(
                .typeMismatch(expected: "an ordered to-many relationship", got: "an unordered one"),
                entity: entity.name, key: key)
        }
        return relationship
    }

    private func relationshipOfKind(at index: Int, toMany: Bool?) throws -> ModelRelationship {
        guard entity.relationships.indices.contains(index) else {
            throw ObjectError(.unknownKey, entity: entity.name, key: "#\(index)", objectID: objectID)
        }
        let relationship = entity.relationships[index]
        if let toMany, relationship.isToMany != toMany {
            let kind = relationship.isToMany ? "a to-many relationship" : "a to-one relationship"
            throw ObjectError(
                .typeMismatch(expected: toMany ? "a to-many relationship" : "a to-one relationship", got: kind),
                entity: entity.name, key: relationship.name)
        }
        return relationship
    }
}
