// The rules that decide how the store keeps each relationship (docs/StoreFormat.md). Both the validator
// (to detect name clashes) and the resolver (to build `RelationshipStorage`) use them, so they agree.

/// Naming and ownership rules for relationship storage.
enum RelationshipStorageRules {
    /// The position column that an ordered to-many adds beside its inverse's foreign key.
    static func orderColumn(forInverse inverseName: String) -> String {
        inverseName + "_position"
    }

    /// The join table a relationship owns: `Entity_relationship`.
    static func joinTableName(entity: String, relationship: String) -> String {
        entity + "_" + relationship
    }

    /// Whether `relationship` (declared on `entity`) owns a join table.
    ///
    /// A to-many without an inverse owns one. Of a many-to-many pair, the ordered side owns it
    /// when exactly one side is ordered, otherwise the side whose `(entity, name)` sorts first.
    static func ownsJoinTable(
        _ relationship: RelationshipDescription, entity: String,
        inverse: (entity: String, relationship: RelationshipDescription)?
    ) -> Bool {
        guard relationship.isToMany, !relationship.isTransient else { return false }
        guard let inverse else { return true }
        guard inverse.relationship.isToMany else { return false }
        if relationship.isOrdered != inverse.relationship.isOrdered {
            return relationship.isOrdered
        }
        return (entity, relationship.name) < (inverse.entity, inverse.relationship.name)
    }
}
