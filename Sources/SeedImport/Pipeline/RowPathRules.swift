// Which plans may write their rows straight to a store the run created (the row path) instead
// of going through objects: those whose relationships are kept by one column or one join-table
// row per link, so that writing a row writes both sides, whose entities need no relationship
// counts checked, and whose rows the layout keeps without companion entity columns; a plan with
// run identities (`object-id`) goes through objects (RunIdentities), and so does one whose
// references match through relationships of their destination (a source keyed through its own
// relationships fits: its keys are values the run's key index holds). A mapping with
// `entityField` fits when the mapping of every entity it routes to does.
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
            ImportSQL.rowPathWrites(rowsOf: model.entities[index], in: layout)
                && model.entities[index].relationships.allSatisfy { relationship in
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
        // Run identities are found in the run's identity table, which only objects use.
        guard !mapping.entity.isAbstract, mapping.identityKey == nil else { return false }
        entities.insert(mapping.entity.index)
        for compiled in mapping.relationships {
            guard admit(compiled.relationship, layout: layout) else { return false }
            for nested in compiled.dataNesting?.mappings ?? [] {
                guard admit(nested, layout: layout, entities: &entities) else { return false }
            }
            switch compiled.source {
            case .reference(let lookup, _, _, let missing, _):
                // References matched through relationships are found by objects (ObjectLookup).
                guard !lookup.isRunIdentity, !lookup.goesThrough else { return false }
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

    private static func admit(_ relationship: ModelRelationship, layout: StoreLayout) -> Bool {
        ImportSQL.rowPathWrites(relationship, inverse: layout.model.inverse(of: relationship), in: layout)
    }
}
