// The validated, resolved object model: the schema every store, context and import works from.
// Invariants: entities are sorted by name and `entities[i].index == i`; a model that exists has
// passed validation; the hashes depend only on what shapes the store.

/// A validated object model: entities with their attributes and relationships resolved.
///
/// Build one from declarations (or with ``ModelBuilder``, an Xcode model, or a model file):
///
/// ```swift
/// let model = try ObjectModel(name: "Catalog", entities: [unit, item])
/// model.entity(named: "Item")?.attribute(named: "sku")
/// model.versionHash   // equal for equal schemas
/// ```
public final class ObjectModel: Sendable {
    /// The model's name.
    public let name: String
    /// All entities, sorted by name.
    public let entities: [ModelEntity]
    /// Stored fetch-request templates, sorted by name.
    public let fetchRequestTemplates: [FetchRequestTemplate]
    /// A hash of every entity's version hash (hex SHA-256): equal models have equal hashes.
    public let versionHash: String
    /// The model's version identifiers (an Xcode model's `userDefinedModelVersionIdentifier`,
    /// `[""]` when it has none; `[]` for a model built otherwise). Core Data records them in a
    /// store's metadata; they play no part in which model opens a store.
    public let versionIdentifiers: [String]
    private let entityIndexByName: [String: Int]

    /// Validates the declarations and resolves them into a model.
    ///
    /// - Throws: ``ModelError`` listing every problem found.
    public init(
        name: String, entities: [EntityDescription],
        fetchRequestTemplates: [FetchRequestTemplate] = [], versionIdentifiers: [String] = []
    ) throws {
        let normalized = entities.map(Self.normalized)
        var validator = ModelValidator(entities: normalized, templates: fetchRequestTemplates)
        let problems = validator.validate()
        guard problems.isEmpty else { throw ModelError(source: name, problems: problems) }
        self.name = name
        self.versionIdentifiers = versionIdentifiers
        self.entities = ModelResolver(declarations: normalized).resolve()
        self.fetchRequestTemplates = fetchRequestTemplates.sorted { $0.name < $1.name }
        self.versionHash = ModelHasher.modelHash(entityHashes: self.entities.map(\.versionHash))
        self.entityIndexByName = Dictionary(
            uniqueKeysWithValues: self.entities.map { ($0.name, $0.index) })
    }

    /// The declaration with properties in name order, so slots and columns never depend on how
    /// a model file happened to list them.
    private static func normalized(_ entity: EntityDescription) -> EntityDescription {
        var entity = entity
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        return entity
    }

    /// The entity called `name`.
    public func entity(named name: String) -> ModelEntity? {
        entityIndexByName[name].map { entities[$0] }
    }

    /// The entity declarations, sorted by name: what a model file holds.
    public var entityDescriptions: [EntityDescription] {
        entities.map(\.declaration)
    }

    /// The destination entity of `relationship`.
    public func destination(of relationship: ModelRelationship) -> ModelEntity {
        entities[relationship.destinationIndex]
    }

    /// The inverse of `relationship`, if it has one.
    public func inverse(of relationship: ModelRelationship) -> ModelRelationship? {
        relationship.inverseIndex.map { destination(of: relationship).relationships[$0] }
    }

    /// The root entity of `entity`'s inheritance tree.
    public func root(of entity: ModelEntity) -> ModelEntity {
        entities[entity.rootIndex]
    }

    /// The template called `name`.
    public func fetchRequestTemplate(named name: String) -> FetchRequestTemplate? {
        fetchRequestTemplates.first { $0.name == name }
    }
}
