// A resolved attribute: its declaration plus where it lives in objects (its slot). Its column
// is the store layout's to say (StoreLayout.column(of:)).

/// An attribute of an entity in a validated model, inherited ones included.
///
/// A class (immutable, shared): hot paths read attributes by slot millions of times, and a
/// reference costs one retain where a copied struct would retain every string inside it.
///
/// `index` is the attribute's slot in an object's storage: a sub-entity keeps its parent's
/// attributes at the same indexes, so an index taken from a parent entity works on sub-entity objects.
public final class ModelAttribute: Sendable, Hashable {
    /// The attribute as declared.
    public let declaration: AttributeDescription
    /// The attribute's slot among the entity's attributes.
    public let index: Int
    /// The name of the entity that declares it (the entity itself or an ancestor).
    public let declaringEntity: String
    /// The index of the entity that declares it (the attribute has the same slot there).
    let declaringEntityIndex: Int

    init(declaration: AttributeDescription, index: Int, declaringEntity: String, declaringEntityIndex: Int) {
        self.declaration = declaration
        self.index = index
        self.declaringEntity = declaringEntity
        self.declaringEntityIndex = declaringEntityIndex
    }

    /// Attributes are equal when they are declared alike in the same place.
    public static func == (lhs: ModelAttribute, rhs: ModelAttribute) -> Bool {
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

    /// The attribute's name.
    public var name: String { declaration.name }
    /// The attribute's type.
    public var type: AttributeType { declaration.type }
    /// Whether the attribute may be nil at save.
    public var isOptional: Bool { declaration.isOptional }
    /// Whether the attribute is never stored.
    public var isTransient: Bool { declaration.isTransient }
}
