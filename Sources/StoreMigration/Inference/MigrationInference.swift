// Inferred (lightweight) migration: decides from the two models alone — never from data — how
// every destination entity, attribute and relationship continues the source, by the rules of
// docs/Migration.md ("Inferred rules"), and lists every change that cannot be inferred in one
// error (`Entity.property: reason`). Checks that need the data (a to-many become to-one holding
// several destinations, an entity become abstract with objects, a new unique constraint) are
// left to the run, which stops with nothing installed.
// Invariants: elements are matched only by name or renaming identifier (RenameMatcher); a
// property's problem is reported once, on the entity that declares it in the destination.
import GraphStore

/// Infers how a store of one model becomes a store of another.
///
/// ```swift
/// let mapping = try MigrationInference.infer(from: try versions.model(named: "Model"), to: try versions.model(named: "Model 2"))
/// ```
public enum MigrationInference {
    /// The inferred mapping from `source` to `destination`.
    ///
    /// - Parameters:
    ///   - source: The model the store is at.
    ///   - destination: The model to migrate it to.
    ///   - inferLosslessWidening: Infer Integer 16 → 32 → 64 and Float → Double instead of
    ///     refusing them (``MigrationOptions/inferLosslessWidening``).
    /// - Throws: ``MigrationError``: `.ambiguousRename` naming the elements, or `.notInferable`
    ///   listing every change that cannot be inferred.
    public static func infer(from source: ObjectModel, to destination: ObjectModel, inferLosslessWidening: Bool = false)
        throws(MigrationError) -> InferredMapping
    {
        var inference = Inference(source: source, destination: destination, widening: inferLosslessWidening)
        return try inference.run()
    }
}

/// One inference: the state while the two models are compared.
private struct Inference {
    let source: ObjectModel
    let destination: ObjectModel
    let widening: Bool
    var problems: [String] = []
    var ambiguities: [String] = []
    var changes: [String] = []

    init(source: ObjectModel, destination: ObjectModel, widening: Bool) {
        self.source = source
        self.destination = destination
        self.widening = widening
    }

    mutating func run() throws(MigrationError) -> InferredMapping {
        let entityMatch = RenameMatcher.match(
            destination: destination.entities.map(\.renamable), source: source.entities.map(\.renamable),
            subject: { $0 })
        ambiguities += entityMatch.ambiguities
        let origins = entityMatch.matches
        describeEntities(origins)
        checkHierarchies(origins)
        var mustBeEmpty: Set<Int> = []
        var entities: [InferredMapping.EntityOrigin] = []
        for entity in destination.entities {
            guard let origin = origins[entity.index] else {
                entities.append(added(entity))
                continue
            }
            let sourceEntity = source.entities[origin]
            if entity.isAbstract && !sourceEntity.isAbstract { mustBeEmpty.insert(origin) }
            entities.append(
                InferredMapping.EntityOrigin(
                    source: origin, attributes: attributes(of: entity, from: sourceEntity),
                    relationships: relationships(of: entity, from: sourceEntity, entityOrigins: origins)))
            describeConstraints(of: entity, from: sourceEntity)
        }
        if !ambiguities.isEmpty { throw MigrationError(.ambiguousRename(unique(ambiguities)), store: "") }
        if !problems.isEmpty { throw MigrationError(.notInferable(unique(problems)), store: "") }
        return InferredMapping(
            source: source, destination: destination, entities: entities, mustBeEmpty: mustBeEmpty,
            changes: unique(changes))
    }

    // MARK: - Entities

    private mutating func describeEntities(_ origins: [Int?]) {
        let continued = Set(origins.compactMap { $0 })
        for entity in destination.entities {
            guard let origin = origins[entity.index] else {
                changes.append("\(entity.name): entity added")
                continue
            }
            let sourceEntity = source.entities[origin]
            if sourceEntity.name != entity.name { changes.append("\(entity.name): renamed from \(sourceEntity.name)") }
            let parent = entity.parentIndex.map { destination.entities[$0].name }
            let oldParent = sourceEntity.parentIndex.flatMap { index in
                origins.firstIndex(of: index).map { destination.entities[$0].name } ?? source.entities[index].name
            }
            if parent != oldParent {
                changes.append("\(entity.name): parent \(oldParent ?? "none") → \(parent ?? "none")")
            }
            if entity.isAbstract && !sourceEntity.isAbstract {
                changes.append(
                    "\(entity.name): became abstract (the store must hold no \(sourceEntity.name) of its own)")
            }
        }
        for entity in source.entities where !continued.contains(entity.index) {
            changes.append("\(entity.name): entity removed")
        }
    }

    /// Two source hierarchies under one destination root cannot be inferred.
    private mutating func checkHierarchies(_ origins: [Int?]) {
        for root in destination.entities where root.isRoot {
            let sourceRoots = Set(
                root.kindIndices.compactMap { origins[$0] }.map { source.entities[$0].rootIndex })
            guard sourceRoots.count > 1 else { continue }
            let names = sourceRoots.map { source.entities[$0].name }.sorted()
            problems.append("\(root.name): merges the hierarchies of \(names.joined(separator: " and "))")
        }
    }

    /// A new entity: every attribute gets its default, no links; required ones are refused.
    private mutating func added(_ entity: ModelEntity) -> InferredMapping.EntityOrigin {
        InferredMapping.EntityOrigin(
            source: nil,
            attributes: entity.attributes.map { $0.isTransient ? .transient : .constant($0.declaration.defaultValue) },
            relationships: entity.relationships.map { _ in nil })
    }

    private mutating func describeConstraints(of entity: ModelEntity, from sourceEntity: ModelEntity) {
        let oldUnique = Set(sourceEntity.declaration.uniqueConstraints.map { $0.sorted() })
        for constraint in entity.declaration.uniqueConstraints where !oldUnique.contains(constraint.sorted()) {
            changes.append(
                "\(entity.name): unique constraint [\(constraint.joined(separator: ", "))] added (checked on the data)")
        }
        let oldIndexes = Set(sourceEntity.declaration.indexes)
        for index in entity.declaration.indexes where !oldIndexes.contains(index) {
            changes.append("\(entity.name): index \(index.name) added")
        }
    }

    // MARK: - Properties

    /// For each of `entity`'s properties (`destination`, attributes or relationships), the
    /// position in `stored` of the source property it continues; notes ambiguities and, as
    /// removed, each stored property nothing continues (named by its declaring entity).
    private mutating func matchProperties(
        of entity: ModelEntity, _ destination: [RenamableElement],
        stored: [(element: RenamableElement, declaringEntity: String)]
    ) -> [Int?] {
        let match = RenameMatcher.match(
            destination: destination, source: stored.map(\.element), subject: { "\(entity.name).\($0)" })
        ambiguities += match.ambiguities
        let continued = Set(match.matches.compactMap { $0 })
        for (position, property) in stored.enumerated() where !continued.contains(position) {
            changes.append("\(property.declaringEntity).\(property.element.name): removed")
        }
        return match.matches
    }

    // MARK: - Attributes

    private mutating func attributes(of entity: ModelEntity, from sourceEntity: ModelEntity)
        -> [InferredMapping.AttributeOrigin]
    {
        let stored = sourceEntity.attributes.filter { !$0.isTransient }
        let matches = matchProperties(
            of: entity, entity.attributes.map(\.renamable), stored: stored.map { ($0.renamable, $0.declaringEntity) })
        return entity.attributes.enumerated().map { slot, attribute -> InferredMapping.AttributeOrigin in
            if attribute.isTransient { return .transient }
            let place = "\(attribute.declaringEntity).\(attribute.name)"
            guard let position = matches[slot] else {
                if !attribute.isOptional && attribute.declaration.defaultValue == nil {
                    problems.append("\(place): required attribute without default")
                } else {
                    changes.append("\(place): added" + defaultText(attribute.declaration.defaultValue))
                }
                return .constant(attribute.declaration.defaultValue)
            }
            let old = stored[position]
            if old.name != attribute.name { changes.append("\(place): renamed from \(old.name)") }
            checkType(of: attribute, from: old, place: place)
            var fallback: AttributeValue?
            if !attribute.isOptional && old.isOptional {
                if let value = attribute.declaration.defaultValue {
                    fallback = value
                    changes.append("\(place): optional → required (nil becomes \(value))")
                } else {
                    problems.append("\(place): optional → required without default")
                }
            } else if attribute.isOptional && !old.isOptional {
                changes.append("\(place): required → optional")
            }
            return .source(slot: old.index, fallback: fallback)
        }
    }

    private mutating func checkType(of attribute: ModelAttribute, from old: ModelAttribute, place: String) {
        if attribute.type != old.type {
            if widening && Self.widens(old.type, to: attribute.type) {
                changes.append("\(place): \(old.type.rawValue) → \(attribute.type.rawValue) (widened, values kept)")
            } else {
                problems.append("\(place): \(old.type.rawValue) → \(attribute.type.rawValue)")
            }
        } else if attribute.type == .transformable,
            attribute.declaration.valueTransformerName != old.declaration.valueTransformerName
        {
            let before = old.declaration.valueTransformerName ?? "default"
            let after = attribute.declaration.valueTransformerName ?? "default"
            problems.append("\(place): transformer \(before) → \(after) (the stored bytes are the old codec's)")
        }
    }

    /// Whether every value of `old` is a value of `new` stored alike.
    private static func widens(_ old: AttributeType, to new: AttributeType) -> Bool {
        switch (old, new) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64), (.float, .double): true
        default: false
        }
    }

    // MARK: - Relationships

    private mutating func relationships(of entity: ModelEntity, from sourceEntity: ModelEntity, entityOrigins: [Int?])
        -> [InferredMapping.RelationshipOrigin?]
    {
        let stored = sourceEntity.relationships.filter { !$0.isTransient }
        let matches = matchProperties(
            of: entity, entity.relationships.map(\.renamable), stored: stored.map { ($0.renamable, $0.declaringEntity) }
        )
        return entity.relationships.enumerated().map { slot, relationship -> InferredMapping.RelationshipOrigin? in
            if relationship.isTransient { return nil }
            let place = "\(relationship.declaringEntity).\(relationship.name)"
            let declaration = relationship.declaration
            guard let position = matches[slot] else {
                let required = declaration.isToMany ? declaration.minCount > 0 : !declaration.isOptional
                if required {
                    problems.append("\(place): required relationship added (no data to fill it)")
                } else {
                    changes.append("\(place): added")
                }
                return nil
            }
            let old = stored[position]
            let target = destination.destination(of: relationship)
            let oldTarget = source.destination(of: old)
            guard entityOrigins[target.index] == oldTarget.index else {
                problems.append("\(place): destination \(oldTarget.name) → \(target.name)")
                return nil
            }
            if old.name != relationship.name { changes.append("\(place): renamed from \(old.name)") }
            describeShape(of: relationship, from: old, place: place)
            let inverse = destination.inverse(of: relationship)
            return InferredMapping.RelationshipOrigin(
                slot: old.index, keepsOrder: relationship.isOrdered && old.isOrdered,
                ownerToOne: !relationship.isToMany,
                memberToOne: inverse.map { !$0.isToMany } ?? false)
        }
    }

    private mutating func describeShape(of relationship: ModelRelationship, from old: ModelRelationship, place: String)
    {
        if old.isToMany != relationship.isToMany {
            changes.append(
                relationship.isToMany
                    ? "\(place): to-one → to-many" : "\(place): to-many → to-one (checked on the data)")
        }
        if old.isToMany && relationship.isToMany && old.isOrdered != relationship.isOrdered {
            changes.append(
                relationship.isOrdered
                    ? "\(place): unordered → ordered (by key)" : "\(place): ordered → unordered")
        }
        let inverse = destination.inverse(of: relationship)?.name
        let oldInverse = source.inverse(of: old)?.name
        if (inverse == nil) != (oldInverse == nil) {
            changes.append(inverse == nil ? "\(place): inverse removed" : "\(place): inverse \(inverse ?? "") added")
        }
    }

    // MARK: - Text

    private func defaultText(_ value: AttributeValue?) -> String {
        value.map { " (default \($0))" } ?? ""
    }

    /// `lines` without repeats, in first-seen order.
    private func unique(_ lines: [String]) -> [String] {
        var seen: Set<String> = []
        return lines.filter { seen.insert($0).inserted }
    }
}
