// A resolved relationship: its declaration, its destination and inverse, and how the store keeps it.

/// How the store keeps a relationship (docs/StoreFormat.md).
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one kept as an integer column (the destination's `pk`) on the source's root table.
    case foreignKey(column: String)
    /// A to-many whose inverse is a to-one: the inverse's column on the destination's root table,
    /// plus a position column there when the to-many is ordered.
    case inverseForeignKey(column: String, orderColumn: String?)
    /// A many-to-many, or a to-many without an inverse: a join table with a source and a
    /// destination column, plus a position column for the order of this side when it is ordered.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
    /// A transient relationship: never stored.
    case transient
}

/// A relationship of an entity in a validated model, inherited ones included (a shared,
/// immutable class, like ``ModelAttribute``).
public final class ModelRelationship: Sendable, Hashable {
    /// The relationship as declared.
    public let declaration: RelationshipDescription
    /// The relationship's slot among the entity's relationships.
    public let index: Int
    /// The name of the entity that declares it (the entity itself or an ancestor).
    public let declaringEntity: String
    /// The index of the destination entity in ``ObjectModel/entities``.
    public let destinationIndex: Int
    /// The inverse's slot among the destination's relationships, if there is an inverse.
    public let inverseIndex: Int?
    /// How the store keeps it.
    public let storage: RelationshipStorage

    init(
        declaration: RelationshipDescription, index: Int, declaringEntity: String, destinationIndex: Int,
        inverseIndex: Int?, storage: RelationshipStorage
    ) {
        self.declaration = declaration
        self.index = index
        self.declaringEntity = declaringEntity
        self.destinationIndex = destinationIndex
        self.inverseIndex = inverseIndex
        self.storage = storage
    }

    /// Relationships are equal when they are declared alike in the same place.
    public static func == (lhs: ModelRelationship, rhs: ModelRelationship) -> Bool {
        lhs === rhs
            || (lhs.index == rhs.index && lhs.declaringEntity == rhs.declaringEntity
                && lhs.declaration == rhs.declaration && lhs.storage == rhs.storage)
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
