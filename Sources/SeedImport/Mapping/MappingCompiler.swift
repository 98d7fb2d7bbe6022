// Compiles plan mappings against the model: resolves names to slots, applies the conventions of
// docs/PlanFormat.md (field = attribute name or `mappedKeyName`; match = `relatedByAttribute` or the
// destination's unique constraint), builds coercers, and recurses into nested mappings. A mapping
// with `entityField` compiles once per entity its records may name (EntityRoutes).
// Invariant: a plan that passed PlanValidator compiles; anything else fails with a PlanError
// naming the source and key.
import GraphStore
import RecordReaders

/// Turns ``RecordMapping``s into ``CompiledMapping``s for one model.
struct MappingCompiler {
    let model: ObjectModel
    /// The plan file, for error messages.
    let planFile: String
    /// Hands out the numbers of the mappings and relationship mappings compiled.
    let numbers = Numbers()

    /// The next numbers of mappings and relationship mappings, in the order they are compiled.
    final class Numbers {
        private(set) var mappings = 0
        private(set) var relationships = 0

        func nextMapping() -> Int {
            defer { mappings += 1 }
            return mappings
        }

        func nextRelationship() -> Int {
            defer { relationships += 1 }
            return relationships
        }
    }

    /// Compiles `mapping`; `path` names it in errors (`sources[0]`). `listSeparator` is how a
    /// text field lists several keys (`;` for CSV) when relationships are mapped by convention.
    func compile(_ mapping: RecordMapping, path: String, listSeparator: String? = nil) throws(PlanErrors)
        -> CompiledMapping
    {
        guard let entity = model.entity(named: mapping.entity) else {
            throw fail(path + ".entity", "unknown entity '\(mapping.entity)'")
        }
        guard let entityField = mapping.entityField else {
            return try compile(mapping, as: entity, keyedBy: entity, path: path, listSeparator: listSeparator)
        }
        let field: FieldPath
        do {
            field = try FieldPath(parsing: entityField)
        } catch {
            throw fail(path + ".entityField", "\(error)")
        }
        let number = numbers.nextMapping()
        var routed: [String: CompiledMapping] = [:]
        for kind in PlanConventions.recordEntities(of: mapping, entity: entity, model: model) {
            routed[kind.name] = try compile(
                mapping, as: kind, keyedBy: entity, path: "\(path)(\(kind.name))", listSeparator: listSeparator)
        }
        return CompiledMapping(
            number: number, entity: entity, keyLookup: nil, keyAttributes: [], attributes: [], relationships: [],
            onConflict: mapping.onConflict, routes: EntityRoutes(field: field, entity: entity, mappings: routed))
    }

    /// Compiles `mapping` for records that become `entity` objects, matched by the key lookup of
    /// `keyEntity` (the mapping's entity; with `entityField`, `entity` is it or a sub-entity, and
    /// only the attributes and relationships `entity` has are mapped).
    private func compile(
        _ mapping: RecordMapping, as entity: ModelEntity, keyedBy keyEntity: ModelEntity, path: String,
        listSeparator: String?
    ) throws(PlanErrors) -> CompiledMapping {
        let number = numbers.nextMapping()
        let routed = mapping.entityField != nil
        let attributeMappings = PlanConventions.effectiveAttributes(of: mapping, entity: entity).filter {
            !routed || entity.attribute(named: $0.key) != nil
        }
        var attributes: [CompiledAttribute] = []
        for (name, attributeMapping) in attributeMappings.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: name) else {
                throw fail("\(path).attributes.\(name)", "'\(name)' is not an attribute of \(entity.name)")
            }
            attributes.append(try compileAttribute(attribute, attributeMapping, path: "\(path).attributes.\(name)"))
        }
        var keyAttributes: [CompiledAttribute] = []
        if PlanConventions.isIdentity(mapping.key) {
            keyAttributes.append(
                CompiledAttribute(
                    slot: LookupID.identitySlot, name: PlanConventions.identityKey,
                    field: try Self.identityField(path: path + ".key"), constant: nil,
                    coercer: try Self.identityCoercer(path: path + ".key")))
        }
        for name in mapping.key ?? [] where !PlanConventions.isIdentity(mapping.key) {
            guard let attribute = entity.attribute(named: name) else {
                throw fail("\(path).key", "'\(name)' is not an attribute of \(entity.name)")
            }
            if let mapped = attributes.first(where: { $0.slot == attribute.index }) {
                keyAttributes.append(mapped)
            } else {
                let implicit = try compileAttribute(attribute, AttributeMapping(field: name), path: "\(path).key")
                attributes.append(implicit)
                keyAttributes.append(implicit)
            }
        }
        let guardsConstraint = mapping.key == nil && !routed
        if guardsConstraint, let constraint = Self.guardedConstraint(of: entity, attributes: attributes) {
            keyAttributes = constraint
        }
        var relationships: [CompiledRelationship] = []
        for (name, relationshipMapping) in Self.effectiveRelationships(
            of: mapping, entity: entity, model: model, listSeparator: listSeparator
        )
        .filter({ !routed || entity.relationship(named: $0.key) != nil })
        .sorted(by: { $0.key < $1.key }) {
            relationships.append(
                try compileRelationship(name, relationshipMapping, of: entity, path: "\(path).relationships.\(name)"))
        }
        let keyLookup =
            keyAttributes.isEmpty ? nil : LookupID(entityIndex: keyEntity.index, slots: keyAttributes.map(\.slot))
        let keyIsUniqueConstraint = guardsConstraint && keyLookup != nil
        return CompiledMapping(
            number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keyAttributes, attributes: attributes,
            relationships: relationships, onConflict: keyIsUniqueConstraint ? .fail : mapping.onConflict,
            keyIsUniqueConstraint: keyIsUniqueConstraint)
    }

    /// The unique constraint that guards a keyless mapping of `entity` against duplicates: the
    /// first of the entity's constraints whose attributes the mapping all maps (a duplicate of it
    /// would otherwise surface as a store error with no record to name).
    static func guardedConstraint(of entity: ModelEntity, attributes: [CompiledAttribute]) -> [CompiledAttribute]? {
        for constraint in entity.uniqueConstraints {
            let mapped = constraint.compactMap { name in attributes.first { $0.name == name } }
            if !mapped.isEmpty && mapped.count == constraint.count { return mapped }
        }
        return nil
    }

    /// The relationship mappings in force: the plan's, or — when the plan maps neither
    /// attributes nor relationships — every stored relationship whose destination has a key to
    /// match, from the field named after it (or its `mappedKeyName`). A to-one creates a missing
    /// destination; a to-many waits for the deferred pass and ignores keys still missing then
    /// (its destinations are normally another source of the same plan); an ordered to-many
    /// becomes exactly the source's list, in its order.
    static func effectiveRelationships(
        of mapping: RecordMapping, entity: ModelEntity, model: ObjectModel, listSeparator: String?
    ) -> [String: RelationshipMapping] {
        guard mapping.attributes == nil, mapping.relationships.isEmpty else { return mapping.relationships }
        var result: [String: RelationshipMapping] = [:]
        for relationship in entity.relationships where !relationship.isTransient {
            guard let match = try? PlanConventions.effectiveMatch(for: relationship, mapping: nil, model: model) else {
                continue
            }
            result[relationship.name] = RelationshipMapping(
                field: relationship.declaration.userInfo[PlanConventions.mappedKeyName] ?? relationship.name,
                match: match,
                missing: relationship.isToMany ? .ignore : .create, split: relationship.isToMany ? listSeparator : nil,
                members: relationship.isOrdered ? .replace : .add)
        }
        return result
    }

    private func compileAttribute(_ attribute: ModelAttribute, _ mapping: AttributeMapping, path: String)
        throws(PlanErrors)
        -> CompiledAttribute
    {
        let coercer: ValueCoercer
        do {
            coercer = try ValueCoercer(attribute: attribute, mapping: mapping)
        } catch {
            throw fail(path, "\(error)")
        }
        if let text = mapping.value {
            do {
                let constant = try coercer.coerce(text: text)
                return CompiledAttribute(
                    slot: attribute.index, name: attribute.name, field: nil, constant: constant, coercer: coercer)
            } catch {
                throw fail(path + ".value", "\(error)")
            }
        }
        let fieldText = mapping.field ?? attribute.name
        do {
            let field = try FieldPath(parsing: fieldText)
            return CompiledAttribute(
                slot: attribute.index, name: attribute.name, field: field, constant: nil, coercer: coercer)
        } catch {
            throw fail(path + ".field", "\(error)")
        }
    }

    private func compileRelationship(
        _ name: String, _ mapping: RelationshipMapping, of entity: ModelEntity, path: String
    ) throws(PlanErrors) -> CompiledRelationship {
        guard let relationship = entity.relationship(named: name) else {
            throw fail(path, "'\(name)' is not a relationship of \(entity.name)")
        }
        let field: FieldPath
        do {
            field = try FieldPath(parsing: mapping.field)
        } catch {
            throw fail(path + ".field", "\(error)")
        }
        let destination = model.destination(of: relationship)
        if let nested = mapping.nested {
            let compiled = try compile(nested.mapping, path: path + ".nested")
            guard compiled.entity.isKind(of: destination) else {
                throw fail(path + ".nested.entity", "\(compiled.entity.name) is not a \(destination.name)")
            }
            return CompiledRelationship(
                id: path, number: numbers.nextRelationship(), relationship: relationship, field: field,
                source: .nested(compiled), members: mapping.members)
        }
        if PlanConventions.isIdentity(mapping.match) {
            return CompiledRelationship(
                id: path, number: numbers.nextRelationship(), relationship: relationship, field: field,
                source: .reference(
                    lookup: LookupID(entityIndex: destination.index, slots: [LookupID.identitySlot]),
                    coercers: [try Self.identityCoercer(path: path + ".match")],
                    matchNames: [PlanConventions.identityKey],
                    missing: mapping.missing, split: KeySplit(mapping)),
                members: mapping.members)
        }
        let match: [String]
        do {
            match = try PlanConventions.effectiveMatch(for: relationship, mapping: mapping, model: model)
        } catch {
            throw fail(path + ".match", error.message)
        }
        var coercers: [ValueCoercer] = []
        var slots: [Int] = []
        for attributeName in match {
            guard let attribute = destination.attribute(named: attributeName) else {
                throw fail(path + ".match", "'\(attributeName)' is not an attribute of \(destination.name)")
            }
            slots.append(attribute.index)
            do {
                var keyMapping = AttributeMapping(field: attributeName)
                keyMapping.nullTokens = mapping.nullTokens
                coercers.append(try ValueCoercer(attribute: attribute, mapping: keyMapping))
            } catch {
                throw fail(path + ".match", "\(error)")
            }
        }
        return CompiledRelationship(
            id: path, number: numbers.nextRelationship(), relationship: relationship, field: field,
            source: .reference(
                lookup: LookupID(entityIndex: destination.index, slots: slots), coercers: coercers, matchNames: match,
                missing: mapping.missing, split: KeySplit(mapping)),
            members: mapping.members)
    }

    /// The field a run identity key is read from: the one named like it.
    private static func identityField(path: String) throws(PlanErrors) -> FieldPath {
        do {
            return try FieldPath(parsing: PlanConventions.identityKey)
        } catch {
            throw PlanErrors([PlanError(keyPath: path, message: "\(error)")])
        }
    }

    /// Run identities are texts, taken as written.
    private static func identityCoercer(path: String) throws(PlanErrors) -> ValueCoercer {
        do {
            return try ValueCoercer(
                declaration: AttributeDescription(name: PlanConventions.identityKey, type: .string),
                mapping: AttributeMapping())
        } catch {
            throw PlanErrors([PlanError(keyPath: path, message: "\(error)")])
        }
    }

    private func fail(_ keyPath: String, _ message: String) -> PlanErrors {
        PlanErrors([PlanError(file: planFile, keyPath: keyPath, message: message)])
    }
}
