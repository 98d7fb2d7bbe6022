// Which plans may write their rows straight to a store the run created (the row path) instead
// of going through objects: those whose relationships are kept by one column or one join-table
// row per link, so that writing a row writes both sides, and whose entities need no
// relationship counts checked.
import GraphStore

/// Decides whether a plan's mappings can use the row path.
enum RowPathRules {
    /// Whether every mapping (nested ones included) and every entity it writes fits the row path.
    static func admit(_ mappings: [CompiledMapping], layout: StoreLayout) -> Bool {
        let model = layout.model
        var entities: Set<Int> = []
        for mapping in mappings {
            guard admit(mapping, layout: layout, entities: &entities) else { return false }
        }
        return entities.allSatisfy { index in
            model.entities[index].relationships.allSatisfy { relationship in
                let declaration = relationship.declaration
                return relationship.isTransient
                    || (declaration.isOptional
                        && (!relationship.isToMany || (declaration.minCount == 0 && declaration.maxCount == 0)))
            }
        }
    }

    private static func admit(_ mapping: CompiledMapping, layout: StoreLayout, entities: inout Set<Int>) -> Bool {
        if let routes = mapping.routes {
            return routes.ordered.allSatisfy { admit($0, layout: layout, entities: &entities) }
        }
        let model = layout.model
        guard !mapping.entity.isAbstract else { return false }
        entities.insert(mapping.entity.index)
        for compiled in mapping.relationships {
            guard admit(compiled.relationship, layout: layout) else { return false }
            switch compiled.source {
            case .reference(let lookup, _, _, let missing, _):
                if missing == .create {
                    guard !model.entities[lookup.entityIndex].isAbstract else { return false }
                    entities.insert(lookup.entityIndex)
                }
            case .nested(let nested):
                guard admit(nested, layout: layout, entities: &entities) else { return false }
            }
        }
        return true
    }

    /// A to-one kept in the owner's column whose inverse (if any) is an unordered to-many; a
    /// to-many in a join table whose inverse is not ordered; or a to-many kept in its
    /// destinations' column.
    private static func admit(_ relationship: ModelRelationship, layout: StoreLayout) -> Bool {
        let inverse = layout.model.inverse(of: relationship)
        switch layout.storage(of: relationship) {
        case .foreignKey:
            return !relationship.isToMany && inverse.map { $0.isToMany && !$0.isOrdered } ?? true
        case .joinTable:
            return !(inverse?.isOrdered ?? false)
        case .inverseForeignKey:
            return relationship.isToMany
        case .transient:
            return false
        }
    }
}
