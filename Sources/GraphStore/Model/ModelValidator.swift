// Checks entity declarations before they become a model, collecting every problem.
// Invariant: when `validate()` returns no problems, `ModelResolver` can resolve the declarations
// without failing (names exist, inheritance is acyclic, inverses point back), and SeedKit's own
// store layout, every model's default, can store the model: no property takes its fixed column
// names, and no table or column name clashes under its naming rules (SeedKitLayout).

/// Finds the problems in a set of entity declarations.
struct ModelValidator {

    let entities: [EntityDescription]
    let templates: [FetchRequestTemplate]
    private var problems: [ModelProblem] = []
    private var byName: [String: EntityDescription] = [:]

    init(entities: [EntityDescription], templates: [FetchRequestTemplate]) {
        self.entities = entities.sorted { $0.name < $1.name }
        self.templates = templates
    }

    /// Every problem, grouped by entity in name order.
    mutating func validate() -> [ModelProblem] {
        problems = []
        checkEntityNames()
        guard problems.isEmpty else { return problems }
        checkInheritance()
        guard problems.isEmpty else { return problems }
        for entity in entities {
            checkProperties(of: entity)
        }
        checkTableNames()
        checkColumns()
        checkTemplates()
        checkFetchedProperties()
        return problems
    }

    private mutating func report(_ entity: String?, _ property: String? = nil, _ message: String) {
        problems.append(ModelProblem(entity: entity, property: property, message: message))
    }

    private mutating func checkEntityNames() {
        for entity in entities {
            if !Self.isIdentifier(entity.name) {
                report(
                    entity.name, nil, "entity name must be letters, digits and underscores, not starting with a digit")
            } else if entity.name.lowercased().hasPrefix(SeedKitLayout().reservedPrefix) {
                report(entity.name, nil, "entity names starting with seedkit_ are reserved for the store")
            }
            if byName[entity.name] != nil {
                report(entity.name, nil, "duplicate entity name")
            }
            byName[entity.name] = entity
        }
    }

    private mutating func checkInheritance() {
        for entity in entities {
            guard let parent = entity.parent else { continue }
            guard byName[parent] != nil else {
                report(entity.name, nil, "parent entity '\(parent)' does not exist")
                continue
            }
            var seen: Set<String> = [entity.name]
            var current: String? = parent
            while let name = current {
                if seen.contains(name) {
                    report(entity.name, nil, "cyclic inheritance through '\(name)'")
                    break
                }
                seen.insert(name)
                current = byName[name]?.parent
            }
        }
    }

    /// The entity and its ancestors, root first.
    private func lineage(of entity: EntityDescription) -> [EntityDescription] {
        var chain = [entity]
        while let parent = chain[0].parent, let declaration = byName[parent] {
            chain.insert(declaration, at: 0)
        }
        return chain
    }

    private func allAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        lineage(of: entity).flatMap(\.attributes)
    }

    private func allRelationships(of entity: EntityDescription) -> [RelationshipDescription] {
        lineage(of: entity).flatMap(\.relationships)
    }

    private mutating func checkProperties(of entity: EntityDescription) {
        var seen: Set<String> = []
        for name in lineage(of: entity).flatMap({ $0.attributes.map(\.name) + $0.relationships.map(\.name) }) {
            if !seen.insert(name).inserted {
                report(
                    entity.name, name,
                    "duplicate property name (properties are unique across an entity and its ancestors)")
            }
        }
        for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
            if !Self.isIdentifier(name) {
                report(
                    entity.name, name,
                    "property name must be letters, digits and underscores, not starting with a digit")
            } else if SeedKitLayout.reservedColumns.contains(name.lowercased()) {
                report(entity.name, name, "'\(name)' is reserved for the store's own columns (pk, ent, opt)")
            }
        }
        for attribute in entity.attributes {
            for message in AttributeChecks.problems(in: attribute) {
                report(entity.name, attribute.name, message)
            }
        }
        for relationship in entity.relationships {
            checkRelationship(relationship, of: entity)
        }
        checkUniqueConstraints(of: entity)
        checkIndexes(of: entity)
    }

    private mutating func checkRelationship(_ relationship: RelationshipDescription, of entity: EntityDescription) {
        let name = relationship.name
        guard let destination = byName[relationship.destination] else {
            report(entity.name, name, "destination entity '\(relationship.destination)' does not exist")
            return
        }
        if relationship.isOrdered && !relationship.isToMany {
            report(entity.name, name, "only a to-many relationship can be ordered")
        }
        if relationship.minCount < 0 || relationship.maxCount < 0 {
            report(entity.name, name, "minimum and maximum counts cannot be negative")
        } else if relationship.maxCount > 0 && relationship.minCount > relationship.maxCount {
            report(
                entity.name, name,
                "minimum count \(relationship.minCount) exceeds maximum count \(relationship.maxCount)")
        }
        guard let inverseName = relationship.inverse else { return }
        guard let inverse = allRelationships(of: destination).first(where: { $0.name == inverseName }) else {
            report(entity.name, name, "inverse '\(destination.name).\(inverseName)' does not exist")
            return
        }
        let pointsBack = lineage(of: entity).contains { $0.name == inverse.destination }
        if !pointsBack || (inverse.inverse != nil && inverse.inverse != name) {
            report(
                entity.name, name,
                "inverse '\(destination.name).\(inverseName)' does not point back to '\(entity.name).\(name)'")
        } else if inverse.inverse == nil {
            report(
                entity.name, name,
                "inverse '\(destination.name).\(inverseName)' names no inverse; both sides must name each other")
        }
        if relationship.isTransient != inverse.isTransient {
            report(entity.name, name, "a relationship and its inverse must both be transient or both stored")
        }
    }

    private mutating func checkUniqueConstraints(of entity: EntityDescription) {
        let attributes = Dictionary(
            allAttributes(of: entity).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for constraint in entity.uniqueConstraints {
            let label = "unique constraint [" + constraint.joined(separator: ", ") + "]"
            if constraint.isEmpty {
                report(entity.name, nil, "a unique constraint must name at least one attribute")
            }
            if Set(constraint).count != constraint.count {
                report(entity.name, label, "names an attribute twice")
            }
            for name in constraint {
                guard let attribute = attributes[name] else {
                    report(entity.name, label, "'\(name)' is not an attribute")
                    continue
                }
                if attribute.isTransient {
                    report(entity.name, label, "'\(name)' is transient and cannot be unique")
                }
            }
        }
    }

    private mutating func checkIndexes(of entity: EntityDescription) {
        let attributes = Dictionary(
            allAttributes(of: entity).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let toOnes = Set(allRelationships(of: entity).filter { !$0.isToMany && !$0.isTransient }.map(\.name))
        var names: Set<String> = []
        for index in entity.indexes {
            if !names.insert(index.name).inserted {
                report(entity.name, index.name, "duplicate index name")
            }
            if index.elements.isEmpty {
                report(entity.name, index.name, "an index must name at least one property")
            }
            for element in index.elements {
                if let attribute = attributes[element.property] {
                    if attribute.isTransient {
                        report(entity.name, index.name, "'\(element.property)' is transient and cannot be indexed")
                    }
                } else if !toOnes.contains(element.property) {
                    report(
                        entity.name, index.name,
                        "'\(element.property)' is not an attribute or a stored to-one relationship")
                }
            }
        }
    }

    /// Join tables are named `Entity_relationship`; none may clash with an entity's table or another join table.
    private mutating func checkTableNames() {
        var tables = Set(entities.map { $0.name.lowercased() })
        for entity in entities {
            for relationship in entity.relationships
            where SeedKitLayout.ownsJoinTable(
                relationship, entity: entity.name, inverse: inverseDeclaration(of: relationship))
            {
                let table = SeedKitLayout.joinTableName(entity: entity.name, relationship: relationship.name)
                if !tables.insert(table.lowercased()).inserted {
                    report(entity.name, relationship.name, "join table name '\(table)' clashes with another table")
                }
            }
        }
    }

    /// The inverse of `relationship` and the entity that declares it, if both exist.
    private func inverseDeclaration(
        of relationship: RelationshipDescription
    ) -> (entity: String, relationship: RelationshipDescription)? {
        guard let inverse = relationship.inverse, let destination = byName[relationship.destination] else { return nil }
        for declaring in lineage(of: destination) {
            if let found = declaring.relationships.first(where: { $0.name == inverse }) {
                return (declaring.name, found)
            }
        }
        return nil
    }

    /// Every column of a root table must have one meaning across the whole inheritance tree.
    private mutating func checkColumns() {
        for root in entities where root.parent == nil {
            var columns: [String: String] = [:]  // lowercased column name → meaning
            let tree = entities.filter { lineage(of: $0).first?.name == root.name }
            for entity in tree {
                for attribute in entity.attributes where !attribute.isTransient {
                    claim(
                        attribute.name, meaning: "attribute \(entity.name).\(attribute.name) \(attribute.type.sqlType)",
                        in: &columns, root: root.name, declaredBy: entity.name)
                }
                for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                    claim(
                        relationship.name, meaning: "to-one \(entity.name).\(relationship.name)", in: &columns,
                        root: root.name, declaredBy: entity.name)
                }
            }
            for entity in entities {
                for relationship in entity.relationships where relationship.isToMany && relationship.isOrdered {
                    guard let inverse = inverseDeclaration(of: relationship)?.relationship, !inverse.isToMany,
                        let destination = byName[relationship.destination],
                        lineage(of: destination).first?.name == root.name
                    else { continue }
                    let column = SeedKitLayout.orderColumn(forInverse: inverse.name)
                    claim(
                        column, meaning: "position of \(entity.name).\(relationship.name)", in: &columns,
                        root: root.name, declaredBy: entity.name)
                }
            }
        }
    }

    private mutating func claim(
        _ column: String, meaning: String, in columns: inout [String: String], root: String, declaredBy entity: String
    ) {
        let key = column.lowercased()
        if let existing = columns[key] {
            let sameAttributeType =
                existing.hasPrefix("attribute ") && meaning.hasPrefix("attribute ")
                && existing.split(separator: " ").last == meaning.split(separator: " ").last
            if !sameAttributeType {
                report(
                    entity, column, "column '\(column)' of table '\(root)' is used by both \(existing) and \(meaning)")
            }
        } else {
            columns[key] = meaning
        }
    }

    private mutating func checkTemplates() {
        var names: Set<String> = []
        for template in templates {
            if !names.insert(template.name).inserted {
                report(nil, nil, "duplicate fetch request template '\(template.name)'")
            }
            if byName[template.entity] == nil {
                report(nil, nil, "fetch request template '\(template.name)' names unknown entity '\(template.entity)'")
            }
        }
    }

    private mutating func checkFetchedProperties() {
        for entity in entities {
            var taken = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
            for property in entity.fetchedProperties {
                if !taken.insert(property.name).inserted {
                    report(entity.name, property.name, "fetched property clashes with another property")
                }
                if byName[property.entity] == nil {
                    report(entity.name, property.name, "fetched property names unknown entity '\(property.entity)'")
                }
            }
        }
    }

    /// Whether `name` is a non-empty ASCII identifier.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
