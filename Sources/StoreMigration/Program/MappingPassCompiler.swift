// Compiles an Xcode mapping model into a pass (docs/Migration.md, "Mapping models"): each entity
// mapping reads exactly its source entity's rows (not its sub-entities'), through an identity
// table (source keys kept when the mapping is the only reader of its source table into its
// destination table, else fresh keys), its attribute values from MappingValues; each
// relationship mapping contributes links — `destinationInstancesForEntityMappingNamed` through
// the named mapping, `destinationInstancesForSourceRelationshipNamed` and blank mappings through
// the mapping of each source object's own entity — to its pair's link plan, where links given from
// both sides are one set and a to-one given two destinations is an error. Source entities no
// mapping reads are dropped (counted); policies are looked up by class name. Every problem is
// found before anything is written: mappings that do not fit the models, expressions SeedKit
// cannot run, policies neither registered nor skipped — each listed with file, mapping and property.
// Invariants: the same mapping model and models give the same program; mappings run in editor order.
import GraphStore
import ModelFiles

/// Compiles a mapping model into a pass.
struct MappingPassCompiler {
    let mapping: MappingModel
    /// The mapping model's file, for messages and reports.
    let file: String
    let source: StoreLayout
    let destination: StoreLayout
    let policies: MigrationPolicies
    /// Policy class names to run without.
    let skipped: Set<String>

    private var sourceModel: ObjectModel { source.model }
    private var destinationModel: ObjectModel { destination.model }

    /// The selectors of the functions that find the destination objects of source objects.
    private static let byMapping = "destinationInstancesForEntityMappingNamed:sourceInstances:"
    private static let byRelationship = "destinationInstancesForSourceRelationshipNamed:sourceInstances:"

    /// One entity mapping, resolved against the models.
    private struct Resolved {
        let index: Int
        let mapping: EntityMapping
        let sourceEntity: ModelEntity?
        let destinationEntity: ModelEntity?
        let identity: String
    }

    /// Problems found so far, by kind.
    private struct Problems {
        var invalid: [String] = []
        var unsupported: [String] = []
        var unregistered: [String] = []
    }

    func compile() throws -> (program: PassProgram, uses: [Int: PolicyUse]) {
        var problems = Problems()
        var warnings: [String] = []
        let resolved = resolve(&problems)
        var program = PassProgram(
            source: source, destination: destination, rowGroups: [], identityTables: identityTables(resolved),
            joinCopies: [], linkPlans: [], dataLoss: [], sourceChecks: [], destinationChecks: [],
            validatedAttributes: [], droppedEntities: [], warnings: [], keepsEveryRow: false)
        program.mappingNames = mapping.entityMappings.map(\.name)
        var uses: [Int: PolicyUse] = [:]
        var readAttributes: [Int: Set<String>] = [:]
        for entry in resolved {
            guard let target = entry.destinationEntity else { continue }
            var member = RowMember(
                sourceEntity: entry.sourceEntity ?? target, destinationEntity: target, values: [:])
            var functions: [PolicyFunction] = []
            for attribute in target.attributes where !attribute.isTransient {
                let property = entry.mapping.attributeMappings.first { $0.name == attribute.name }
                do {
                    switch try MappingValues(source: source, destination: destination).value(
                        of: attribute, from: entry.sourceEntity, mapping: property)
                    {
                    case .column(let value?): member.values[destination.column(of: attribute)] = value
                    case .column(nil): break
                    case .function(let function): functions.append(function)
                    }
                } catch {
                    note(error, entry.mapping.name, attribute.name, into: &problems)
                }
                readAttributes[entry.sourceEntity?.index ?? -1, default: []].formUnion(
                    read(by: property, attribute: attribute, in: entry.sourceEntity))
            }
            let policy = self.policy(for: entry.mapping, problems: &problems, warnings: &warnings)
            if let sourceEntity = entry.sourceEntity, policy != nil || !functions.isEmpty {
                uses[entry.index] = PolicyUse(
                    mapping: entry.mapping.name, policy: policy, sourceEntity: sourceEntity, identity: entry.identity,
                    admitted: program.identityTables.first { $0.name == entry.identity }?.admitted, functions: functions
                )
            }
            if let sourceEntity = entry.sourceEntity {
                program.rowGroups.append(
                    RowGroup(
                        sourceRoot: sourceModel.root(of: sourceEntity),
                        destinationRoot: destinationModel.root(of: target),
                        members: [member], identity: .table(entry.identity), keepsVersion: false, mapping: entry.index))
            }
        }
        let (plans, readRelationships) = linkPlans(resolved, problems: &problems, warnings: &warnings)
        program.linkPlans = plans
        try throwIfAny(problems)
        let created = destinationModel.entities.filter { !$0.isAbstract }
        program.destinationChecks = requiredChecks(created)
        program.validatedAttributes = created.flatMap { entity in
            entity.attributes.filter { !$0.isTransient && !$0.declaration.validation.isEmpty }.map { (entity, $0) }
        }
        let readEntities = Set(resolved.compactMap { $0.destinationEntity == nil ? nil : $0.sourceEntity?.index })
        program.droppedEntities = sourceModel.entities.filter { !$0.isAbstract && !readEntities.contains($0.index) }
        program.dataLoss = droppedData(
            program.droppedEntities, readEntities: readEntities, readAttributes: readAttributes,
            readRelationships: readRelationships)
        program.warnings = warnings
        for index in program.identityTables.indices {
            let table = program.identityTables[index]
            guard let predicate = mapping.entityMappings[table.mapping].sourceFilterPredicate else { continue }
            program.identityTables[index].filter = try FetchPredicate(format: predicate)
            program.identityTables[index].admitted = destination.reservedName("admitted_\(table.mapping)")
        }
        for (index, use) in uses {
            uses[index] = PolicyUse(
                mapping: use.mapping, policy: use.policy, sourceEntity: use.sourceEntity, identity: use.identity,
                admitted: program.identityTables.first { $0.name == use.identity }?.admitted, functions: use.functions)
        }
        return (program, uses)
    }

    // MARK: - Entity mappings

    private func resolve(_ problems: inout Problems) -> [Resolved] {
        mapping.entityMappings.enumerated().compactMap { index, entityMapping in
            var sourceEntity: ModelEntity?
            var destinationEntity: ModelEntity?
            if let name = entityMapping.sourceEntity {
                sourceEntity = sourceModel.entity(named: name)
                if sourceEntity == nil {
                    problems.invalid.append(
                        place(entityMapping.name, nil)
                            + "the source entity \(name) is not in \(mapping.source.versionName)")
                }
            }
            if let name = entityMapping.destinationEntity {
                destinationEntity = destinationModel.entity(named: name)
                if destinationEntity == nil {
                    problems.invalid.append(
                        place(entityMapping.name, nil)
                            + "the destination entity \(name) is not in \(mapping.destination.versionName)")
                } else if destinationEntity?.isAbstract == true {
                    problems.invalid.append(
                        place(entityMapping.name, nil) + "the destination entity \(name) is abstract")
                }
            }
            for property in entityMapping.attributeMappings
            where destinationEntity.map({ $0.attribute(named: property.name) == nil }) ?? false {
                problems.invalid.append(
                    place(entityMapping.name, property.name) + "no such attribute in \(destinationEntity?.name ?? "")")
            }
            for property in entityMapping.relationshipMappings
            where destinationEntity.map({ $0.relationship(named: property.name) == nil }) ?? false {
                problems.invalid.append(
                    place(entityMapping.name, property.name)
                        + "no such relationship in \(destinationEntity?.name ?? "")")
            }
            return Resolved(
                index: index, mapping: entityMapping, sourceEntity: sourceEntity, destinationEntity: destinationEntity,
                identity: destination.reservedName("map_\(index)"))
        }
    }

    /// One identity table per mapping with a destination: source keys kept when the mapping is
    /// the only reader of its source table into its destination table.
    private func identityTables(_ resolved: [Resolved]) -> [IdentityTable] {
        let writers = resolved.filter { $0.destinationEntity != nil && $0.sourceEntity != nil }
        var keeping: Set<Int> = []
        for root in Set(writers.compactMap { $0.destinationEntity?.rootIndex }).sorted() {
            let into = writers.filter { $0.destinationEntity?.rootIndex == root }
            let sourceRoots = Set(into.compactMap { $0.sourceEntity?.rootIndex })
            let sourceEntities = into.compactMap { $0.sourceEntity?.index }
            if sourceRoots.count == 1 && Set(sourceEntities).count == sourceEntities.count {
                keeping.formUnion(into.map(\.index))
            } else if let first = into.min(by: { ($0.mapping.number, $0.index) < ($1.mapping.number, $1.index) }) {
                keeping.insert(first.index)
            }
        }
        return resolved.compactMap { entry in
            guard let target = entry.destinationEntity else { return nil }
            let createsRows =
                entry.sourceEntity != nil
                && (policy(named: entry.mapping.policyClassName)?.createsDestinations ?? true)
            return IdentityTable(
                name: entry.identity, mapping: entry.index, sourceEntity: entry.sourceEntity,
                destinationRoot: destinationModel.root(of: target), keepsKeys: keeping.contains(entry.index),
                admitted: nil, createsRows: createsRows)
        }
    }

    // MARK: - Policies

    private func policy(named className: String?) -> (any MigrationPolicy)? {
        guard let className, !isSkipped(className) else { return nil }
        return policies.policy(named: className)
    }

    private func isSkipped(_ className: String) -> Bool {
        skipped.contains(className) || skipped.contains(MigrationPolicies.shortName(of: className))
    }

    /// The mapping's policy; notes it when it is neither registered nor skipped, warns when skipped.
    private func policy(for entityMapping: EntityMapping, problems: inout Problems, warnings: inout [String])
        -> (any MigrationPolicy)?
    {
        guard let className = entityMapping.policyClassName else { return nil }
        if isSkipped(className) {
            let line = "the policy \(className) was skipped: \(entityMapping.name) ran without it"
            if !warnings.contains(line) { warnings.append(line) }
            return nil
        }
        guard let policy = policies.policy(named: className) else {
            if !problems.unregistered.contains(className) { problems.unregistered.append(className) }
            return nil
        }
        return policy
    }

    // MARK: - Relationships

    /// A link plan for every stored pair of the destination model, with the contributions of
    /// every relationship mapping; and the source relationships the mappings read.
    private func linkPlans(_ resolved: [Resolved], problems: inout Problems, warnings: inout [String])
        -> ([LinkPlan], Set<String>)
    {
        var contributions: [String: [Contribution]] = [:]
        var read: Set<String> = []
        for entry in resolved {
            guard let target = entry.destinationEntity else { continue }
            for relationship in target.relationships where !relationship.isTransient {
                let property = entry.mapping.relationshipMappings.first { $0.name == relationship.name }
                guard let property else { continue }
                do {
                    let links = try self.links(
                        of: relationship, in: entry, property: property, resolved: resolved, warnings: &warnings)
                    for hop in links.path { read.insert("\(hop.declaringEntity).\(hop.name)") }
                    let key = "\(relationship.declaringEntity).\(relationship.name)"
                    contributions[key, default: []] += links.contributions
                } catch {
                    note(error, entry.mapping.name, relationship.name, into: &problems)
                }
            }
        }
        var plans: [LinkPlan] = []
        for pair in RelationshipPairs(model: destinationModel).pairs {
            let reversed = pair.inverseSubject.map { contributions[$0] ?? [] } ?? []
            var plan = LinkPlan(
                primary: pair.primary, inverse: pair.inverse, subject: pair.subject,
                contributions: (contributions[pair.subject] ?? []).map { $0.statement(alongPrimary: true) }
                    + reversed.map { $0.statement(alongPrimary: false) },
                ownerSide: pair.primary.isToMany
                    ? nil : SideRule(rule: .conflictingLinks, subject: pair.subject, truncatable: false),
                memberSide: (pair.inverse?.isToMany ?? true)
                    ? nil
                    : SideRule(
                        rule: .conflictingLinks, subject: pair.inverseSubject ?? pair.subject, truncatable: false),
                policyNames: (pair.subject, pair.inverseSubject))
            plan.countChecks = countChecks(pair)
            plans.append(plan)
        }
        return (plans, read)
    }

    /// The links one relationship mapping gives: source pairs, read through the owners' and the
    /// members' identity tables.
    private struct Contribution {
        /// `SELECT o, m, ord, iord` over the source.
        let pairs: String
        let owners: String
        let members: String
        let keepsOrder: Bool

        /// The statement filling the pair's link table, oriented along its primary side or against it.
        func statement(alongPrimary: Bool) -> String {
            let ord = keepsOrder ? "p.ord" : "NULL"
            let values = alongPrimary ? "om.dst, mm.dst, \(ord), p.iord" : "mm.dst, om.dst, p.iord, \(ord)"
            return "INSERT OR IGNORE INTO temp.?L(owner, member, ord, iord) SELECT \(values) FROM (\(pairs)) AS p"
                + " JOIN temp.\(SQLiteIdentifier.quote(owners)) AS om ON om.src = p.o"
                + " JOIN temp.\(SQLiteIdentifier.quote(members)) AS mm ON mm.src = p.m"
        }
    }

    /// The statements one relationship mapping contributes, and the source relationships it reads.
    private func links(
        of relationship: ModelRelationship, in entry: Resolved, property: PropertyMapping, resolved: [Resolved],
        warnings: inout [String]
    ) throws(MappingProblem) -> (contributions: [Contribution], path: [ModelRelationship]) {
        guard let sourceEntity = entry.sourceEntity else { return ([], []) }
        let targetKinds = destinationModel.destination(of: relationship)
        var path: [ModelRelationship]
        var memberMappings: [Resolved]
        switch property.valueExpression {
        case nil:
            let name =
                sourceEntity.relationship(named: relationship.name) != nil
                ? relationship.name : relationship.declaration.renamingIdentifier
            guard let name, let old = sourceEntity.relationship(named: name), !old.isTransient else { return ([], []) }
            path = [old]
            memberMappings = try byEntity(of: old, into: targetKinds, resolved: resolved)
        case .function(target: .variable("manager"), let selector, let arguments)?:
            guard arguments.count == 2, case .constant(.string(let name)) = arguments[0] else {
                throw .unsupported(property.valueExpression?.format ?? "")
            }
            path = try self.path(arguments[1], in: sourceEntity)
            let normalized = selector.hasSuffix(":") ? selector : selector + ":"
            if normalized != selector {
                let line =
                    "\(file): \(entry.mapping.name).\(relationship.name): the selector \(selector) lacks its final colon; read as \(normalized)"
                if !warnings.contains(line) { warnings.append(line) }
            }
            switch normalized {
            case Self.byMapping:
                guard let named = resolved.first(where: { $0.mapping.name == name }) else {
                    throw .invalid("there is no entity mapping \(name)")
                }
                guard named.destinationEntity?.isKind(of: targetKinds) ?? false else {
                    throw .invalid("the entity mapping \(name) does not make \(targetKinds.name) objects")
                }
                memberMappings = [named]
            case Self.byRelationship:
                guard let last = path.last, last.name == name else {
                    throw .invalid("the relationship \(name) is not the one the key path reads")
                }
                memberMappings = try byEntity(of: last, into: targetKinds, resolved: resolved)
            default:
                throw .unsupported(property.valueExpression?.format ?? "")
            }
        default:
            throw .unsupported(property.valueExpression?.format ?? "")
        }
        let pairs: String
        if let sql = SourcePairs(layout: source).sql(path: path) {
            pairs = sql
        } else {
            pairs =
                "SELECT x.src AS o, x.src AS m, NULL AS ord, NULL AS iord FROM temp.\(SQLiteIdentifier.quote(entry.identity)) AS x"
        }
        let keepsOrder = path.count == 1 && path[0].isOrdered && relationship.isOrdered
        let contributions = memberMappings.map {
            Contribution(pairs: pairs, owners: entry.identity, members: $0.identity, keepsOrder: keepsOrder)
        }
        return (contributions, path)
    }

    /// The source relationships a `$source` key path argument follows (none for `$source` itself).
    private func path(_ argument: MappingExpression, in entity: ModelEntity) throws(MappingProblem)
        -> [ModelRelationship]
    {
        switch argument {
        case .variable("source"):
            return []
        case .keyPath(variable: "source", let names):
            var current = entity
            var path: [ModelRelationship] = []
            for name in names {
                guard let relationship = current.relationship(named: name), !relationship.isTransient else {
                    throw .invalid(
                        "$source.\(names.joined(separator: ".")) is not a path of relationships of \(entity.name)")
                }
                path.append(relationship)
                current = sourceModel.destination(of: relationship)
            }
            return path
        default:
            throw .unsupported(argument.format)
        }
    }

    /// For each concrete kind of `relationship`'s destination (source model), the mapping that reads
    /// it into `target`'s kinds: one at most per kind (two is ambiguous); kinds without one are dropped.
    private func byEntity(of relationship: ModelRelationship, into target: ModelEntity, resolved: [Resolved])
        throws(MappingProblem) -> [Resolved]
    {
        var chosen: [Resolved] = []
        for index in sourceModel.destination(of: relationship).kindIndices where !sourceModel.entities[index].isAbstract
        {
            let candidates = resolved.filter {
                $0.sourceEntity?.index == index && ($0.destinationEntity?.isKind(of: target) ?? false)
            }
            if candidates.count > 1 {
                throw .invalid(
                    "\(sourceModel.entities[index].name) objects are read by several entity mappings into \(target.name) ("
                        + candidates.map(\.mapping.name).joined(separator: ", ") + ")")
            }
            chosen += candidates
        }
        return chosen
    }

    // MARK: - Checks and drops

    /// Required attributes and to-ones of the entities the pass writes.
    private func requiredChecks(_ entities: [ModelEntity]) -> [RowCheck] {
        var checks: [RowCheck] = []
        for entity in entities where !entity.isAbstract {
            let rows =
                "FROM main.\(SQLiteIdentifier.quote(destination.table(of: entity))) WHERE \(destination.entityColumn) = \(destination.number(of: entity))"
            for attribute in entity.attributes where !attribute.isOptional && !attribute.isTransient {
                checks.append(
                    RowCheck(
                        rule: .requiredValue, subject: "\(entity.name).\(attribute.name)",
                        sql:
                            "SELECT count(*), min(\(destination.keyColumn)) \(rows) AND \(SQLiteIdentifier.quote(destination.column(of: attribute))) IS NULL"
                    ))
            }
            for relationship in entity.relationships
            where !relationship.isToMany && !relationship.declaration.isOptional && !relationship.isTransient {
                guard case .foreignKey(let column) = destination.storage(of: relationship) else { continue }
                checks.append(
                    RowCheck(
                        rule: .requiredValue, subject: "\(entity.name).\(relationship.name)",
                        sql:
                            "SELECT count(*), min(\(destination.keyColumn)) \(rows) AND \(SQLiteIdentifier.quote(column)) IS NULL"
                    ))
            }
        }
        return checks
    }

    /// The ranges of the pair's to-many sides.
    private func countChecks(_ pair: RelationshipPair) -> [CountCheck] {
        let sides = [(pair.primary, true)] + (pair.inverse.map { [($0, false)] } ?? [])
        return sides.compactMap { relationship, along -> CountCheck? in
            let declaration = relationship.declaration
            guard relationship.isToMany, declaration.minCount > 0 || declaration.maxCount > 0,
                let owner = destinationModel.entity(named: relationship.declaringEntity)
            else { return nil }
            let kinds = owner.kindIndices.map { destinationModel.entities[$0] }.filter { !$0.isAbstract }
            return CountCheck(
                subject: "\(relationship.declaringEntity).\(relationship.name)", alongPrimary: along,
                table: destination.table(of: owner), numbers: kinds.map(destination.number(of:)),
                minimum: declaration.minCount, maximum: declaration.maxCount)
        }
    }

    /// Counts of the source objects no mapping reads, the values no expression reads and the
    /// links no relationship mapping follows.
    private func droppedData(
        _ entities: [ModelEntity], readEntities: Set<Int>, readAttributes: [Int: Set<String>],
        readRelationships: Set<String>
    ) -> [DataLossProbe] {
        let quote = SQLiteIdentifier.quote
        var probes = entities.map { entity in
            DataLossProbe(
                subject: entity.name, unit: "objects",
                sql:
                    "SELECT count(*) FROM src.\(quote(source.table(of: entity))) WHERE \(source.entityColumn) = \(source.number(of: entity))"
            )
        }
        for index in readEntities.sorted() {
            let entity = sourceModel.entities[index]
            for attribute in entity.attributes
            where !attribute.isTransient && !(readAttributes[index] ?? []).contains(attribute.name) {
                probes.append(
                    DataLossProbe(
                        subject: "\(entity.name).\(attribute.name)", unit: "values",
                        sql:
                            "SELECT count(\(quote(source.column(of: attribute)))) FROM src.\(quote(source.table(of: entity)))"
                            + " WHERE \(source.entityColumn) = \(source.number(of: entity))"))
            }
        }
        for (pair, sql) in SourcePairs(layout: source).unread(by: readRelationships) {
            probes.append(
                DataLossProbe(subject: pair.subject, unit: "links", sql: "SELECT count(*) FROM (\(sql)) AS p"))
        }
        return probes
    }

    /// The source attributes a property mapping reads for `attribute`.
    private func read(by property: PropertyMapping?, attribute: ModelAttribute, in entity: ModelEntity?) -> Set<String>
    {
        guard let property, let entity else { return [] }
        switch property.valueExpression {
        case nil:
            let name =
                entity.attribute(named: attribute.name) != nil
                ? attribute.name : attribute.declaration.renamingIdentifier
            return name.map { [$0] } ?? []
        case .keyPath(variable: "source", let path)?:
            return path.count == 1 ? [path[0]] : []
        case .function(_, _, let arguments)?:
            return Set(
                arguments.compactMap { argument in
                    if case .keyPath(variable: "source", let path) = argument, path.count == 1 { return path[0] }
                    return nil
                })
        default:
            return []
        }
    }

    // MARK: - Problems

    private func place(_ mapping: String, _ property: String?) -> String {
        "\(file): entity mapping '\(mapping)'" + (property.map { ", property '\($0)'" } ?? "") + ": "
    }

    private func note(_ error: MappingProblem, _ mapping: String, _ property: String, into problems: inout Problems) {
        switch error {
        case .invalid(let message): problems.invalid.append(place(mapping, property) + message)
        case .unsupported(let format): problems.unsupported.append(place(mapping, property) + format)
        }
    }

    private func throwIfAny(_ problems: Problems) throws {
        if !problems.invalid.isEmpty { throw MigrationError(.invalidMapping(problems.invalid), store: "") }
        if !problems.unsupported.isEmpty {
            throw MigrationError(.unsupportedExpression(problems.unsupported), store: "")
        }
        if !problems.unregistered.isEmpty {
            throw MigrationError(.unregisteredPolicy(problems.unregistered), store: "")
        }
    }
}
