// The model half of plan validation: a mapping's entity and key, each attribute mapping's field
// and options against the attribute's type, and each relationship mapping (by reference or
// nested, recursively) against the relationship and its destination.
// Invariants: the checks see the mapping as the importer will (conventions applied through
// `PlanConventions`); a name that does not resolve is reported once and its options are skipped.
import GraphStore

extension PlanCheck {
    /// Checks the mapping of `context`'s records into objects, at `path` (a source or a `nested:`).
    mutating func checkMapping(_ mapping: RecordMapping, at path: String, context: SourceContext) {
        guard let entity = model.entity(named: mapping.entity) else {
            let suggestion = PlanSuggestion.didYouMean(mapping.entity, among: model.entities.map(\.name))
            report("unknown entity '\(mapping.entity)'\(suggestion)", at: PlanKeyPath.child(path, "entity"))
            return
        }
        let concrete = PlanConventions.recordEntities(of: mapping, entity: entity, model: model)
        if let field = mapping.entityField {
            checkEntityField(
                field, of: entity, concrete: concrete, at: PlanKeyPath.child(path, "entityField"), context: context)
        } else if entity.isAbstract {
            let kinds = model.entities.filter { $0.isKind(of: entity) && !$0.isAbstract }.map(\.name)
            let choices = kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"
            report(
                "entity \(entity.name) is abstract: name one of its concrete sub-entities\(choices), "
                    + "or give entityField: a field naming each record's", at: PlanKeyPath.child(path, "entity"))
        }
        // With entityField, attributes and relationships may belong to any of the records' entities.
        let owners = mapping.entityField == nil ? [entity] : entity.kindIndices.map { model.entities[$0] }
        let attributes = PlanConventions.effectiveAttributes(of: mapping, entity: entity)
        checkKey(
            mapping.key, of: entity, mapped: attributes,
            relationships: MappingCompiler.effectiveRelationships(
                of: mapping, entity: entity, model: model, listSeparator: nil),
            at: PlanKeyPath.child(path, "key"))
        if mapping.key == nil, let (name, owner) = PlanConventions.declaredKey(of: entity, model: model),
            PlanConventions.conventionalKey(of: entity, model: model) == nil
        {
            report(
                "\(owner)'s relatedByAttribute '\(name)' is not an attribute of \(entity.name) that can identify "
                    + "objects, so records always insert: give key:, or fix the model",
                at: PlanKeyPath.child(path, "entity"),
                severity: .warning)
        }
        let attributesPath = PlanKeyPath.child(path, "attributes")
        for (name, attributeMapping) in attributes.sorted(by: { $0.key < $1.key }) {
            let attributePath = PlanKeyPath.child(attributesPath, name)
            guard let attribute = storedAttribute(name, of: owners, at: attributePath) else { continue }
            checkAttribute(attributeMapping, of: attribute, at: attributePath, context: context)
        }
        let relationshipsPath = PlanKeyPath.child(path, "relationships")
        for (name, relationshipMapping) in mapping.relationships.sorted(by: { $0.key < $1.key }) {
            let relationshipPath = PlanKeyPath.child(relationshipsPath, name)
            guard let relationship = storedRelationship(name, of: owners, at: relationshipPath) else { continue }
            checkRelationship(relationshipMapping, of: relationship, at: relationshipPath, context: context)
        }
    }

    /// `entityField` is a field of the source, and `entity` has a concrete entity for records to name.
    private mutating func checkEntityField(
        _ field: String, of entity: ModelEntity, concrete: [ModelEntity], at path: String, context: SourceContext
    ) {
        if let problem = PlanPathRules.fieldProblem(field, context: context) {
            report("field '\(field)' \(problem)", at: path)
        }
        if concrete.isEmpty {
            report(
                "entity \(entity.name) is abstract and has no concrete sub-entity: no record can name one", at: path)
        }
    }

    // MARK: - Key

    private mutating func checkKey(
        _ key: [String]?, of entity: ModelEntity, mapped: [String: AttributeMapping],
        relationships: [String: RelationshipMapping], at path: String
    ) {
        guard let key, !PlanConventions.isIdentity(key) else { return }
        if key.isEmpty {
            report("key is empty: name one or more attributes, or leave key out to always insert", at: path)
        }
        var seen = Set<String>()
        for (index, name) in key.enumerated() {
            let elementPath = elementPath(path, index, count: key.count)
            guard seen.insert(name).inserted else {
                report("'\(name)' appears twice in key", at: elementPath)
                continue
            }
            guard name != PlanConventions.identityKey else {
                report("'\(name)' is a key of its own: give key: [\(name)] without attributes", at: elementPath)
                continue
            }
            guard let attribute = entity.attribute(named: name) else {
                if let relationship = entity.relationship(named: name) {
                    checkKeyRelationship(relationship, mapping: relationships[name], at: elementPath)
                } else {
                    reportUnknown(name, kind: "attribute", of: [entity], at: elementPath, onKey: false)
                }
                continue
            }
            if let reason = Self.notUniqueable(attribute) {
                report("'\(name)' is \(reason), so it is not unique-able: it cannot be part of a key", at: elementPath)
            } else if mapped[name] == nil {
                report("key attribute '\(name)' is not mapped: add it to attributes", at: elementPath)
            }
        }
    }

    /// A to-one relationship named in a key is mapped by reference and always finds (or
    /// creates) its destination, whose key becomes part of the record's.
    private mutating func checkKeyRelationship(
        _ relationship: ModelRelationship, mapping: RelationshipMapping?, at path: String
    ) {
        let name = relationship.name
        if relationship.isToMany {
            report("'\(name)' is a to-many relationship: a key names attributes and to-one relationships", at: path)
        } else if let mapping {
            if mapping.nested != nil || PlanConventions.isIdentity(mapping.match) {
                report(
                    "key relationship '\(name)' must refer to its destination by key, not by nested records "
                        + "or \(PlanConventions.identityKey)", at: path)
            } else if mapping.missing == .ignore {
                report(
                    "key relationship '\(name)' has missing: ignore, which would leave a record without its key: "
                        + "use missing: create or reject", at: path)
            }
        } else {
            report("key relationship '\(name)' is not mapped: add it to relationships", at: path)
        }
    }

    /// Why `attribute` cannot identify objects (be a key or a match), or nil when it can.
    private static func notUniqueable(_ attribute: ModelAttribute) -> String? {
        if attribute.isTransient { return "transient" }
        switch attribute.type {
        case .binary: return "a binary attribute"
        case .transformable: return "a transformable attribute"
        default: return nil
        }
    }

    // MARK: - Names

    /// The stored attribute `name` of the first of `owners` (the mapping's entity, then with
    /// `entityField` its sub-entities) that has it, or nil after reporting why there is none.
    private mutating func storedAttribute(_ name: String, of owners: [ModelEntity], at path: String) -> ModelAttribute?
    {
        if let attribute = owners.lazy.compactMap({ $0.attribute(named: name) }).first {
            guard attribute.isTransient else { return attribute }
            reportTransient(name, at: path)
        } else if let owner = owners.first(where: { $0.relationship(named: name) != nil }) {
            report("'\(name)' is a relationship of \(owner.name): map it under relationships", at: path, onKey: true)
        } else {
            reportUnknown(name, kind: "attribute", of: owners, at: path, onKey: true)
        }
        return nil
    }

    /// The stored relationship `name` of the first of `owners` that has it, or nil after
    /// reporting why there is none.
    private mutating func storedRelationship(_ name: String, of owners: [ModelEntity], at path: String)
        -> ModelRelationship?
    {
        if let relationship = owners.lazy.compactMap({ $0.relationship(named: name) }).first {
            guard relationship.isTransient else { return relationship }
            reportTransient(name, at: path)
        } else if let owner = owners.first(where: { $0.attribute(named: name) != nil }) {
            report("'\(name)' is an attribute of \(owner.name): map it under attributes", at: path, onKey: true)
        } else {
            reportUnknown(name, kind: "relationship", of: owners, at: path, onKey: true)
        }
        return nil
    }

    private mutating func reportTransient(_ name: String, at path: String) {
        report("'\(name)' is transient: it is never stored, so it cannot be imported", at: path, onKey: true)
    }

    /// `'name' is not an attribute of Entity; did you mean 'x'?` (`… of Entity or its
    /// sub-entities` when `owners` holds several); `origin` says where the name came from.
    private mutating func reportUnknown(
        _ name: String, kind: String, of owners: [ModelEntity], origin: String = "", at path: String, onKey: Bool
    ) {
        let names = owners.flatMap { kind == "attribute" ? $0.attributes.map(\.name) : $0.relationships.map(\.name) }
        let suggestion = PlanSuggestion.didYouMean(name, among: names)
        let article = kind == "attribute" ? "an" : "a"
        let owner = (owners.first?.name ?? "") + (owners.count > 1 ? " or its sub-entities" : "")
        report("'\(name)'\(origin) is not \(article) \(kind) of \(owner)\(suggestion)", at: path, onKey: onKey)
    }

    // MARK: - Attributes

    private mutating func checkAttribute(
        _ mapping: AttributeMapping, of attribute: ModelAttribute, at path: String, context: SourceContext
    ) {
        func at(_ key: String) -> String { PlanKeyPath.child(path, key) }
        if mapping.field != nil, mapping.value != nil {
            report("give field or value, not both", at: at("value"))
        }
        if mapping.value != nil, mapping.defaultValue != nil {
            report("default has no effect with value (a constant is never missing)", at: at("default"))
        }
        if let field = mapping.field, let problem = PlanPathRules.fieldProblem(field, context: context) {
            report("field '\(field)' \(problem)", at: at("field"))
        }
        let type = "'\(attribute.name)' is \(attribute.type.rawValue)"
        if let date = mapping.dateFormat {
            if attribute.type != .date {
                report("date applies to date attributes; \(type)", at: at("date"))
            } else if date.allSatisfy(\.isWhitespace) {
                report("date must be iso8601, epoch, epoch-ms or a pattern like \"dd/MM/yyyy HH:mm\"", at: at("date"))
            }
        }
        for (key, words) in [("true", mapping.trueWords), ("false", mapping.falseWords)] where words != nil {
            if attribute.type != .boolean {
                report("\(key) applies to boolean attributes; \(type)", at: at(key))
            }
        }
        if attribute.type == .boolean, let trueWords = mapping.trueWords, let falseWords = mapping.falseWords {
            for word in trueWords where falseWords.contains(word) {
                report("'\(word)' cannot mean both true and false", at: at("false"))
            }
        }
        if let encoding = mapping.binaryEncoding {
            // A transformable's text is its codec's bytes, written like a binary value's (docs/Coercion.md).
            if attribute.type != .binary && attribute.type != .transformable {
                report("binary applies to binary and transformable attributes; \(type)", at: at("binary"))
            } else if encoding != "base64", encoding != "hex" {
                let suggestion = PlanSuggestion.didYouMean(encoding, among: ["base64", "hex"])
                report("binary must be base64 or hex, not '\(encoding)'\(suggestion)", at: at("binary"))
            }
        }
    }

    // MARK: - Relationships

    private mutating func checkRelationship(
        _ mapping: RelationshipMapping, of relationship: ModelRelationship, at path: String, context: SourceContext
    ) {
        func at(_ key: String) -> String { PlanKeyPath.child(path, key) }
        let name = relationship.name
        let fields = PlanConventions.fields(for: relationship, mapping: mapping)
        for field in fields {
            if let problem = PlanPathRules.fieldProblem(field, context: context) {
                report("field '\(field)' \(problem)", at: at("field"))
            }
        }
        if !relationship.isToMany {
            for field in fields where PlanPathRules.yieldsList(field) {
                report("field '\(field)' yields a list ([*]), but '\(name)' is a to-one", at: at("field"))
            }
            if mapping.members != .add || given(at("members")) {
                report("members applies to to-many relationships; '\(name)' is a to-one", at: at("members"))
            }
        }
        if let pattern = mapping.splitPattern {
            if mapping.split != nil {
                report("give split a separator or a pattern, not both", at: at("split"))
            } else if pattern.filter({ $0 == "*" }).count != 1 || pattern == "*" {
                report(
                    "split pattern '\(pattern)' must hold one '*' (the key) with the text around each key, "
                        + "such as '<*>' for <a><b>", at: PlanKeyPath.child(at("split"), "pattern"))
            }
        }
        if let split = mapping.split ?? mapping.splitPattern {
            if mapping.nested != nil {
                report("split has no effect with nested records", at: at("split"))
            } else if !relationship.isToMany {
                report("split applies to to-many relationships; '\(name)' is a to-one", at: at("split"))
            } else if split.isEmpty {
                report("split must not be empty", at: at("split"))
            }
        }
        if mapping.nested != nil, mapping.nullTokens != nil {
            report("null has no effect with nested records (a null field holds no record)", at: at("null"))
        }
        if let nested = mapping.nested {
            checkNested(nested.mapping, of: relationship, mapping: mapping, at: path, context: context)
        } else {
            checkMatch(mapping, of: relationship, at: path)
        }
    }

    private mutating func checkNested(
        _ nested: RecordMapping, of relationship: ModelRelationship, mapping: RelationshipMapping, at path: String,
        context: SourceContext
    ) {
        let nestedPath = PlanKeyPath.child(path, "nested")
        if mapping.match != nil {
            report(
                "match has no effect with nested: the nested mapping's key matches existing objects",
                at: PlanKeyPath.child(path, "match"))
        }
        if context.isTabular, let format = context.format {
            report(
                "nested records need a json, ndjson or xml source; a \(format.rawValue) field holds text only",
                at: nestedPath)
        }
        let destination = model.destination(of: relationship)
        if let entity = model.entity(named: nested.entity), !entity.isKind(of: destination) {
            report(
                "entity \(entity.name) is not \(destination.name) or one of its sub-entities, "
                    + "which '\(relationship.name)' holds", at: PlanKeyPath.child(nestedPath, "entity"))
        }
        checkMapping(nested, at: nestedPath, context: context)
    }

    /// The destination attributes references match: given, or from the model's conventions.
    private mutating func checkMatch(
        _ mapping: RelationshipMapping, of relationship: ModelRelationship, at path: String
    ) {
        let destination = model.destination(of: relationship)
        let matchPath = PlanKeyPath.child(path, "match")
        if mapping.missing == .create, destination.isAbstract {
            report(
                "missing: create cannot insert \(destination.name), an abstract entity: use reject or ignore",
                at: PlanKeyPath.child(path, "missing"))
        }
        if PlanConventions.isIdentity(mapping.match) { return }
        let names: [String]
        var origin = ""
        if let match = mapping.match {
            names = match
            if match.isEmpty {
                report("match is empty: name the attribute(s) of \(destination.name) the field holds", at: matchPath)
            }
        } else {
            do {
                let convention = try PlanConventions.conventionalMatch(for: relationship, model: model)
                names = convention.attributes
                origin = " (from \(convention.origin))"
            } catch {
                report(error.message, at: path)
                return
            }
        }
        for (index, name) in names.enumerated() {
            let elementPath = mapping.match == nil ? path : elementPath(matchPath, index, count: names.count)
            guard name != PlanConventions.identityKey else {
                report("'\(name)' is a match of its own: give match: \(name) without attributes", at: elementPath)
                continue
            }
            guard let attribute = destination.attribute(named: name) else {
                if let relationship = destination.relationship(named: name) {
                    checkMatchRelationship(relationship, of: destination, mapping: mapping, at: elementPath)
                } else {
                    reportUnknown(
                        name, kind: "attribute", of: [destination], origin: origin, at: elementPath, onKey: false)
                }
                continue
            }
            if let reason = Self.notUniqueable(attribute) {
                report(
                    "'\(name)'\(origin) is \(reason), so it is not unique-able: references cannot match it",
                    at: elementPath)
            }
        }
        // Stubs are checked once the match itself is sound.
        if mapping.missing == .create, !destination.isAbstract, !names.isEmpty,
            names.allSatisfy({ destination.attribute(named: $0) != nil })
        {
            checkStubs(of: destination, holding: names, at: PlanKeyPath.child(path, "missing"))
        }
    }

    /// A to-one relationship of the destination named in a match compares its own
    /// destination's key (``PlanConventions/keyMatch(for:of:sources:model:)``); such a
    /// destination cannot be created for a reference.
    private mutating func checkMatchRelationship(
        _ relationship: ModelRelationship, of destination: ModelEntity, mapping: RelationshipMapping, at path: String
    ) {
        if relationship.isToMany {
            report(
                "'\(relationship.name)' is a to-many relationship of \(destination.name): a match names attributes "
                    + "and to-one relationships", at: path)
            return
        }
        if mapping.missing == .create {
            report(
                "missing: create cannot insert a \(destination.name) matched through its relationship "
                    + "'\(relationship.name)': use missing: reject or ignore", at: path)
        }
        do {
            _ = try PlanConventions.keyMatch(
                for: relationship, of: destination, sources: plan.sources.map(\.mapping), model: model)
        } catch {
            report(error.message, at: path)
        }
    }

    /// `missing: create` inserts a destination holding just the matched attributes: every other
    /// required attribute needs a default, or each such insert would fail at run time.
    private mutating func checkStubs(of destination: ModelEntity, holding names: [String], at path: String) {
        let unfilled = destination.attributes.filter {
            !$0.isOptional && !$0.isTransient && $0.declaration.defaultValue == nil && !names.contains($0.name)
        }.map { "'\($0.name)'" }
        guard !unfilled.isEmpty else { return }
        let list = unfilled.joined(separator: ", ")
        report(
            "missing: create would insert \(destination.name) objects holding just \(names.joined(separator: ", ")), "
                + "but \(list) \(unfilled.count == 1 ? "is" : "are") required with no default value: "
                + "use missing: reject or ignore (and import \(destination.name) from a source of its own), "
                + "or give \(unfilled.count == 1 ? "it" : "them") a default in the model", at: path)
    }
}
