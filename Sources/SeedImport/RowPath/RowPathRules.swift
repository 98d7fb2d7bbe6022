// Which plans may write their rows straight to a store the run created (the row path) instead
// of going through objects: those whose relationships are kept by one column or one join-table
// row per link, so that writing a row writes both sides, and whose entities need no
// relationship counts checked.
import GraphStore

/// Decides whether a plan's mappings can use the row path.
enum RowPathRules {
    /// Whether every mapping (nested ones included) and every entity it writes fits the row path.
    static func admit(_ mappings: [CompiledMapping], model: ObjectModel) -> Bool {
        var entities: Set<Int> = []
        for mapping in mappings {
            guard admit(mapping, model: model, entities: &entities) else { return false }
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

    private static func admit(_ mapping: CompiledMapping, model: ObjectModel, entities: inout Set<Int>) -> Bool {
        guard !mapping.entity.isAbstract else { return false }
        entities.insert(mapping.entity.index)
        for compiled in mapping.relationships {
            guard admit(compiled.relationship, model: model) else { return false }
            switch compiled.source {
            case .reference(let lookup, _, _, let missing, _):
                if missing == .create {
                    guard !model.entities[lookup.entityIndex].isAbstract else { return false }
                    entities.insert(lookup.entityIndex)
                }
            case .nested(let nested):
                guard admit(nested, model: model, entities: &entities) else { return false }
            }
        }
        return true
    }

    /// A to-one kept in the owner's column whose inverse (if any) is an unordered to-many; a
    /// to-many in a join table whose inverse is not ordered; or a to-many kept in its
    /// destinations' column.
    private static func admit(_ relationship: ModelRelationship, model: ObjectModel) -> Bool {
        let inverse = relationship.inverseIndex.map { model.destination(of: relationship).relationships[$0] }
        switch relationship.storage {
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
