// A resolved attribute: its declaration plus where it lives in objects (slot) and in the store (column).

/// An attribute of an entity in a validated model, inherited ones included.
///
/// `index` is the attribute's slot in an object's storage: a sub-entity keeps its parent's
/// attributes at the same indexes, so an index taken from a parent entity works on sub-entity objects.
public struct Attribute: Sendable, Hashable {
    /// The attribute as declared.
    public let declaration: AttributeDescription
    /// The attribute's slot among the entity's attributes.
    public let index: Int
    /// The name of the entity that declares it (the entity itself or an ancestor).
    public let declaringEntity: String

    /// The attribute's name.
    public var name: String { declaration.name }
    /// The attribute's type.
    public var type: AttributeType { declaration.type }
    /// Whether the attribute may be nil at save.
    public var isOptional: Bool { declaration.isOptional }
    /// Whether the attribute is never stored.
    public var isTransient: Bool { declaration.isTransient }
    /// The column that stores it in the root entity's table (its name).
    public var columnName: String { declaration.name }
}
