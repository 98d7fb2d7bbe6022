// One root entity's table as a copy sees it: which source rows are copied (entities, admissions
// by predicates and by relationships that bring their destinations along), how their entity
// numbers translate, and the SQL expressions that give each target column its value (converted
// when the two layouts store a value differently). Both stores are on one connection: the
// target as `main`, the source as `source` (SourceAttachment); each side's table and column
// names come from its own layout.
// Invariant: every identifier in the generated SQL is quoted.
import GraphStore

/// SQL pieces for copying the rows of one root table.
struct RootTable {
    /// The source root entity.
    let root: ModelEntity
    /// The target's root entity of the same name, when the target has one.
    let targetRoot: ModelEntity?
    /// The source entities whose rows are copied.
    let copied: [ModelEntity]
    /// The TEMP table of admitted source keys, when not every row of the copied entities is
    /// copied: a predicate applies to some copied entity, or some copied entity was not asked for
    /// (its objects come along through relationships).
    let admissions: String?
    private let plan: CopyPlan

    init(root: ModelEntity, plan: CopyPlan) {
        self.root = root
        self.plan = plan
        targetRoot = plan.target.entity(named: root.name)
        copied = plan.copiedEntities(in: root)
        admissions =
            copied.contains { plan.isFiltered($0) || !plan.isSelected($0) }
            ? plan.targetLayout.reservedName("admitted_" + plan.sourceLayout.table(of: root)) : nil
    }

    /// The source table's name (names the copy's progress steps and scratch tables).
    var name: String { plan.sourceLayout.table(of: root) }
    /// `main."T"`: the target's table.
    var target: String {
        "main." + SQLiteIdentifier.quote(targetRoot.map(plan.targetLayout.table(of:)) ?? root.name)
    }
    /// `source."T"`: the source's table.
    var source: String { SourceAttachment.schema + "." + SQLiteIdentifier.quote(name) }

    /// Whether every row the source table can hold is copied (no entity left out, no admissions).
    var copiesEveryRow: Bool {
        admissions == nil
            && plan.source.entities.allSatisfy { $0.rootIndex != root.index || $0.isAbstract || plan.copies($0) }
    }

    /// Whether some copied entity matches by a key.
    var isKeyed: Bool { copied.contains { plan.key(of: $0.name) != nil } }

    /// The source's numbers of the copied entities.
    var copiedNumbers: [Int64] { copied.map(plan.sourceLayout.number(of:)) }

    /// `s.ent IN (…)` (and `s.pk` admitted), true for the source rows that are copied.
    func copiedCondition(_ alias: String) -> String {
        let layout = plan.sourceLayout
        var condition = "\(alias).\(layout.entityColumn) IN (\(StoreLayout.list(copiedNumbers)))"
        if let admissions {
            condition +=
                " AND \(alias).\(layout.keyColumn) IN (SELECT key FROM temp.\(SQLiteIdentifier.quote(admissions)))"
        }
        return condition
    }

    /// The target's entity number for the source row `alias`.
    func entExpression(_ alias: String) -> String {
        let pairs = copied.compactMap { entity in
            plan.targetEntity(for: entity).map {
                (plan.sourceLayout.number(of: entity), plan.targetLayout.number(of: $0))
            }
        }
        let column = "\(alias).\(plan.sourceLayout.entityColumn)"
        if pairs.allSatisfy({ $0.0 == $0.1 }) { return column }
        return "CASE \(column) " + pairs.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
    }

    /// The target's attribute columns of this table with the value each takes for a new row from
    /// the source row `alias`: the source's column for entities that copy it (converted to the
    /// target's encoding), else the target's default value (bound from `defaults`, numbered from
    /// `firstParameter`), else nothing.
    func attributeValues(_ alias: String, firstParameter: Int) -> (
        columns: [String], values: [String], defaults: [AttributeValue]
    ) {
        var columns: [String] = []
        var values: [String] = []
        var defaults: [AttributeValue] = []
        for column in targetAttributeColumns() {
            var branches: [(ids: [Int64], value: String)] = []
            for entity in copied {
                guard
                    let attribute = plan.targetEntity(for: entity)?.attributes.first(where: { target in
                        !target.isTransient && plan.targetLayout.column(of: target) == column
                    })
                else { continue }
                let value: String
                if plan.attributes(of: entity.name).contains(attribute.name),
                    let copiedFrom = entity.attribute(named: attribute.name)
                {
                    value = sourceValue(of: copiedFrom, alias: alias)
                } else if let fallback = attribute.declaration.defaultValue {
                    defaults.append(fallback)
                    value = "?\(firstParameter + defaults.count - 1)"
                } else {
                    continue
                }
                let number = plan.sourceLayout.number(of: entity)
                if let index = branches.firstIndex(where: { $0.value == value }) {
                    branches[index].ids.append(number)
                } else {
                    branches.append(([number], value))
                }
            }
            guard !branches.isEmpty else { continue }
            columns.append(SQLiteIdentifier.quote(column))
            if branches.count == 1, branches[0].ids.count == copied.count {
                values.append(branches[0].value)
            } else {
                let entity = "\(alias).\(plan.sourceLayout.entityColumn)"
                values.append(
                    "CASE "
                        + branches.map { "WHEN \(entity) IN (\(StoreLayout.list($0.ids))) THEN \($0.value)" }.joined(
                            separator: " ")
                        + " END")
            }
        }
        return (columns, values, defaults)
    }

    /// The source row `alias`'s value of `attribute` (a source attribute), as the target stores it.
    func sourceValue(of attribute: ModelAttribute, alias: String) -> String {
        let declaring = plan.sourceLayout.model.entity(named: attribute.declaringEntity)
        let target = declaring.flatMap(plan.targetEntity(for:))?.attribute(named: attribute.name)
        return (target.map(plan.targetLayout.encoding(of:)) ?? plan.targetLayout.values).sqlExpression(
            converting: "\(alias).\(SQLiteIdentifier.quote(plan.sourceLayout.column(of: attribute)))",
            type: attribute.type, from: plan.sourceLayout.encoding(of: attribute))
    }

    /// The quoted target column of the copied attribute `name` of `entity` (a source entity).
    func targetColumn(ofAttribute name: String, of entity: ModelEntity) -> String? {
        plan.targetEntity(for: entity)?.attribute(named: name).map {
            SQLiteIdentifier.quote(plan.targetLayout.column(of: $0))
        }
    }

    /// The target's stored attribute columns of this table, in name order.
    private func targetAttributeColumns() -> [String] {
        var names: Set<String> = []
        for entity in copied {
            for attribute in plan.targetEntity(for: entity)?.attributes ?? [] where !attribute.isTransient {
                names.insert(plan.targetLayout.column(of: attribute))
            }
        }
        return names.sorted()
    }
}
