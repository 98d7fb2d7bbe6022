// What a picture of a model shows, whatever the drawing language: each entity with the attributes
// it declares (inherited ones are drawn on the parent), its parent, and each relationship once —
// a relationship and its inverse are one association with a multiplicity at each end.
// Invariant: the order is the model's (entities and properties sorted by name), so the same model
// gives the same text.
import GraphStore

/// The facts of a model that its diagrams draw.
struct DiagramFacts {
    /// An entity box.
    struct Entity {
        var name: String
        var parent: String?
        var isAbstract: Bool
        /// `(name, type)`, the type written `double?` when optional.
        var attributes: [(name: String, type: String)]
    }

    /// A line between two entities: a relationship, with its inverse when it has one.
    struct Association {
        /// The entity that declares the relationship.
        var source: String
        /// The destination entity.
        var destination: String
        /// How many destinations one source object has: `0..1`, `1`, `0..*`, `1..20`.
        var destinationMultiplicity: String
        /// How many source objects one destination object has (through the inverse), if there is an inverse.
        var sourceMultiplicity: String?
        /// `unit / items`, `items (ordered) / lists`, or the one name without an inverse.
        var label: String
    }

    var modelName: String
    var entities: [Entity]
    var associations: [Association]

    init(_ model: ObjectModel) {
        modelName = model.name
        entities = model.entities.map { entity in
            Entity(
                name: entity.name, parent: entity.parentIndex.map { model.entities[$0].name },
                isAbstract: entity.isAbstract,
                attributes: entity.attributes.filter { $0.declaringEntity == entity.name }.map { attribute in
                    (attribute.name, attribute.type.rawValue + (attribute.isOptional ? "?" : ""))
                })
        }
        associations = model.entities.flatMap { entity in
            entity.relationships.filter { $0.declaringEntity == entity.name }.compactMap { relationship in
                Self.association(relationship, of: entity, in: model)
            }
        }
    }

    /// The association `relationship` draws, or nil when its inverse draws it (the pair is drawn
    /// from the side whose entity and relationship names sort first).
    private static func association(
        _ relationship: ModelRelationship, of entity: ModelEntity, in model: ObjectModel
    ) -> Association? {
        let destination = model.destination(of: relationship)
        guard let inverse = model.inverse(of: relationship) else {
            return Association(
                source: entity.name, destination: destination.name,
                destinationMultiplicity: multiplicity(relationship), sourceMultiplicity: nil,
                label: name(of: relationship))
        }
        guard (entity.name, relationship.name) < (inverse.declaringEntity, inverse.name) else { return nil }
        return Association(
            source: entity.name, destination: destination.name,
            destinationMultiplicity: multiplicity(relationship), sourceMultiplicity: multiplicity(inverse),
            label: name(of: relationship) + " / " + name(of: inverse))
    }

    /// `items`, or `items (ordered)`.
    private static func name(of relationship: ModelRelationship) -> String {
        relationship.isOrdered ? relationship.name + " (ordered)" : relationship.name
    }

    /// UML multiplicity: `0..1` or `1` for a to-one; `min..max` for a to-many, `*` for no maximum.
    static func multiplicity(_ relationship: ModelRelationship) -> String {
        let declaration = relationship.declaration
        guard relationship.isToMany else { return declaration.isOptional ? "0..1" : "1" }
        let minimum = max(declaration.minCount, declaration.isOptional ? 0 : 1)
        let maximum = declaration.maxCount == 0 ? "*" : String(declaration.maxCount)
        return maximum == String(minimum) ? maximum : "\(minimum)..\(maximum)"
    }
}
