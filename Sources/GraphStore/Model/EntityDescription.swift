// The declaration of one entity: its own properties, parent, constraints, indexes and annotations.
// Inherited properties are not repeated here; `ObjectModel` resolves them into `ModelEntity`.

/// One element of an index: a property and its sort direction.
public struct IndexElement: Sendable, Hashable {
    /// The attribute or to-one relationship the index covers.
    public var property: String
    /// Whether the index sorts this element ascending.
    public var ascending: Bool

    /// An index element on `property`.
    public init(_ property: String, ascending: Bool = true) {
        self.property = property
        self.ascending = ascending
    }
}

/// A named (possibly compound) index, such as Xcode's `fetchIndex`.
public struct IndexDescription: Sendable, Hashable {
    /// The index's name, unique within its entity.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [IndexElement]

    /// An index called `name` on `elements`.
    public init(name: String, elements: [IndexElement]) {
        self.name = name
        self.elements = elements
    }
}

/// An entity as declared: the unit a builder or model file describes.
///
/// ```swift
/// var item = EntityDescription(name: "Item")
/// item.attributes = [AttributeDescription(name: "sku", type: .string, isOptional: false)]
/// item.uniqueConstraints = [["sku"]]
/// ```
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name, unique in the model.
    public var name: String
    /// The name of the parent entity, whose properties this one inherits.
    public var parent: String?
    /// Whether the entity has no instances of its own (only its sub-entities do).
    public var isAbstract: Bool
    /// The attributes declared on this entity (not inherited ones).
    public var attributes: [AttributeDescription]
    /// The relationships declared on this entity (not inherited ones).
    public var relationships: [RelationshipDescription]
    /// Sets of attribute names whose combined values are unique across the entity and its sub-entities.
    public var uniqueConstraints: [[String]]
    /// Named indexes, in addition to those implied by `isIndexed` attributes.
    public var indexes: [IndexDescription]
    /// Free-form annotations; they never affect the store or the hash.
    public var userInfo: [String: String]
    /// Fetched properties declared on this entity; they never affect the store or the hash.
    public var fetchedProperties: [FetchedPropertyDescription] = []
    /// The entity's name in an earlier model version, when it was renamed (Xcode's Renaming ID,
    /// `elementID`); never part of a hash.
    public var renamingIdentifier: String?
    /// A string that changes the entity's version hashes without changing its schema (Xcode's
    /// Version Hash Modifier); when nil, the hashes are what they were without one.
    public var hashModifier: String?

    /// Declares an entity with no properties yet.
    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        uniqueConstraints: [[String]] = [], indexes: [IndexDescription] = [],
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueConstraints = uniqueConstraints
        self.indexes = indexes
        self.userInfo = userInfo
    }
}

/// A fetch request stored in the model by name, kept as data: an entity and a predicate format
/// with `$VARIABLE` placeholders, executed later with substitution values.
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name, unique in the model.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in format-string syntax, e.g. `price < $LIMIT`.
    public var predicateFormat: String

    /// A template called `name` fetching `entity` objects that match `predicateFormat`.
    public init(name: String, entity: String, predicateFormat: String) {
        self.name = name
        self.entity = entity
        self.predicateFormat = predicateFormat
    }
}
