// A Swift API for writing models in code, one entity at a time.

/// Builds an ``ObjectModel`` in Swift.
///
/// ```swift
/// let model = try ModelBuilder("Catalog")
///     .entity("Unit") { unit in
///         unit.attribute("name", .string, optional: false)
///         unit.toMany("items", "Item", inverse: "unit")
///         unit.unique("name")
///     }
///     .entity("Item") { item in
///         item.attribute("sku", .string, optional: false)
///         item.attribute("price", .double, default: .double(0))
///         item.toOne("unit", "Unit", inverse: "items")
///         item.unique("sku")
///     }
///     .build()
/// ```
public struct ModelBuilder {
    private let name: String
    private var entities: [EntityDescription] = []
    private var templates: [FetchRequestTemplate] = []

    /// Starts a model called `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// Adds an entity, declared by `body`.
    public func entity(
        _ name: String, parent: String? = nil, abstract: Bool = false,
        _ body: (inout EntityBuilder) -> Void = { _ in }
    ) -> ModelBuilder {
        var builder = EntityBuilder(EntityDescription(name: name, parent: parent, isAbstract: abstract))
        body(&builder)
        var copy = self
        copy.entities.append(builder.declaration)
        return copy
    }

    /// Adds a stored fetch-request template.
    public func fetchRequest(_ name: String, entity: String, predicate: String) -> ModelBuilder {
        var copy = self
        copy.templates.append(FetchRequestTemplate(name: name, entity: entity, predicateFormat: predicate))
        return copy
    }

    /// Validates and resolves the model.
    ///
    /// - Throws: ``ModelError`` listing every problem.
    public func build() throws -> ObjectModel {
        try ObjectModel(name: name, entities: entities, fetchRequestTemplates: templates)
    }
}

/// Declares one entity's properties inside ``ModelBuilder/entity(_:parent:abstract:_:)``.
public struct EntityBuilder {
    /// The declaration built so far.
    public private(set) var declaration: EntityDescription

    init(_ declaration: EntityDescription) {
        self.declaration = declaration
    }

    /// Adds an attribute.
    public mutating func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = true, default defaultValue: AttributeValue? = nil,
        indexed: Bool = false, transient: Bool = false, externalStorage: Bool = false,
        transformer: String? = nil, validation: ValidationRules = ValidationRules(),
        userInfo: [String: String] = [:]
    ) {
        declaration.attributes.append(
            AttributeDescription(
                name: name, type: type, isOptional: optional, defaultValue: defaultValue, isIndexed: indexed,
                isTransient: transient, allowsExternalStorage: externalStorage, valueTransformerName: transformer,
                validation: validation, userInfo: userInfo))
    }

    /// Adds a to-one relationship.
    public mutating func toOne(
        _ name: String, _ destination: String, inverse: String? = nil, optional: Bool = true,
        deleteRule: DeleteRule = .nullify, userInfo: [String: String] = [:]
    ) {
        declaration.relationships.append(
            RelationshipDescription(
                name: name, destination: destination, inverse: inverse, isOptional: optional,
                deleteRule: deleteRule, userInfo: userInfo))
    }

    /// Adds a to-many relationship (ordered when `ordered` is true).
    public mutating func toMany(
        _ name: String, _ destination: String, inverse: String? = nil, ordered: Bool = false,
        minCount: Int = 0, maxCount: Int = 0, deleteRule: DeleteRule = .nullify, userInfo: [String: String] = [:]
    ) {
        declaration.relationships.append(
            RelationshipDescription(
                name: name, destination: destination, inverse: inverse, isToMany: true, isOrdered: ordered,
                isOptional: minCount == 0, minCount: minCount, maxCount: maxCount, deleteRule: deleteRule,
                userInfo: userInfo))
    }

    /// Adds a unique constraint over one or more attributes.
    public mutating func unique(_ attributes: String...) {
        declaration.uniqueConstraints.append(attributes)
    }

    /// Adds a named index.
    public mutating func index(_ name: String, _ elements: IndexElement...) {
        declaration.indexes.append(IndexDescription(name: name, elements: elements))
    }

    /// Adds a fetched property: the `entity` objects matching `predicate`, where
    /// `$FETCH_SOURCE` is the object it is read on.
    public mutating func fetchedProperty(_ name: String, _ entity: String, predicate: String) {
        declaration.fetchedProperties.append(
            FetchedPropertyDescription(name: name, entity: entity, predicateFormat: predicate))
    }

    /// Sets an annotation on the entity.
    public mutating func userInfo(_ key: String, _ value: String) {
        declaration.userInfo[key] = value
    }
}
