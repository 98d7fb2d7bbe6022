// Drafts a plan for a given model: each source's entity found by name (or given), each field
// mapped to the attribute or relationship it names (loosely: `locationathome` ~ `locationAtHome`,
// `mag` ~ `magnitude` as a flagged guess), coercion options taken from the sample (a date's format,
// epoch times for numbers), a nested object named after a to-one relationship imported as nested
// records, and the key from the entity's unique constraint (else guessed). What does not fit is
// said in comments: values the attribute's type refuses, required attributes no field gives.
import GraphStore
import SeedImport

/// Builds a ``Draft`` against an existing model.
struct ModelMapper {
    let model: ObjectModel
    let samples: [SourceSample]
    /// The entity of the one source, when the caller names it.
    let entityName: String?

    func draft(paths: DraftPaths) throws -> Draft {
        let sources = try samples.map { sample in
            let entity = try self.entity(for: sample)
            return DraftSource(
                file: paths.relative(sample.file), records: sample.records, sampled: sample.recordCount,
                mapping: mapping(of: entity, fields: sample.fields, depth: 0, sample: sample))
        }
        return Draft(
            model: paths.relative(paths.modelFile), modelName: model.name, store: model.name + ".sqlite",
            sources: sources, entities: nil)
    }

    /// The concrete entity `sample`'s records become: the one named, or the one its name suggests.
    private func entity(for sample: SourceSample) throws -> ModelEntity {
        let concrete = model.entities.filter { !$0.isAbstract }
        if let entityName {
            guard let entity = model.entity(named: entityName), !entity.isAbstract else {
                throw InferenceError(
                    "--entity \(entityName): not a concrete entity of the model (\(concrete.map(\.name).joined(separator: ", ")))"
                )
            }
            return entity
        }
        let hint = sample.entityHint
        // By name (`items` → Item), else the one entity whose name ends in it (`lists` → ShoppingList).
        let endings = concrete.filter { entity in
            let word = InferenceNames.folded(InferenceNames.singular(hint))
            return !word.isEmpty && InferenceNames.folded(entity.name).hasSuffix(word)
        }
        let named = concrete.first { InferenceNames.field(hint, names: $0.name) }
        guard let entity = named ?? (endings.count == 1 ? endings.first : nil) else {
            throw InferenceError(
                "\(sample.file): no entity of the model is named like '\(hint)': give --entity (one of "
                    + concrete.map(\.name).joined(separator: ", ") + ")")
        }
        return entity
    }

    /// The mapping of `fields` (paths relative to `depth` steps in) onto `entity`.
    private func mapping(of entity: ModelEntity, fields: [FieldSample], depth: Int, sample: SourceSample)
        -> DraftMapping
    {
        var mapping = DraftMapping(entity: entity.name)
        var remaining = fields
        // Nested objects named after a to-one relationship become nested records (the object may
        // sit deeper than the record's own fields: `properties.network` for `network`).
        for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
            guard
                let (first, level) = remaining.lazy.compactMap({ field in
                    (depth..<max(depth, field.components.count - 1)).first { level in
                        InferenceNames.field(field.components[level], names: relationship.name)
                    }.map { (field, $0) }
                }).first
            else { continue }
            let prefix = Array(first.steps[...level])
            let inside = remaining.filter {
                $0.steps.count > prefix.count && Array($0.steps.prefix(prefix.count)) == prefix
            }
            remaining.removeAll { field in inside.contains { $0.steps == field.steps } }
            let destination = model.destination(of: relationship)
            let nested = self.mapping(of: destination, fields: inside, depth: level + 1, sample: sample)
            mapping.relationships.append(
                DraftRelationshipMapping(
                    relationship: relationship.name, field: prefix.dropFirst(depth).joined(separator: first.separator),
                    match: nil, split: nil, nested: nested, comment: "nested \(destination.name) records"))
        }
        var used: Set<String> = []
        for field in remaining {
            if let attribute = attribute(for: field, of: entity, excluding: used) {
                used.insert(attribute.attribute.name)
                mapping.attributes.append(
                    attributeMapping(attribute.attribute, field, depth: depth, guessed: attribute.guessed))
            } else if let relationship = entity.relationships.first(where: { relationship in
                !relationship.isTransient && !used.contains(relationship.name)
                    && InferenceNames.field(field.name, names: relationship.name)
            }) {
                used.insert(relationship.name)
                if let reference = referenceMapping(relationship, field, depth: depth, sample: sample) {
                    mapping.relationships.append(reference)
                } else {
                    mapping.notes.append(
                        "\(field.path(from: depth)): \(relationship.name) has no attribute to match its values by "
                            + "(no relatedByAttribute, no single unique attribute in \(model.destination(of: relationship).name)); "
                            + "left out")
                }
            } else {
                mapping.notes.append(
                    "\(field.path(from: depth)): no property of \(entity.name) is named like it; left out")
            }
        }
        setKey(of: &mapping, entity: entity, fields: remaining, sample: sample)
        for attribute in entity.attributes
        where !attribute.isOptional && !attribute.isTransient && attribute.declaration.defaultValue == nil
            && !used.contains(attribute.name)
        {
            mapping.notes.append(
                "\(attribute.name) is required, and no field of the sample is named like it: map it, "
                    + "or the import refuses every record")
        }
        return mapping
    }

    /// The attribute `field` names: by name, `mappedKeyName`, or (flagged) a shared prefix.
    private func attribute(for field: FieldSample, of entity: ModelEntity, excluding used: Set<String>)
        -> (attribute: ModelAttribute, guessed: Bool)?
    {
        let attributes = entity.attributes.filter { !$0.isTransient && !used.contains($0.name) }
        if let named = attributes.first(where: { attribute in
            attribute.declaration.userInfo[PlanConventions.mappedKeyName] == field.name
                || InferenceNames.field(field.name, names: attribute.name)
        }) {
            return (named, false)
        }
        let folded = InferenceNames.folded(field.name)
        guard folded.count >= 3 else { return nil }
        return attributes.first { attribute in
            let name = InferenceNames.folded(attribute.name)
            return name.hasPrefix(folded) || folded.hasPrefix(name) && name.count >= 3
        }.map { ($0, true) }
    }

    /// How `field` maps `attribute`, with the options its sampled values need.
    private func attributeMapping(_ attribute: ModelAttribute, _ field: FieldSample, depth: Int, guessed: Bool)
        -> DraftAttributeMapping
    {
        var mapping = DraftAttributeMapping(attribute: attribute.name, field: field.path(from: depth))
        var remarks: [String] = []
        if guessed { remarks.append("a guess: \(field.name) and \(attribute.name) share a prefix") }
        let texts = field.presentValues.compactMap(\.text)
        switch attribute.type {
        case _ where field.isList:
            remarks.append("the sample holds lists here, which a \(attribute.type.rawValue) attribute cannot take")
        case .date:
            if let (format, alternatives) = ValueKinds.dateFormat(of: texts, includingEpoch: true) {
                mapping.dateFormat = format
                if !alternatives.isEmpty {
                    remarks.append("the sample also reads as \(alternatives.joined(separator: ", ")): check the format")
                }
            } else if !texts.isEmpty {
                remarks.append("the sampled values are dates in no format SeedKit knows: give date: with a pattern")
            }
        default:
            let refused = ValueKinds.refused(texts, as: attribute.type)
            if let example = refused.first {
                remarks.append(
                    "\(refused.count) sampled value\(refused.count == 1 ? "" : "s") (\"\(example)\") "
                        + "\(refused.count == 1 ? "is" : "are") not \(attribute.type.rawValue)")
            }
        }
        if attribute.type == .string, attribute.isOptional, field.values.contains(.text("")) {
            mapping.nullTokens = [""]
        }
        mapping.comment = remarks.isEmpty ? nil : remarks.joined(separator: "; ")
        return mapping
    }

    /// `field`'s values as references to `relationship`'s destinations, matched by the model's
    /// convention; nil when the model has none.
    private func referenceMapping(
        _ relationship: ModelRelationship, _ field: FieldSample, depth: Int, sample: SourceSample
    ) -> DraftRelationshipMapping? {
        guard let match = try? PlanConventions.effectiveMatch(for: relationship, mapping: nil, model: model) else {
            return nil
        }
        let csv = sample.format.isTabular
        var comment: String?
        if !relationship.isToMany, field.isList {
            comment = "the sample holds lists here, but \(relationship.name) is a to-one"
        }
        // A destination a stub cannot fill (another required attribute, no default) is not created.
        let destination = model.destination(of: relationship)
        let stubbable = destination.attributes.allSatisfy {
            $0.isOptional || $0.isTransient || $0.declaration.defaultValue != nil || match.contains($0.name)
        }
        return DraftRelationshipMapping(
            relationship: relationship.name, field: field.path(from: depth), match: match,
            split: relationship.isToMany && csv ? FieldGuesses.split(of: field) : nil,
            missing: stubbable ? nil : "reject", comment: comment)
    }

    /// The key: the entity's first unique constraint whose attributes are all mapped, else a
    /// guess, else (left out of the plan) the model's key by convention, if it has one.
    private func setKey(
        of mapping: inout DraftMapping, entity: ModelEntity, fields: [FieldSample], sample: SourceSample
    ) {
        let mapped = Set(mapping.attributes.map(\.attribute))
        if let constraint = entity.uniqueConstraints.first(where: { Set($0).isSubset(of: mapped) }) {
            mapping.key = constraint
            mapping.keyComment = "the unique constraint of \(entity.name)"
            return
        }
        let candidates: [(field: FieldSample, name: String)] = mapping.attributes.compactMap { attributeMapping in
            guard let attribute = entity.attribute(named: attributeMapping.attribute),
                [.string, .integer16, .integer32, .integer64, .uuid, .decimal].contains(attribute.type),
                let field = fields.first(where: { $0.path(from: 0).hasSuffix(attributeMapping.field) })
            else { return nil }
            return (field, attribute.name)
        }
        if let (key, comment) = FieldGuesses.key(among: candidates, entity: entity.name, sampled: sample.recordCount) {
            mapping.key = [key]
            mapping.keyComment = comment
        } else if let key = PlanConventions.conventionalKey(of: entity, model: model), mapped.contains(key) {
            mapping.keyComment =
                "no key: the model's \(key) is the key (docs/PlanFormat.md, \"Conventions from the model\"), "
                + "so a record repeating a \(key) updates the object"
        } else {
            mapping.keyComment = FieldGuesses.noKeyComment
        }
    }
}
