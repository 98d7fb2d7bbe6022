// What a copy does per entity, worked out from both models before anything is written: which
// entities are copied (those asked for, and those relationships that bring their destinations
// along can reach), by which key they match, which attributes carry over, and which side of
// each relationship pair is copied (unless its link is cut).
// The two stores may be laid out differently (StoreLayout): entities correspond by name, and
// each side's tables, columns and entity numbers come from its own layout.
// Invariant: a type, table or storage mismatch between the models is an error here, before the
// copy writes anything.
import GraphStore

/// The compatibility check and per-entity decisions of a copy.
struct CopyPlan {
    /// How the source store is laid out.
    let sourceLayout: StoreLayout
    /// How the target store is laid out.
    let targetLayout: StoreLayout
    /// Root entities of the source whose tables hold objects asked for.
    let roots: [ModelEntity]
    /// Properties the target lacks, reported but skipped.
    let warnings: [String]
    /// Which links are cut and which relationships bring their destinations along.
    let relationshipChoices: RelationshipChoices
    /// Whether every object and every link is asked for, from a store laid out as the target is
    /// (the same layout and model): into empty tables, rows then move as they are.
    let copiesEverythingAsLaidOut: Bool
    private let selected: Set<String>
    /// The entities asked for and those the relationships bringing their destinations along reach.
    private let candidates: Set<String>
    private let predicates: [String: FetchPredicate]
    private let keys: [String: [String]]
    private let attributeNames: [String: [String]]

    init(source sourceLayout: StoreLayout, target targetLayout: StoreLayout, options: DeepCopyOptions) throws {
        self.sourceLayout = sourceLayout
        self.targetLayout = targetLayout
        let (source, target) = (sourceLayout.model, targetLayout.model)
        var selected = Set<String>()
        for name in options.entities ?? source.entities.map(\.name) {
            guard let entity = source.entity(named: name) else {
                throw DeepCopyError("the source has no entity \(name)")
            }
            for index in entity.kindIndices { selected.insert(source.entities[index].name) }
        }
        self.selected = selected
        relationshipChoices = try RelationshipChoices(options.relationships, in: source)
        let candidates = relationshipChoices.reach(from: selected, in: source)
        self.candidates = candidates
        for name in options.predicates.keys where source.entity(named: name) == nil {
            throw DeepCopyError("--where names \(name), which the source does not have")
        }
        for (name, key) in options.keys.sorted(by: { $0.key < $1.key }) {
            guard source.entity(named: name) != nil else {
                throw DeepCopyError("--key names \(name), which the source does not have")
            }
            guard !key.isEmpty else { throw DeepCopyError("\(name): the key given for the copy names no attribute") }
        }
        self.predicates = options.predicates
        copiesEverythingAsLaidOut =
            options.entities == nil && options.predicates.isEmpty && !relationshipChoices.cutsAnything
            && sourceLayout.isSame(as: targetLayout)
        var warnings: [String] = []
        var problems: [String] = []
        var keys: [String: [String]] = [:]
        var attributeNames: [String: [String]] = [:]
        for name in candidates.sorted() {
            guard let entity = source.entity(named: name), !entity.isAbstract else { continue }
            guard let copy = target.entity(named: name), !copy.isAbstract else {
                warnings.append("\(name): the target has no such entity; its objects are skipped")
                continue
            }
            let (sourceRoot, targetRoot) = (source.root(of: entity).name, target.root(of: copy).name)
            if sourceRoot != targetRoot {
                problems.append(
                    "\(name) is stored with \(sourceRoot)'s objects in the source but with \(targetRoot)'s in the target"
                )
            }
            var names: [String] = []
            for attribute in entity.attributes where !attribute.isTransient {
                guard let other = copy.attribute(named: attribute.name), !other.isTransient else {
                    warnings.append("\(name).\(attribute.name): the target has no such attribute; skipped")
                    continue
                }
                if other.type != attribute.type {
                    problems.append(
                        "\(name).\(attribute.name) is \(attribute.type.rawValue) in the source but \(other.type.rawValue) in the target"
                    )
                }
                names.append(attribute.name)
            }
            for attribute in copy.attributes
            where !attribute.isTransient && !attribute.isOptional && attribute.declaration.defaultValue == nil
                && !names.contains(attribute.name)
            {
                problems.append("\(name).\(attribute.name) is required in the target, which has no value for it")
            }
            attributeNames[name] = names
            let key = options.keys[name] ?? entity.uniqueConstraints.first
            if let key {
                guard key.allSatisfy({ names.contains($0) }) else {
                    throw DeepCopyError(
                        "\(name): the key [\(key.joined(separator: ", "))] is not an attribute in both models")
                }
                keys[name] = key
            }
            for relationship in entity.relationships where !relationship.isTransient {
                let destination = source.destination(of: relationship).name
                if let other = copy.relationship(named: relationship.name) {
                    if target.destination(of: other).name != destination || other.isToMany != relationship.isToMany {
                        problems.append(
                            "\(name).\(relationship.name) points at a different destination or cardinality in the target"
                        )
                    } else if targetLayout.storage(of: other).shape != sourceLayout.storage(of: relationship).shape {
                        problems.append(
                            "\(name).\(relationship.name) is stored differently in the target (its order or inverse differ)"
                        )
                    }
                } else {
                    warnings.append("\(name).\(relationship.name): the target has no such relationship; skipped")
                }
            }
        }
        guard problems.isEmpty else { throw DeepCopyError("incompatible models: " + problems.joined(separator: "; ")) }
        self.warnings = warnings
        self.keys = keys
        self.attributeNames = attributeNames
        roots = source.entities.filter { root in
            root.isRoot && root.kindIndices.contains { candidates.contains(source.entities[$0].name) }
        }
    }

    /// The source's model.
    var source: ObjectModel { sourceLayout.model }
    /// The target's model.
    var target: ObjectModel { targetLayout.model }

    /// Whether objects of `entity` were asked for.
    func isSelected(_ entity: ModelEntity) -> Bool { selected.contains(entity.name) }

    /// Whether objects of `entity` are copied (asked for or reached by a relationship that
    /// brings its destinations along, and the target has the entity).
    func copies(_ entity: ModelEntity) -> Bool { attributeNames[entity.name] != nil }

    /// The source entities of `root`'s table whose objects are copied, in the source's entity-number order.
    func copiedEntities(in root: ModelEntity) -> [ModelEntity] {
        sourceLayout.kindNumbers(of: root).compactMap(sourceLayout.entity(number:)).filter(copies)
    }

    /// The source entity with the source's entity number `number`, if there is one.
    func sourceEntity(number: Int64) -> ModelEntity? {
        sourceLayout.entity(number: number)
    }

    /// The target's entity for the source's `entity`.
    func targetEntity(for entity: ModelEntity) -> ModelEntity? { target.entity(named: entity.name) }

    /// The target's relationship for the source's `relationship` (the same name on the target's
    /// entity of the declaring entity's name).
    func targetRelationship(for relationship: ModelRelationship) -> ModelRelationship? {
        target.entity(named: relationship.declaringEntity)?.relationship(named: relationship.name)
    }

    /// Whether a predicate applies to objects of `entity` (given for it or an ancestor).
    func isFiltered(_ entity: ModelEntity) -> Bool {
        var current: ModelEntity? = entity
        while let entity = current {
            if predicates[entity.name] != nil { return true }
            current = entity.parentIndex.map { source.entities[$0] }
        }
        return false
    }

    /// Whether `object` passes the predicates given for its entity and its ancestors.
    func admits(_ object: ManagedObject) throws -> Bool {
        var current: ModelEntity? = object.entity
        while let entity = current {
            if let predicate = predicates[entity.name], try !PredicateEvaluator.evaluate(predicate, on: object) {
                return false
            }
            current = entity.parentIndex.map { source.entities[$0] }
        }
        return true
    }

    /// The key matching `entity`'s objects, if it has one.
    func key(of entity: String) -> [String]? { keys[entity] }

    /// Whether no two source objects of `entity` share a value of its key (a unique constraint
    /// covers it; keys holding a nil never match anything, so they never collide).
    func keyIsUnique(_ entity: ModelEntity) -> Bool {
        guard let key = keys[entity.name] else { return true }
        return entity.uniqueConstraints.contains { Set($0).isSubset(of: key) }
    }

    /// The attributes copied for `entity`.
    func attributes(of entity: String) -> [String] { attributeNames[entity] ?? [] }

    /// The target entity to search for matches: the highest ancestor that still has every key
    /// attribute, so a key shared across sub-entities matches whatever concrete entity holds it.
    func lookupEntity(of entity: String) -> ModelEntity? {
        guard var current = target.entity(named: entity) else { return nil }
        let key = keys[entity] ?? []
        while let parentIndex = current.parentIndex,
            key.allSatisfy({ target.entities[parentIndex].attribute(named: $0) != nil })
        {
            current = target.entities[parentIndex]
        }
        return current
    }

    /// Whether links of `relationship` are written from its side: one side of each pair — the
    /// ordered side, else the to-one side, else the first by name — when both ends are copied
    /// and the link is not cut.
    func follows(_ relationship: ModelRelationship) -> Bool {
        guard !relationship.isTransient, copiedDestination(relationship) else { return false }
        guard !relationshipChoices.cuts(relationship, inverse: source.inverse(of: relationship)) else { return false }
        guard let owner = target.entity(named: relationship.declaringEntity),
            owner.relationship(named: relationship.name) != nil
        else { return false }
        guard let inverse = source.inverse(of: relationship) else { return true }
        if relationship.isOrdered { return true }
        if inverse.isOrdered { return false }
        if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
        return (relationship.declaringEntity, relationship.name) < (inverse.declaringEntity, inverse.name)
    }

    private func copiedDestination(_ relationship: ModelRelationship) -> Bool {
        source.destination(of: relationship).kindIndices.contains { candidates.contains(source.entities[$0].name) }
    }
}
