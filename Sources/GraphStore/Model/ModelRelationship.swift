// A resolved relationship: its declaration, its destination and inverse. How the store keeps it
// is the store layout's to say (StoreLayout.storage(of:)).

/// A relationship of an entity in a validated model, inherited ones included (a shared,
/// immutable class, like ``ModelAttribute``).
public final class ModelRelationship: Sendable, Hashable {
    /// The relationship as declared.
    public let declaration: RelationshipDescription
    /// The relationship's slot among the entity's relationships.
    public let index: Int
    /// The name of the entity that declares it (the entity itself or an ancestor).
    public let declaringEntity: String
    /// The index of the entity that declares it (the relationship has the same slot there).
    let declaringEntityIndex: Int
    /// The index of the destination entity in ``ObjectModel/entities``.
    public let destinationIndex: Int
    /// The inverse's slot among the destination's relationships, if there is an inverse.
    public let inverseIndex: Int?

    init(
        declaration: RelationshipDescription, index: Int, declaringEntity: String, declaringEntityIndex: Int,
        destinationIndex: Int, inverseIndex: Int?
    ) {
        self.declaration = declaration
        self.index = index
        self.declaringEntity = declaringEntity
        self.declaringEntityIndex = declaringEntityIndex
        self.destinationIndex = destinationIndex
        self.inverseIndex = inverseIndex
    }

    /// Relationships are equal when they are declared alike in the same place.
    public static func == (lhs: ModelRelationship, rhs: ModelRelationship) -> Bool {
        lhs === rhs
            || (lhs.index == rhs.index && lhs.declaringEntity == rhs.declaringEntity
                && lhs.declaration == rhs.declaration)
    }

    /// Hashes the declaring entity, slot and name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(declaringEntity)
        hasher.combine(index)
        hasher.combine(declaration.name)
    }

    /// The relationship's name.
    public var name: String { declaration.name }
    /// Whether it holds many destinations.
    public var isToMany: Bool { declaration.isToMany }
    /// Whether it is an ordered to-many.
    public var isOrdered: Bool { declaration.isOrdered }
    /// What deleting the owner does to the destinations.
    public var deleteRule: DeleteRule { declaration.deleteRule }
    /// Whether the relationship is never stored.
    public var isTransient: Bool { declaration.isTransient }
}
