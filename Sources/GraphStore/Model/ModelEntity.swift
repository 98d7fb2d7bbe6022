// A resolved entity: inherited properties folded in, slots assigned, hash computed. How its
// objects are stored (tables, columns, entity numbers) is the store layout's to say (StoreLayout).
// Invariants: `attributes[i].index == i` and `relationships[i].index == i`; a sub-entity's first
// attributes and relationships are its parent's, in the parent's order.

/// An entity of a validated ``ObjectModel``.
///
/// ```swift
/// let item = model.entity(named: "Item")!
/// let price = item.attribute(named: "price")!      // price.index is its slot in objects
/// item.isKind(of: model.entity(named: "Product")!)
/// ```
public final class ModelEntity: Sendable {
    /// The entity's name.
    public let name: String
    /// The entity's position in ``ObjectModel/entities`` (entities are sorted by name).
    public let index: Int
    /// The index of the parent entity, if any.
    public let parentIndex: Int?
    /// The index of the root of this entity's inheritance tree (itself when it has no parent).
    public let rootIndex: Int
    /// Whether the entity has no instances of its own.
    public let isAbstract: Bool
    /// The indexes of the direct sub-entities, in name order.
    public let subentityIndices: [Int]
    /// The indexes of this entity and all its descendants, ascending.
    public let kindIndices: [Int]
    /// All attributes, inherited first.
    public let attributes: [ModelAttribute]
    /// All relationships, inherited first.
    public let relationships: [ModelRelationship]
    /// Unique constraints, inherited ones included.
    public let uniqueConstraints: [[String]]
    /// Named indexes, inherited ones included.
    public let indexes: [IndexDescription]
    /// The entity's annotations.
    public let userInfo: [String: String]
    /// A hash of everything about the entity that shapes the store (hex SHA-256).
    public let versionHash: String
    /// The entity as declared.
    public let declaration: EntityDescription
    private let attributeIndexByName: [String: Int]
    private let relationshipIndexByName: [String: Int]

    init(
        declaration: EntityDescription, index: Int, parentIndex: Int?, rootIndex: Int,
        subentityIndices: [Int], kindIndices: [Int], attributes: [ModelAttribute],
        relationships: [ModelRelationship], uniqueConstraints: [[String]], indexes: [IndexDescription],
        versionHash: String
    ) {
        self.declaration = declaration
        self.name = declaration.name
        self.index = index
        self.parentIndex = parentIndex
        self.rootIndex = rootIndex
        self.isAbstract = declaration.isAbstract
        self.subentityIndices = subentityIndices
        self.kindIndices = kindIndices
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueConstraints = uniqueConstraints
        self.indexes = indexes
        self.userInfo = declaration.userInfo
        self.versionHash = versionHash
        self.attributeIndexByName = Dictionary(
            uniqueKeysWithValues: attributes.map { ($0.name, $0.index) })
        self.relationshipIndexByName = Dictionary(
            uniqueKeysWithValues: relationships.map { ($0.name, $0.index) })
    }

    /// The attribute called `name`, inherited ones included.
    public func attribute(named name: String) -> ModelAttribute? {
        attributeIndexByName[name].map { attributes[$0] }
    }

    /// The relationship called `name`, inherited ones included.
    public func relationship(named name: String) -> ModelRelationship? {
        relationshipIndexByName[name].map { relationships[$0] }
    }

    /// Whether this entity is `other` or one of its descendants.
    public func isKind(of other: ModelEntity) -> Bool {
        other.kindIndices.contains(index)
    }

    /// Whether this entity is the root of its inheritance tree.
    public var isRoot: Bool { parentIndex == nil }
}
