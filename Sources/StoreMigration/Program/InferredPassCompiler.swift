// Compiles an inferred mapping (one step, or consecutive steps composed) into a pass: every row
// keeps its key and row version, its entity number is remapped, each attribute column takes its
// origin's column (converted when the layouts store the type differently; a nil that must
// become a default is coalesced), and each relationship pair is either copied as it is stored
// (its to-one columns, positions and join table read straight from the source, when the source
// keeps it alike and nothing needs checking) or gathered as links, checked and written in the
// new storage (LinkPlan).
// Invariants: a source row becomes at most one new row, with its own key, so no identity table
// is needed; links to objects that are not migrated (a removed entity, a sub-entity that left
// the relationship's destination hierarchy) are dropped.
import GraphStore

/// Compiles an inferred mapping into a pass.
struct InferredPassCompiler {
    let mapping: InferredMapping
    let source: StoreLayout
    let destination: StoreLayout
    /// Whether to-manys that became to-one keep their first destination (MigrationOptions.truncateToMany).
    let truncateToMany: Bool

    /// For each concrete source entity whose rows are migrated (by index): its destination entity.
    private let destinationOf: [Int: ModelEntity]

    init(mapping: InferredMapping, source: StoreLayout, destination: StoreLayout, truncateToMany: Bool) {
        self.mapping = mapping
        self.source = source
        self.destination = destination
        self.truncateToMany = truncateToMany
        var destinationOf: [Int: ModelEntity] = [:]
        for entity in destination.model.entities where !entity.isAbstract {
            guard let origin = mapping.entities[entity.index].source, !source.model.entities[origin].isAbstract else {
                continue
            }
            destinationOf[origin] = entity
        }
        self.destinationOf = destinationOf
    }

    private var sourceModel: ObjectModel { source.model }
    private var destinationModel: ObjectModel { destination.model }

    func compile() -> PassProgram {
        var groups = rowGroups()
        var program = PassProgram(
            source: source, destination: destination, rowGroups: [], identityTables: [], joinCopies: [],
            linkPlans: [], dataLoss: [], sourceChecks: [], destinationChecks: [], validatedAttributes: [],
            droppedEntities: [], warnings: [], keepsEveryRow: false)
        for pair in RelationshipPairs(model: destinationModel).pairs {
            compileLinks(of: pair, groups: &groups, program: &program)
        }
        program.rowGroups = groups
        program.droppedEntities = sourceModel.entities.filter { !$0.isAbstract && destinationOf[$0.index] == nil }
        program.dataLoss = droppedData(program.droppedEntities)
        program.sourceChecks = mapping.mustBeEmpty.sorted().map { index in
            let entity = sourceModel.entities[index]
            return RowCheck(
                rule: .abstractHasInstances, subject: entity.name,
                sql:
                    "SELECT count(*), min(\(source.keyColumn)) FROM src.\(SQLiteIdentifier.quote(source.table(of: entity)))"
                    + " WHERE \(source.entityColumn) = \(source.number(of: entity))")
        }
        program.keepsEveryRow = mapping.keepsEveryValue && program.linkPlans.isEmpty
        return program
    }

    // MARK: - Rows

    /// One group per (source root, destination root) pair, each member with its attribute values.
    private func rowGroups() -> [RowGroup] {
        var groups: [RowGroup] = []
        for destinationRoot in destinationModel.entities where destinationRoot.isRoot {
            for sourceRoot in sourceModel.entities where sourceRoot.isRoot {
                let members = sourceRoot.kindIndices.compactMap { index -> RowMember? in
                    guard let target = destinationOf[index], target.rootIndex == destinationRoot.index else {
                        return nil
                    }
                    let entity = sourceModel.entities[index]
                    return RowMember(
                        sourceEntity: entity, destinationEntity: target, values: attributeValues(entity, target))
                }
                guard !members.isEmpty else { continue }
                groups.append(
                    RowGroup(
                        sourceRoot: sourceRoot, destinationRoot: destinationRoot, members: members,
                        identity: .sourceKeys(
                            table: source.table(of: sourceRoot),
                            numbers: members.map { source.number(of: $0.sourceEntity) }),
                        keepsVersion: true, mapping: nil))
            }
        }
        return groups
    }

    private func attributeValues(_ entity: ModelEntity, _ target: ModelEntity) -> [String: ColumnValue] {
        var values: [String: ColumnValue] = [:]
        for attribute in target.attributes where !attribute.isTransient {
            let column = destination.column(of: attribute)
            switch mapping.entities[target.index].attributes[attribute.index] {
            case .source(let slot, let fallback):
                let old = entity.attributes[slot]
                let value = destination.values.sqlExpression(
                    converting: "s.\(SQLiteIdentifier.quote(source.column(of: old)))", type: old.type,
                    from: source.values)
                values[column] = fallback.map { .coalesced(value, $0) } ?? .sql(value)
            case .constant(let value?):
                values[column] = .constant(value)
            case .constant(nil), .transient:
                continue
            }
        }
        return values
    }

    // MARK: - Links

    /// Where one relationship of the pair comes from, for the owners that have it.
    private struct SideOrigins {
        /// The destination relationship.
        let relationship: ModelRelationship
        /// Per source relationship (by `Entity.name` of its declaration): the relationship, the
        /// source entities whose rows own links through it, and the composed flags.
        var origins:
            [String: (
                relationship: ModelRelationship, owners: [ModelEntity], origin: InferredMapping.RelationshipOrigin
            )] = [:]

        var only: (relationship: ModelRelationship, owners: [ModelEntity], origin: InferredMapping.RelationshipOrigin)?
        {
            origins.count == 1 ? origins.first?.value : nil
        }
    }

    private func origins(of relationship: ModelRelationship) -> SideOrigins {
        var side = SideOrigins(relationship: relationship)
        for (sourceIndex, target) in destinationOf.sorted(by: { $0.key < $1.key }) {
            guard let declaring = destinationModel.entity(named: relationship.declaringEntity),
                target.isKind(of: declaring),
                let origin = mapping.entities[target.index].relationships[relationship.index]
            else { continue }
            let entity = sourceModel.entities[sourceIndex]
            let old = entity.relationships[origin.slot]
            let name = "\(old.declaringEntity).\(old.name)"
            let previous = side.origins[name]
            var merged = origin
            if let previous {
                merged.keepsOrder = merged.keepsOrder && previous.origin.keepsOrder
                merged.ownerToOne = merged.ownerToOne || previous.origin.ownerToOne
                merged.memberToOne = merged.memberToOne || previous.origin.memberToOne
            }
            side.origins[name] = (old, (previous?.owners ?? []) + [entity], merged)
        }
        return side
    }

    private func compileLinks(of pair: RelationshipPair, groups: inout [RowGroup], program: inout PassProgram) {
        let primary = origins(of: pair.primary)
        let inverse = pair.inverse.map(origins(of:))
        if primary.origins.isEmpty && (inverse?.origins.isEmpty ?? true) { return }
        let ownerSide =
            !pair.primary.isToMany || primary.origins.values.contains { $0.origin.ownerToOne }
            || (inverse?.origins.values.contains { $0.origin.memberToOne } ?? false)
        let memberSide =
            !(pair.inverse?.isToMany ?? true) || primary.origins.values.contains { $0.origin.memberToOne }
            || (inverse?.origins.values.contains { $0.origin.ownerToOne } ?? false)
        if let direct = directCopy(
            pair, primary: primary, inverse: inverse, ownerSide: ownerSide, memberSide: memberSide)
        {
            for side in [primary] + (inverse.map { [$0] } ?? []) {
                writeColumnsDirectly(side, groups: &groups)
            }
            if let join = direct { program.joinCopies.append(join) }
            return
        }
        program.linkPlans.append(
            LinkPlan(
                primary: pair.primary, inverse: pair.inverse, subject: pair.subject,
                contributions: contributions(primary, alongPrimary: true)
                    + (inverse.map { contributions($0, alongPrimary: false) } ?? []),
                ownerSide: ownerSide ? sideRule(primary, subject: pair.subject) : nil,
                memberSide: memberSide
                    ? inverse.map { sideRule($0, subject: pair.inverseSubject ?? pair.subject) }
                        ?? SideRule(rule: .inverseConflict, subject: pair.subject, truncatable: false)
                    : nil,
                policyNames: (pair.subject, pair.inverseSubject)))
    }

    /// A to-one side that may overflow: a to-many that became to-one may be truncated; anything
    /// else (an inverse that became to-one, links from both sides) is a conflict.
    private func sideRule(_ side: SideOrigins, subject: String) -> SideRule {
        let fromToMany = !side.relationship.isToMany && side.origins.values.contains { $0.relationship.isToMany }
        return fromToMany
            ? SideRule(rule: .toOneOverflow, subject: subject, truncatable: truncateToMany)
            : SideRule(rule: .inverseConflict, subject: subject, truncatable: false)
    }

    /// When the pair can be copied as the source stores it: nil when it cannot; else the join
    /// table copy it needs (itself nil for a pair kept in columns).
    private func directCopy(
        _ pair: RelationshipPair, primary: SideOrigins, inverse: SideOrigins?, ownerSide: Bool, memberSide: Bool
    ) -> JoinCopy?? {
        guard let first = primary.only else { return nil }
        let sourceInverse = sourceModel.inverse(of: first.relationship)
        if let inverse, let relationship = pair.inverse {
            if let second = inverse.only {
                guard let sourceInverse, second.relationship == sourceInverse,
                    destination.storage(of: relationship).shape == source.storage(of: sourceInverse).shape,
                    !relationship.isOrdered || second.origin.keepsOrder
                else { return nil }
            } else {
                guard inverse.origins.isEmpty, sourceInverse == nil,
                    destination.storage(of: relationship).shape == .inverseForeignKey(ordered: false)
                else { return nil }
            }
        }
        guard destination.storage(of: pair.primary).shape == source.storage(of: first.relationship).shape,
            !pair.primary.isOrdered || first.origin.keepsOrder,
            !ownerSide || !first.relationship.isToMany,
            !memberSide || !(sourceInverse?.isToMany ?? true)
        else { return nil }
        guard case .joinTable(let table, let owner, let member, let order) = destination.storage(of: pair.primary),
            case .joinTable(let sourceTable, let sourceOwner, let sourceMember, let sourceOrder) = source.storage(
                of: first.relationship)
        else { return .some(nil) }
        var columns = [(owner, sourceOwner), (member, sourceMember)]
        if let order, let sourceOrder { columns.append((order, sourceOrder)) }
        if let relationship = pair.inverse, let sourceInverse,
            case .joinTable(_, _, _, let inverseOrder?) = destination.storage(of: relationship),
            case .joinTable(_, _, _, let sourceInverseOrder?) = source.storage(of: sourceInverse)
        {
            columns.append((inverseOrder, sourceInverseOrder))
        }
        var conditions: [String] = []
        if let owners = narrowed(first.owners, within: first.relationship.declaringEntity) {
            conditions.append(exists("j.\(SQLiteIdentifier.quote(sourceOwner))", among: owners))
        }
        if let members = validMembers(of: first.relationship, as: pair.primary) {
            conditions.append(exists("j.\(SQLiteIdentifier.quote(sourceMember))", among: members))
        }
        return .some(
            JoinCopy(
                table: table, sourceTable: sourceTable, columns: columns.map { ($0.0, $0.1) }, conditions: conditions,
                subject: pair.subject))
    }

    /// Writes the to-one columns (with companions) and position columns of one side of a pair
    /// copied as it is stored, into the row groups' values.
    private func writeColumnsDirectly(_ side: SideOrigins, groups: inout [RowGroup]) {
        guard let only = side.only else { return }
        let quote = SQLiteIdentifier.quote
        let relationship = side.relationship
        switch (destination.storage(of: relationship), source.storage(of: only.relationship)) {
        case (.foreignKey(let column), .foreignKey(let sourceColumn)):
            let value = "s.\(quote(sourceColumn))"
            let target = sourceModel.destination(of: only.relationship)
            let kept = validMembers(of: only.relationship, as: relationship)
            let checked = kept.map {
                "CASE WHEN \(entityNumber(of: value, in: target)) IN (\(StoreLayout.list($0))) THEN \(value) END"
            }
            let companion = destination.companionColumn(of: relationship).map {
                ($0, destinationNumber(of: value, in: target))
            }
            set(on: only.owners, columns: [(column, checked ?? value)] + (companion.map { [$0] } ?? []), in: &groups)
        case (.inverseForeignKey(_, let order?), .inverseForeignKey(let sourceColumn, let sourceOrder?)):
            let owner = "s.\(quote(sourceColumn))"
            let value = "s.\(quote(sourceOrder))"
            let owners = narrowed(only.owners, within: only.relationship.declaringEntity)
            let checked = owners.map {
                "CASE WHEN \(entityNumber(of: owner, in: sourceModel.entities[only.owners[0].rootIndex])) IN (\(StoreLayout.list($0))) THEN \(value) END"
            }
            let members = sourceModel.destination(of: only.relationship).kindIndices.map { sourceModel.entities[$0] }
            set(on: members, columns: [(order, checked ?? value)], in: &groups)
        default:
            return
        }
    }

    /// Sets `columns` in the values of the row-group members reading `entities`.
    private func set(on entities: [ModelEntity], columns: [(String, String)], in groups: inout [RowGroup]) {
        let wanted = Set(entities.map(\.index))
        for group in groups.indices {
            for member in groups[group].members.indices
            where wanted.contains(groups[group].members[member].sourceEntity.index) {
                for (column, value) in columns { groups[group].members[member].values[column] = .sql(value) }
            }
        }
    }

    /// The statements gathering one side's links into the pair's link table.
    private func contributions(_ side: SideOrigins, alongPrimary: Bool) -> [String] {
        let pairs = SourcePairs(layout: source)
        return side.origins.keys.sorted().compactMap { name in
            guard let entry = side.origins[name], let sql = pairs.sql(entry.relationship) else { return nil }
            let ownerRoot = sourceModel.entities[entry.owners[0].rootIndex]
            let owners = RowIdentity.sourceKeys(
                table: source.table(of: ownerRoot), numbers: entry.owners.map(source.number(of:)))
            let target = sourceModel.destination(of: entry.relationship)
            let members = RowIdentity.sourceKeys(
                table: source.table(of: sourceModel.entities[target.rootIndex]),
                numbers: validMembers(of: entry.relationship, as: side.relationship)
                    ?? target.kindIndices.map { source.number(of: sourceModel.entities[$0]) })
            let (ownerJoin, ownerKey) = owners.join("p.o", alias: "ow", source: source)
            let (memberJoin, memberKey) = members.join("p.m", alias: "mw", source: source)
            let ord = entry.origin.keepsOrder ? "p.ord" : "NULL"
            let iord = "p.iord"
            let (owner, member, first, second) =
                alongPrimary ? (ownerKey, memberKey, ord, iord) : (memberKey, ownerKey, iord, ord)
            return
                "INSERT OR IGNORE INTO temp.?L(owner, member, ord, iord) SELECT \(owner), \(member), \(first), \(second)"
                + " FROM (\(sql)) AS p \(ownerJoin) \(memberJoin)"
        }
    }

    // MARK: - Which objects a link may join

    /// The source entity numbers whose rows may be members of `relationship` (destination) when
    /// read through `old` (source): migrated, and into the relationship's destination hierarchy;
    /// nil when every concrete kind of `old`'s destination qualifies.
    private func validMembers(of old: ModelRelationship, as relationship: ModelRelationship) -> [Int64]? {
        let target = destinationModel.destination(of: relationship)
        let kinds = sourceModel.destination(of: old).kindIndices.map { sourceModel.entities[$0] }.filter {
            !$0.isAbstract
        }
        let valid = kinds.filter { destinationOf[$0.index]?.isKind(of: target) ?? false }
        return valid.count == kinds.count ? nil : valid.map(source.number(of:))
    }

    /// The numbers of `owners` when they are not every concrete kind of `declaring`; nil otherwise.
    private func narrowed(_ owners: [ModelEntity], within declaring: String) -> [Int64]? {
        guard let entity = sourceModel.entity(named: declaring) else { return nil }
        let kinds = entity.kindIndices.map { sourceModel.entities[$0] }.filter { !$0.isAbstract }
        return Set(owners.map(\.index)) == Set(kinds.map(\.index)) ? nil : owners.map(source.number(of:))
    }

    /// SQL: the source entity number of the row whose key is `key`, in the table of `entity`.
    private func entityNumber(of key: String, in entity: ModelEntity) -> String {
        "(SELECT k.\(source.entityColumn) FROM src.\(SQLiteIdentifier.quote(source.table(of: entity))) AS k"
            + " WHERE k.\(source.keyColumn) = \(key))"
    }

    /// SQL: the new entity number of the row whose source key is `key`, in the table of `entity`.
    private func destinationNumber(of key: String, in entity: ModelEntity) -> String {
        let cases = entity.kindIndices.compactMap { index -> String? in
            guard let target = destinationOf[index] else { return nil }
            return "WHEN \(source.number(of: sourceModel.entities[index])) THEN \(destination.number(of: target))"
        }
        return "(SELECT CASE k.\(source.entityColumn) \(cases.joined(separator: " ")) END"
            + " FROM src.\(SQLiteIdentifier.quote(source.table(of: entity))) AS k WHERE k.\(source.keyColumn) = \(key))"
    }

    /// SQL: whether the source row `key` is one of `numbers` in its root table.
    private func exists(_ key: String, among numbers: [Int64]) -> String {
        let root = sourceModel.entities.first { source.kindNumbers(of: $0).contains(numbers[0]) && $0.isRoot }
        let table = SQLiteIdentifier.quote(root.map(source.table(of:)) ?? "")
        return "EXISTS (SELECT 1 FROM src.\(table) AS e WHERE e.\(source.keyColumn) = \(key)"
            + " AND e.\(source.entityColumn) IN (\(StoreLayout.list(numbers))))"
    }

    // MARK: - Data dropped

    /// Counts of the values, objects and links the mapping drops.
    private func droppedData(_ entities: [ModelEntity]) -> [DataLossProbe] {
        let quote = SQLiteIdentifier.quote
        var probes = entities.map { entity in
            DataLossProbe(
                subject: entity.name, unit: "objects",
                sql:
                    "SELECT count(*) FROM src.\(quote(source.table(of: entity))) WHERE \(source.entityColumn) = \(source.number(of: entity))"
            )
        }
        var unread: [String: (attribute: ModelAttribute, numbers: [Int64], table: String)] = [:]
        var readRelationships: Set<String> = []
        for (sourceIndex, target) in destinationOf.sorted(by: { $0.key < $1.key }) {
            let entity = sourceModel.entities[sourceIndex]
            let origin = mapping.entities[target.index]
            let read = Set(
                origin.attributes.compactMap { origin -> Int? in
                    if case .source(let slot, _) = origin { return slot }
                    return nil
                })
            for attribute in entity.attributes where !attribute.isTransient && !read.contains(attribute.index) {
                let name = "\(attribute.declaringEntity).\(attribute.name)"
                unread[name, default: (attribute, [], source.table(of: entity))].numbers.append(
                    source.number(of: entity))
            }
            for origin in origin.relationships.compactMap({ $0 }) {
                let old = entity.relationships[origin.slot]
                readRelationships.insert("\(old.declaringEntity).\(old.name)")
                if let inverse = sourceModel.inverse(of: old) {
                    readRelationships.insert("\(inverse.declaringEntity).\(inverse.name)")
                }
            }
        }
        for (name, entry) in unread.sorted(by: { $0.key < $1.key }) {
            probes.append(
                DataLossProbe(
                    subject: name, unit: "values",
                    sql: "SELECT count(\(quote(source.column(of: entry.attribute)))) FROM src.\(quote(entry.table))"
                        + " WHERE \(source.entityColumn) IN (\(StoreLayout.list(entry.numbers)))"))
        }
        for (pair, sql) in SourcePairs(layout: source).unread(by: readRelationships) {
            let owners = kept(source.model.entity(named: pair.primary.declaringEntity))
            let members = kept(sourceModel.destination(of: pair.primary))
            guard !owners.isEmpty, !members.isEmpty else { continue }
            probes.append(
                DataLossProbe(
                    subject: pair.subject, unit: "links",
                    sql:
                        "SELECT count(*) FROM (\(sql)) AS p WHERE \(exists("p.o", among: owners)) AND \(exists("p.m", among: members))"
                ))
        }
        return probes
    }

    /// The numbers of the migrated concrete kinds of `entity`.
    private func kept(_ entity: ModelEntity?) -> [Int64] {
        guard let entity else { return [] }
        return entity.kindIndices.filter { destinationOf[$0] != nil }.map {
            source.number(of: sourceModel.entities[$0])
        }
    }
}
