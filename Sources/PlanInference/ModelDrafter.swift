// Drafts a model and plan from samples alone: an entity per source (named after the file or its
// records), an attribute per scalar field typed by its values, a key guessed per source, and a
// relationship for each field named after another source's entity whose key it can match (`unit`
// → Unit, `items` → Item; a list or a `;`-separated CSV field is a to-many), with its inverse.
// Fields the draft cannot map — lists of values named after nothing, lists of nested records —
// are left out with a note.
import GraphStore

/// Builds a ``Draft`` with its own model.
struct ModelDrafter {
    let samples: [SourceSample]
    /// The entity of the one source, when the caller names it.
    let entityName: String?

    /// A source's entity, attributes and mapping, before relationships are added.
    private struct Part {
        var sample: SourceSample
        var entity: DraftEntity
        var mapping: DraftMapping
        /// Fields that may name another entity, with the names they would get.
        var candidates: [(field: FieldSample, name: String)]
        var keyAttribute: String?
    }

    func draft(paths: DraftPaths) -> Draft {
        var parts = entityNames().enumerated().map { index, name in part(samples[index], entity: name) }
        addRelationships(&parts)
        return Draft(
            model: paths.relative(paths.modelFile), modelName: paths.modelName, store: paths.modelName + ".sqlite",
            sources: parts.map { part in
                DraftSource(
                    file: paths.relative(part.sample.file), records: part.sample.records,
                    sampled: part.sample.recordCount, mapping: part.mapping)
            },
            entities: parts.map(\.entity))
    }

    /// One entity name per source: the given one, or the source's hint in the singular,
    /// numbered when two sources would share one.
    private func entityNames() -> [String] {
        var used: Set<String> = []
        return samples.map { sample in
            InferenceNames.unique(entityName ?? InferenceNames.entityName(sample.entityHint), in: &used)
        }
    }

    /// The entity and mapping of one source: its scalar fields as attributes, a guessed key.
    private func part(_ sample: SourceSample, entity name: String) -> Part {
        var entity = DraftEntity(name: name)
        var mapping = DraftMapping(entity: name)
        let mappable = sample.fields.filter { !$0.holdsRecords }
        for field in sample.fields where field.holdsRecords {
            mapping.notes.append("\(field.path): lists of nested records, left out (map them with nested: by hand)")
        }
        let names = FieldGuesses.propertyNames(for: mappable)
        var candidates: [(field: FieldSample, name: String)] = []
        for (field, attribute) in zip(mappable, names) {
            candidates.append((field, attribute))
            guard !field.isList else { continue }
            let column = ColumnType(of: field)
            entity.attributes.append(.init(name: attribute, type: column.type, optional: true, comment: column.comment))
            let nullTokens = column.type == .string && field.values.contains(.text("")) ? [""] : nil
            mapping.attributes.append(
                DraftAttributeMapping(
                    attribute: attribute, field: field.path, dateFormat: column.dateFormat, nullTokens: nullTokens,
                    comment: column.comment))
        }
        let scalarCandidates = candidates.filter { candidate in
            !candidate.field.isList
                && entity.attributes.contains {
                    $0.name == candidate.name && [.string, .integer64, .uuid].contains($0.type)
                }
        }
        var keyAttribute: String?
        if let (key, comment) = FieldGuesses.key(among: scalarCandidates, entity: name, sampled: sample.recordCount) {
            keyAttribute = key
            mapping.key = [key]
            mapping.keyComment = comment
            entity.unique = [key]
            if let index = entity.attributes.firstIndex(where: { $0.name == key }) {
                entity.attributes[index].optional = false
                entity.attributes[index].comment = "the key (a guess, see the plan)"
            }
        } else {
            mapping.keyComment = FieldGuesses.noKeyComment
        }
        return Part(
            sample: sample, entity: entity, mapping: mapping, candidates: candidates, keyAttribute: keyAttribute)
    }

    /// Turns fields named after another part's entity into relationships matching its key; the
    /// lists left over are noted.
    private func addRelationships(_ parts: inout [Part]) {
        for index in parts.indices {
            for (field, name) in parts[index].candidates where name != parts[index].keyAttribute {
                let target = parts.indices.first { other in
                    other != index && parts[other].keyAttribute != nil
                        && InferenceNames.field(field.name, names: parts[other].entity.name)
                }
                guard let target, let key = parts[target].keyAttribute else {
                    if field.isList {
                        parts[index].mapping.notes.append(
                            "\(field.path): lists of values, left out (a to-many relationship to an entity of "
                                + "their own, by hand)")
                    }
                    continue
                }
                let csv = parts[index].sample.format.isTabular
                let split = csv ? FieldGuesses.split(of: field) : nil
                let toMany =
                    field.isList
                    || (split.map { separator in
                        field.presentValues.contains { $0.text?.contains(separator) == true }
                    } ?? false)
                link(
                    &parts, from: index, to: target, field: field, name: name, key: key, toMany: toMany,
                    split: toMany ? split : nil)
            }
        }
    }

    /// Replaces the attribute `name` of `parts[source]` by a relationship to `parts[target]`'s
    /// entity, with a to-many inverse there.
    private func link(
        _ parts: inout [Part], from source: Int, to target: Int, field: FieldSample, name: String, key: String,
        toMany: Bool, split: String?
    ) {
        let sourceEntity = parts[source].entity.name
        let targetEntity = parts[target].entity.name
        parts[source].entity.attributes.removeAll { $0.name == name }
        parts[source].mapping.attributes.removeAll { $0.attribute == name }
        let taken = Set(parts[target].entity.attributes.map(\.name) + parts[target].entity.relationships.map(\.name))
        var inverse = InferenceNames.propertyName(InferenceNames.plural(sourceEntity))
        while taken.contains(inverse) { inverse += "Inverse" }
        parts[source].entity.relationships.append(
            .init(name: name, destination: targetEntity, inverse: inverse, toMany: toMany))
        parts[target].entity.relationships.append(
            .init(name: inverse, destination: sourceEntity, inverse: name, toMany: true))
        parts[source].mapping.relationships.append(
            DraftRelationshipMapping(
                relationship: name, field: field.path, match: [key], split: split,
                comment: "\(field.path) named after \(targetEntity): its values are \(targetEntity).\(key) keys"))
    }
}
