// A model's stored relationships as pairs: a relationship and its inverse are one set of links,
// written once. The pair's primary side is the one whose `(entity, name)` sorts first, so the
// choice depends only on the model.
import GraphStore

/// One stored relationship and its inverse.
struct RelationshipPair {
    /// The side whose `(declaring entity, name)` sorts first (resolved on its declaring entity).
    let primary: ModelRelationship
    /// The other side, if the relationship has an inverse.
    let inverse: ModelRelationship?

    /// `Entity.relationship` of the primary side.
    var subject: String { "\(primary.declaringEntity).\(primary.name)" }
    /// `Entity.relationship` of the inverse side.
    var inverseSubject: String? { inverse.map { "\($0.declaringEntity).\($0.name)" } }
}

/// The stored relationship pairs of a model, in name order.
struct RelationshipPairs {
    let pairs: [RelationshipPair]

    init(model: ObjectModel) {
        var pairs: [RelationshipPair] = []
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.declaringEntity == entity.name && !relationship.isTransient {
                let inverse = model.inverse(of: relationship)
                if let inverse, (inverse.declaringEntity, inverse.name) < (entity.name, relationship.name) { continue }
                pairs.append(RelationshipPair(primary: relationship, inverse: inverse))
            }
        }
        self.pairs = pairs
    }
}
