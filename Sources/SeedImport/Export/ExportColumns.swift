// The columns of an export of one entity (docs/CLI.md, `seedkit export`): the object's identity
// when some exported entity has no unique key (so that the object IDs relationships to it hold
// join with a column), the concrete entity's name when the entity has sub-entities (so a plan's
// `entityField` routes records back to them), then the stored attributes and relationships of
// the entity and of every sub-entity, each name once — and per concrete entity, which of its
// properties fills each column.
// Invariant: `object-id` and `entity-name` cannot be property names (a property is letters,
// digits and underscores), so no column name is taken twice; `entity` is used unless a property
// of an exported entity has that name.
import GraphStore

/// The columns an export writes, and where each object's values come from.
struct ExportColumns {
    /// The identity column: each object's ID, the text relationships to objects without a unique key hold.
    static let identity = PlanConventions.identityKey
    /// The entity column: each object's entity name.
    static let entity = "entity"
    /// The entity column's name when an exported entity has a property called ``entity``.
    static let entityFallback = "entity-name"

    /// The properties of one concrete entity, by column.
    struct Sources {
        /// The attribute of each attribute column (nil: the entity has none of that name).
        let attributes: [ModelAttribute?]
        /// The relationship of each relationship column.
        let relationships: [ModelRelationship?]
    }

    /// Whether the identity column is written.
    let writesIdentity: Bool
    /// The entity column's name, when it is written.
    let entityColumn: String?
    /// The attribute columns: the entity's attributes, then its sub-entities' own, in model order.
    let attributes: [String]
    /// The relationship columns, in the same order.
    let relationships: [String]
    /// Per entity index of each exported entity.
    private let sources: [Int: Sources]

    /// The columns of an export of `entity` (and its sub-entities) from `model`.
    init(of entity: ModelEntity, in model: ObjectModel) {
        let kinds = entity.kindIndices.map { model.entities[$0] }
        var attributes: [String] = []
        var relationships: [String] = []
        for kind in kinds {
            for attribute in kind.attributes where !attribute.isTransient && !attributes.contains(attribute.name) {
                attributes.append(attribute.name)
            }
            for relationship in kind.relationships
            where !relationship.isTransient && !relationships.contains(relationship.name) {
                relationships.append(relationship.name)
            }
        }
        self.attributes = attributes
        self.relationships = relationships
        writesIdentity = kinds.contains { $0.uniqueConstraints.isEmpty }
        if kinds.count == 1 {
            entityColumn = nil
        } else {
            entityColumn = (attributes + relationships).contains(Self.entity) ? Self.entityFallback : Self.entity
        }
        sources = Dictionary(
            uniqueKeysWithValues: kinds.map { kind in
                (
                    kind.index,
                    Sources(
                        attributes: attributes.map { kind.attribute(named: $0) },
                        relationships: relationships.map { kind.relationship(named: $0) })
                )
            })
    }

    /// Every column name, in order.
    var names: [String] {
        (writesIdentity ? [Self.identity] : []) + (entityColumn.map { [$0] } ?? []) + attributes + relationships
    }

    /// Where the values of `entity`'s objects (an exported entity) come from.
    func sources(of entity: ModelEntity) -> Sources {
        sources[entity.index]
            ?? Sources(attributes: attributes.map { _ in nil }, relationships: relationships.map { _ in nil })
    }
}
