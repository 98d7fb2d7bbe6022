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
    /// The plan's source mappings: where a match names a relationship of its destination, the
    /// destination's source says how that relationship's destinations are matched
    /// (``PlanConventions/keyMatch(for:of:sources:model:)``).
    var planSources: [RecordMapping] = []
    /// Hands out the numbers of the mappings and relationship mappings compiled.
    let numbers = Numbers()
    /// What convention mapping left out, one line each (shown by `--dry-run` and `plan explain`).
    let notes = Notes()

    /// Lines noting what convention mapping left out, in the order found.
    final class Notes {
        private(set) var lines: [String] = []

        func add(_ line: String) {
            lines.append(line)
        }
    }

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
    /// `header` says which top-level fields a tabular source has (nil: any field may occur, as in
    /// JSON and XML records): a property convention mapping would read from fields it lacks is
    /// left out (noted) before anything is written; a field the plan names is kept, for the
    /// reader to refuse with the header's position. `scope` says whether reference fields may
    /// hold records, and how a mapping of such records differs.
    func compile(
        _ mapping: RecordMapping, path: String, listSeparator: String? = nil, header: SourceHeader? = nil,
        scope: NestingScope = NestingScope(holdsRecords: false)
    ) throws(PlanErrors) -> CompiledMapping {
        guard let entity = model.entity(named: mapping.entity) else {
            throw fail(path + ".entity", "unknown entity '\(mapping.entity)'")
        }
        guard let entityField = mapping.entityField else {
            return try compile(
                mapping, as: entity, keyedBy: entity, path: path, listSeparator: listSeparator, header: header,
                scope: scope)
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
                mapping, as: kind, keyedBy: entity, path: "\(path)(\(kind.name))", listSeparator: listSeparator,
                header: header, scope: scope)
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
        listSeparator: String?, header: SourceHeader?, scope: NestingScope
    ) throws(PlanErrors) -> CompiledMapping {
        let number = numbers.nextMapping()
        let routed = mapping.entityField != nil
        let byConvention = mapping.attributes == nil
        var attributes: [CompiledAttribute] = []
        let attributeMappings = PlanConventions.effectiveAttributes(of: mapping, entity: entity).filter {
            !routed || entity.attribute(named: $0.key) != nil
        }
        for (name, attributeMapping) in attributeMappings.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: name) else {
                throw fail("\(path).attributes.\(name)", "'\(name)' is not an attribute of \(entity.name)")
            }
            if let compiled = try compileAttribute(
                attribute, attributeMapping,
                fields: PlanConventions.fields(for: attribute, mapping: mapping.attributes?[name]),
                byConvention: byConvention, header: header, path: "\(path).attributes.\(name)")
            {
                attributes.append(compiled)
            }
        }
        var keyAttributes: [CompiledAttribute] = []
        let isIdentity = PlanConventions.isIdentity(mapping.key)
        if isIdentity {
            keyAttributes.append(
                CompiledAttribute(
                    slot: LookupID.identitySlot, name: PlanConventions.identityKey,
                    fields: [try Self.identityField(path: path + ".key")], constant: nil,
                    coercer: try Self.identityCoercer(path: path + ".key")))
        }
        let key =
            isIdentity ? [] : scope.key ?? PlanConventions.effectiveKey(of: mapping, entity: entity, model: model) ?? []
        // To-one relationships in the key are matched through their mappings' destination keys.
        let keyRelationshipNames = key.filter { entity.attribute(named: $0) == nil }
        for name in key where !keyRelationshipNames.contains(name) {
            guard let attribute = entity.attribute(named: name) else { continue }
            if let mapped = attributes.first(where: { $0.slot == attribute.index }) {
                keyAttributes.append(mapped)
            } else if let implicit = try compileAttribute(
                attribute, PlanConventions.completed(AttributeMapping(), of: attribute),
                fields: PlanConventions.fields(for: attribute, mapping: nil),
                byConvention: mapping.key == nil, header: header, path: "\(path).key")
            {
                attributes.append(implicit)
                keyAttributes.append(implicit)
            }
        }
        if !isIdentity && keyAttributes.count < key.count - keyRelationshipNames.count { keyAttributes = [] }
        // A source with no key from the plan or the model still refuses repeats of the entity's
        // unique constraint as data errors (routed records: their sub-entities' constraints may
        // lie outside the key lookup's entity).
        let guardsConstraint = mapping.key == nil && scope.key == nil && !routed && keyAttributes.isEmpty
        if guardsConstraint, let constraint = Self.guardedConstraint(of: entity, attributes: attributes) {
            keyAttributes = constraint
        }
        var relationships: [CompiledRelationship] = []
        let relationshipMappings = Self.effectiveRelationships(
            of: mapping, entity: entity, model: model, listSeparator: listSeparator
        ).filter { $0.key != scope.inverse && (!routed || entity.relationship(named: $0.key) != nil) }
        for (name, relationshipMapping) in relationshipMappings.sorted(by: { $0.key < $1.key }) {
            if let compiled = try compileRelationship(
                name, relationshipMapping, of: entity, byConvention: mapping.relationships.isEmpty, header: header,
                scope: scope.inside(entity), inKey: keyRelationshipNames.contains(name),
                path: "\(path).relationships.\(name)")
            {
                relationships.append(compiled)
            }
        }
        let keyRelationships = try keyRelationshipPositions(
            keyRelationshipNames, in: relationships, of: entity, keyedBy: keyEntity, path: path + ".key")
        let keyLookup =
            keyAttributes.isEmpty && keyRelationships.isEmpty
            ? nil
            : LookupID(
                entityIndex: scope.lookupEntity ?? keyEntity.index, slots: keyAttributes.map(\.slot),
                through: keyRelationships.map {
                    KeyThrough(relationship: relationships[$0].relationship.index, lookup: relationships[$0].lookup)
                })
        let keyIsUniqueConstraint = guardsConstraint && keyLookup != nil
        return CompiledMapping(
            number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keyAttributes,
            keyRelationships: keyRelationships,
            keyIsOptional: !keyIsUniqueConstraint && (scope.key != nil || mapping.key == nil), attributes: attributes,
            relationships: relationships, onConflict: keyIsUniqueConstraint ? .fail : mapping.onConflict,
            keyIsUniqueConstraint: keyIsUniqueConstraint)
    }

    /// The positions among `relationships` of the key's relationships `names`: each a to-one of
    /// `keyEntity` (whose lookup the key is) mapped by reference (not by run identity) that
    /// finds or creates its destination.
    private func keyRelationshipPositions(
        _ names: [String], in relationships: [CompiledRelationship], of entity: ModelEntity,
        keyedBy keyEntity: ModelEntity, path: String
    ) throws(PlanErrors) -> [Int] {
        var positions: [Int] = []
        for name in names {
            guard let relationship = entity.relationship(named: name), keyEntity.relationship(named: name) != nil
            else {
                throw fail(path, "'\(name)' is not an attribute or relationship of \(keyEntity.name)")
            }
            guard !relationship.isToMany else {
                throw fail(path, "'\(name)' is a to-many relationship: a key names attributes and to-one relationships")
            }
            guard let position = relationships.firstIndex(where: { $0.relationship === relationship }) else {
                throw fail(path, "key relationship '\(name)' is not mapped: add it to relationships")
            }
            let compiled = relationships[position]
            guard case .reference(let lookup, _, _, let missing, _) = compiled.source, !lookup.isRunIdentity,
                missing != .ignore
            else {
                throw fail(
                    path,
                    "key relationship '\(name)' must refer to its destination by key, with missing: create or reject")
            }
            positions.append(position)
        }
        return positions
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
    /// match (``PlanConventions/usableMatch(for:model:)``), from its conventional fields. A to-one
    /// creates a missing destination; a to-many waits for the deferred pass and ignores keys still
    /// missing then (its destinations are normally another source of the same plan); an ordered
    /// to-many becomes exactly the source's list, in its order.
    static func effectiveRelationships(
        of mapping: RecordMapping, entity: ModelEntity, model: ObjectModel, listSeparator: String?
    ) -> [String: RelationshipMapping] {
        guard mapping.attributes == nil, mapping.relationships.isEmpty else { return mapping.relationships }
        var result: [String: RelationshipMapping] = [:]
        for relationship in entity.relationships where !relationship.isTransient {
            guard PlanConventions.usableMatch(for: relationship, model: model) != nil else { continue }
            result[relationship.name] = RelationshipMapping(
                missing: relationship.isToMany ? .ignore : .create,
                split: relationship.isToMany ? listSeparator : nil, members: relationship.isOrdered ? .replace : .add)
        }
        return result
    }

    /// The field paths a property is read from, in the order tried, among `candidates`: in a
    /// tabular source the first its header has (by convention: nil when it has none; a field the
    /// plan names stays, for the reader to report with the header's position), elsewhere all of
    /// them (noted by convention when the first record has none of them).
    private func fieldPaths(_ candidates: [String], byConvention: Bool, header: SourceHeader?, path: String)
        throws(PlanErrors) -> [FieldPath]?
    {
        var paths: [FieldPath] = []
        for candidate in candidates {
            do {
                paths.append(try FieldPath(parsing: candidate))
            } catch {
                throw fail(path + ".field", "\(error)")
            }
        }
        guard let header else { return paths }
        guard header.kind == .columns else {
            if byConvention, !paths.contains(where: header.has) {
                notes.add(
                    "\(path): \(header.missingReason(candidates.joined(separator: ", "))); mapped for the records that have it"
                )
            }
            return paths
        }
        return paths.first(where: header.has).map { [$0] } ?? (byConvention ? nil : [paths[0]])
    }

    /// `attribute` compiled under `mapping`, read from the first of `candidates` a record has;
    /// nil when convention mapping leaves it out (its
    /// fields are not in the header, or no codec can build its values: noted once).
    private func compileAttribute(
        _ attribute: ModelAttribute, _ mapping: AttributeMapping, fields candidates: [String], byConvention: Bool,
        header: SourceHeader?, path: String
    ) throws(PlanErrors) -> CompiledAttribute? {
        let coercer: ValueCoercer
        do {
            coercer = try ValueCoercer(attribute: attribute, mapping: mapping)
        } catch {
            guard byConvention, attribute.type == .transformable else { throw fail(path, "\(error)") }
            notes.add("\(path): \(error.reason); left out (map it with a codec to import it)")
            return nil
        }
        if let text = mapping.value {
            do {
                let constant = try coercer.coerce(text: text)
                return CompiledAttribute(
                    slot: attribute.index, name: attribute.name, fields: [], constant: constant, coercer: coercer)
            } catch {
                throw fail(path + ".value", "\(error)")
            }
        }
        guard let fields = try fieldPaths(candidates, byConvention: byConvention, header: header, path: path) else {
            noteNotMapped(path, candidates, header: header)
            return nil
        }
        return CompiledAttribute(
            slot: attribute.index, name: attribute.name, fields: fields, constant: nil, coercer: coercer)
    }

    /// The relationship `name` compiled under `mapping`; nil when convention mapping leaves it out
    /// (its fields are not in the header: noted).
    private func compileRelationship(
        _ name: String, _ mapping: RelationshipMapping, of entity: ModelEntity, byConvention: Bool,
        header: SourceHeader?, scope: NestingScope, inKey: Bool, path: String
    ) throws(PlanErrors) -> CompiledRelationship? {
        guard let relationship = entity.relationship(named: name) else {
            throw fail(path, "'\(name)' is not a relationship of \(entity.name)")
        }
        let candidates = PlanConventions.fields(for: relationship, mapping: mapping)
        guard let fields = try fieldPaths(candidates, byConvention: byConvention, header: header, path: path) else {
            noteNotMapped(path, candidates, header: header)
            return nil
        }
        let destination = model.destination(of: relationship)
        if let nested = mapping.nested {
            let compiled = try compile(
                nested.mapping, path: path + ".nested", scope: NestingScope(holdsRecords: scope.holdsRecords))
            guard compiled.entity.isKind(of: destination) else {
                throw fail(path + ".nested.entity", "\(compiled.entity.name) is not a \(destination.name)")
            }
            return CompiledRelationship(
                id: path, number: numbers.nextRelationship(), relationship: relationship, fields: fields,
                source: .nested(compiled), members: mapping.members)
        }
        if PlanConventions.isIdentity(mapping.match) {
            return CompiledRelationship(
                id: path, number: numbers.nextRelationship(), relationship: relationship, fields: fields,
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
        let lookup = try matchLookup(match, of: destination, path: path + ".match", depth: 0)
        if lookup.goesThrough && mapping.missing == .create {
            throw fail(
                path + ".missing",
                "missing: create cannot insert a \(destination.name) matched through its relationships: "
                    + "use reject or ignore")
        }
        var coercers: [ValueCoercer] = []
        for (attribute, part) in zip(lookup.partAttributes(in: model), lookup.partKeyPaths(in: model)) {
            do {
                var keyMapping = AttributeMapping(field: part)
                keyMapping.nullTokens = mapping.nullTokens
                coercers.append(try ValueCoercer(attribute: attribute, mapping: keyMapping))
            } catch {
                throw fail(path + ".match", "\(error)")
            }
        }
        let number = numbers.nextRelationship()
        let nestsData =
            scope.holdsRecords && !inKey && mapping.match == nil && mapping.split == nil && match.count == 1
            && !lookup.goesThrough && !scope.enclosing.contains(destination.index)
            && scope.enclosing.count < NestingScope.maximumDepth
        return CompiledRelationship(
            id: path, number: number, relationship: relationship, fields: fields,
            source: .reference(
                lookup: lookup, coercers: coercers, matchNames: Self.partFields(of: lookup, model: model),
                missing: mapping.missing, split: KeySplit(mapping)),
            members: mapping.members,
            dataNesting: nestsData ? try dataNesting(of: relationship, key: match, scope: scope, path: path) : nil)
    }

    /// The lookup of `destination` objects by `names`: attributes, and to-one relationships of
    /// the destination, each compared by its destination's key (``PlanConventions/keyMatch(for:of:sources:model:)``),
    /// recursively up to a few relationships deep.
    private func matchLookup(_ names: [String], of destination: ModelEntity, path: String, depth: Int)
        throws(PlanErrors) -> LookupID
    {
        var slots: [Int] = []
        var through: [KeyThrough] = []
        for name in names {
            if let attribute = destination.attribute(named: name) {
                slots.append(attribute.index)
                continue
            }
            guard let relationship = destination.relationship(named: name) else {
                throw fail(path, "'\(name)' is not an attribute of \(destination.name)")
            }
            guard !relationship.isToMany, depth < NestingScope.maximumDepth else {
                throw fail(path, "'\(name)' is a to-many relationship of \(destination.name): it cannot be matched")
            }
            let match: [String]
            do {
                match = try PlanConventions.keyMatch(
                    for: relationship, of: destination, sources: planSources, model: model)
            } catch {
                throw fail(path, error.message)
            }
            through.append(
                KeyThrough(
                    relationship: relationship.index,
                    lookup: try matchLookup(
                        match, of: model.destination(of: relationship), path: path, depth: depth + 1)
                ))
        }
        return LookupID(entityIndex: destination.index, slots: slots, through: through)
    }

    /// The field of a reference's record that holds each part of `lookup`'s keys: an
    /// attribute's name; a relationship's name when its destination's key has one part, else
    /// `relationship.part` for each.
    static func partFields(of lookup: LookupID, model: ObjectModel) -> [String] {
        let entity = model.entities[lookup.entityIndex]
        return lookup.slots.map { entity.attributes[$0].name }
            + lookup.through.flatMap { step in
                let name = entity.relationships[step.relationship].name
                let inner = partFields(of: step.lookup, model: model)
                return inner.count == 1 ? [name] : inner.map { name + "." + $0 }
            }
    }

    /// The mappings of records that `relationship`'s field may hold instead of keys: every
    /// stored attribute by convention, keyed (optionally) by the reference's `key`, the
    /// relationships by convention but the inverse; one per concrete destination entity.
    private func dataNesting(of relationship: ModelRelationship, key: [String], scope: NestingScope, path: String)
        throws(PlanErrors) -> DataNesting
    {
        let destination = model.destination(of: relationship)
        let typeField = relationship.declaration.userInfo[PlanConventions.relationshipType].flatMap {
            try? FieldPath(parsing: $0)
        }
        let concrete = model.entities.filter { $0.isKind(of: destination) && !$0.isAbstract }
        let kinds =
            typeField == nil ? concrete.filter { $0.index == destination.index || destination.isAbstract } : concrete
        let inner = NestingScope(
            holdsRecords: true, enclosing: scope.enclosing, key: key, lookupEntity: destination.index,
            inverse: model.inverse(of: relationship)?.name)
        var mappings: [CompiledMapping] = []
        for entity in kinds {
            mappings.append(
                try compile(RecordMapping(entity: entity.name), path: "\(path)(\(entity.name))", scope: inner))
        }
        let defaultMapping =
            destination.isAbstract
            ? (mappings.count == 1 ? mappings.first : nil)
            : mappings.first {
                $0.entity.index == destination.index
            }
        return DataNesting(mappings: mappings, defaultMapping: defaultMapping, typeField: typeField)
    }

    /// Where a mapping sits among records nested from the data (``DataNesting``).
    struct NestingScope {
        /// Whether reference fields may hold records (JSON and XML sources; never CSV rows).
        var holdsRecords: Bool
        /// The entities of the records enclosing this one: references to them stay references,
        /// so that nesting ends.
        var enclosing: Set<Int> = []
        /// For records nested from the data: their key (the reference's match; a record without
        /// it is inserted), its lookup's entity (the relationship's destination), and the
        /// relationship back to the enclosing record, left out.
        var key: [String]? = nil
        var lookupEntity: Int? = nil
        var inverse: String? = nil

        /// How many records deep data nesting goes (a deeper record's reference fields hold keys
        /// only): mappings are compiled ahead for every path, so the depth bounds their number.
        static let maximumDepth = 3

        /// The scope of `entity`'s relationships' records.
        func inside(_ entity: ModelEntity) -> NestingScope {
            NestingScope(holdsRecords: holdsRecords, enclosing: enclosing.union([entity.index]))
        }
    }

    /// Notes that convention mapping leaves the property at `path` out: the header has none of `candidates`.
    private func noteNotMapped(_ path: String, _ candidates: [String], header: SourceHeader?) {
        let reason = header?.missingReason(candidates.joined(separator: ", ")) ?? "no field"
        notes.add("\(path): not mapped (\(reason))")
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
