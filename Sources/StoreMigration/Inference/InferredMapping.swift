// The result of inferring one step (MigrationInference), or of composing consecutive inferred
// steps into one: for every destination entity, attribute and relationship, where its data comes
// from in the source model. Composing is not re-inferring from the first model to the last: an
// attribute removed in one step and added again in the next gets the new default, not the old
// values; a nil that became a default stays that default; a to-many that was a to-one in
// between keeps one destination.
// Invariants: every index refers to the model it names (entities and slots of `destination`
// for positions, of `source` for origins); an origin's source entity is the entity's own origin.
import GraphStore

/// Where the data of each destination element comes from, in an inferred (lightweight) migration.
///
/// ```swift
/// let mapping = try MigrationInference.infer(from: version1, to: version2)
/// mapping.changes          // ["LuxuryCar: renamed from ExpensiveSportCar", "Car.color: removed", …]
/// ```
public struct InferredMapping: Sendable {
    /// The model migrated from.
    public let source: ObjectModel
    /// The model migrated to.
    public let destination: ObjectModel
    /// Per destination entity (by index): where its objects and values come from.
    let entities: [EntityOrigin]
    /// Source entities (by index) whose own objects would become objects of an abstract entity:
    /// the migration stops if any exists.
    let mustBeEmpty: Set<Int>
    /// What the mapping changes, one line each (`Entity.property: what`), in step order.
    public let changes: [String]

    /// The origin of one destination entity.
    struct EntityOrigin: Sendable {
        /// The source entity whose objects become this entity's; nil: a new entity.
        var source: Int?
        /// Per attribute slot.
        var attributes: [AttributeOrigin]
        /// Per relationship slot; nil: no links (new, or transient).
        var relationships: [RelationshipOrigin?]
    }

    /// Where one destination attribute's value comes from.
    enum AttributeOrigin: Sendable, Hashable {
        /// The source attribute in this slot of the entity's origin; a nil value becomes `fallback`.
        case source(slot: Int, fallback: AttributeValue?)
        /// A value every object gets (a new attribute's default, or nil).
        case constant(AttributeValue?)
        /// A transient attribute: nothing is stored.
        case transient
    }

    /// Where one destination relationship's links come from.
    struct RelationshipOrigin: Sendable, Hashable {
        /// The source relationship in this slot of the entity's origin.
        var slot: Int
        /// Whether the source order is kept (ordered in every model along the way).
        var keepsOrder: Bool
        /// Whether an owner may keep at most one destination (to-one in some model along the way).
        var ownerToOne: Bool
        /// Whether a destination may belong to at most one owner (the inverse is to-one in some model along the way).
        var memberToOne: Bool
    }

    /// The mapping of `first` followed by `self`: from `first.source` to `self.destination`.
    func composed(after first: InferredMapping) -> InferredMapping {
        var mustBeEmpty = first.mustBeEmpty
        for middle in self.mustBeEmpty {
            if let origin = first.entities[middle].source { mustBeEmpty.insert(origin) }
        }
        let entities = self.entities.map { second -> EntityOrigin in
            guard let middle = second.source else { return second }
            let earlier = first.entities[middle]
            let attributes = second.attributes.map { origin -> AttributeOrigin in
                guard case .source(let slot, let fallback) = origin else { return origin }
                switch earlier.attributes[slot] {
                case .source(let firstSlot, let firstFallback):
                    return .source(slot: firstSlot, fallback: firstFallback ?? fallback)
                case .constant(let value):
                    return .constant(value ?? fallback)
                case .transient:
                    return .constant(fallback)
                }
            }
            let relationships = second.relationships.map { origin -> RelationshipOrigin? in
                guard let origin, let before = earlier.relationships[origin.slot] else { return nil }
                return RelationshipOrigin(
                    slot: before.slot, keepsOrder: before.keepsOrder && origin.keepsOrder,
                    ownerToOne: before.ownerToOne || origin.ownerToOne,
                    memberToOne: before.memberToOne || origin.memberToOne)
            }
            return EntityOrigin(source: earlier.source, attributes: attributes, relationships: relationships)
        }
        return InferredMapping(
            source: first.source, destination: destination, entities: entities, mustBeEmpty: mustBeEmpty,
            changes: first.changes + changes)
    }

    /// Whether every element continues the source element of the same name unchanged, so the
    /// data needs no rewriting (only the model's metadata differs, when the schemas are equal too).
    var keepsEveryValue: Bool {
        guard mustBeEmpty.isEmpty, source.entities.count == destination.entities.count else { return false }
        for (index, entity) in destination.entities.enumerated() {
            let origin = entities[index]
            guard let sourceIndex = origin.source, source.entities[sourceIndex].name == entity.name else {
                return false
            }
            let sourceEntity = source.entities[sourceIndex]
            for (slot, attribute) in entity.attributes.enumerated() {
                switch origin.attributes[slot] {
                case .source(let from, nil) where sourceEntity.attributes[from].name == attribute.name: continue
                case .transient where sourceEntity.attribute(named: attribute.name)?.isTransient ?? true: continue
                default: return false
                }
            }
            guard
                sourceEntity.attributes.filter({ !$0.isTransient }).count
                    == entity.attributes.filter({ !$0.isTransient }).count
            else { return false }
            for (slot, relationship) in entity.relationships.enumerated() where !relationship.isTransient {
                guard let link = origin.relationships[slot],
                    sourceEntity.relationships[link.slot].name == relationship.name
                else { return false }
            }
        }
        return true
    }
}
