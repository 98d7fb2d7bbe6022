// One root entity's table as a copy sees it: which source rows are copied (entities, admissions
// by predicates and by relationships that bring their destinations along), how their `ent`
// numbers translate, and the SQL expressions that give each target column its value. Both
// stores are on one connection: the target as `main`, the source as `src`.
// Invariant: every identifier in the generated SQL is quoted.
import GraphStore

/// SQL pieces for copying the rows of one root table.
struct RootTable {
    /// The source root entity.
    let root: ModelEntity
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
        copied = plan.copiedEntities(in: root)
        admissions =
            copied.contains { plan.isFiltered($0) || !plan.isSelected($0) } ? "seedkit_admitted_" + root.tableName : nil
    }

    /// The table's name (the same in both stores).
    var name: String { root.tableName }
    /// `main."T"`.
    var target: String { "main." + SQLiteIdentifier.quote(name) }
    /// `src."T"`.
    var source: String { "src." + SQLiteIdentifier.quote(name) }

    /// Whether every row the source table can hold is copied (no entity left out, no admissions).
    var copiesEveryRow: Bool {
        admissions == nil
            && plan.source.entities.allSatisfy { $0.rootIndex != root.index || $0.isAbstract || plan.copies($0) }
    }

    /// Whether some copied entity matches by a key.
    var isKeyed: Bool { copied.contains { plan.key(of: $0.name) != nil } }

    /// `s.ent IN (…)` (and `s.pk` admitted), true for the source rows that are copied.
    func copiedCondition(_ alias: String) -> String {
        var condition = "\(alias).ent IN (\(Self.list(copied.map(\.storeID))))"
        if let admissions {
            condition += " AND \(alias).pk IN (SELECT pk FROM temp.\(SQLiteIdentifier.quote(admissions)))"
        }
        return condition
    }

    /// The target `ent` for the source row `alias`.
    func entExpression(_ alias: String) -> String {
        let pairs = copied.compactMap { entity in plan.targetEntity(for: entity).map { (entity.storeID, $0.storeID) } }
        if pairs.allSatisfy({ $0.0 == $0.1 }) { return "\(alias).ent" }
        return "CASE \(alias).ent " + pairs.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
    }

    /// The target's attribute columns of this table with the value each takes for a new row from
    /// the source row `alias`: the source's column for entities that copy it, else the target's
    /// default value (bound from `defaults`, numbered from `firstParameter`), else nothing.
    func attributeValues(_ alias: String, firstParameter: Int) -> (
        columns: [String], values: [String], defaults: [AttributeValue]
    ) {
        var columns: [String] = []
        var values: [String] = []
        var defaults: [AttributeValue] = []
        for column in targetAttributeColumns() {
            var branches: [(ids: [Int64], value: String)] = []
            for entity in copied {
                let value: String
                if plan.attributes(of: entity.name).contains(column) {
                    value = "\(alias).\(SQLiteIdentifier.quote(column))"
                } else if let fallback = plan.targetEntity(for: entity)?.attribute(named: column)?.declaration
                    .defaultValue
                {
                    defaults.append(fallback)
                    value = "?\(firstParameter + defaults.count - 1)"
                } else {
                    continue
                }
                if let index = branches.firstIndex(where: { $0.value == value }) {
                    branches[index].ids.append(entity.storeID)
                } else {
                    branches.append(([entity.storeID], value))
                }
            }
            guard !branches.isEmpty else { continue }
            columns.append(SQLiteIdentifier.quote(column))
            if branches.count == 1, branches[0].ids.count == copied.count {
                values.append(branches[0].value)
            } else {
                values.append(
                    "CASE "
                        + branches.map { "WHEN \(alias).ent IN (\(Self.list($0.ids))) THEN \($0.value)" }.joined(
                            separator: " ")
                        + " END")
            }
        }
        return (columns, values, defaults)
    }

    /// The target's stored attribute columns of this table, in name order.
    private func targetAttributeColumns() -> [String] {
        var names: Set<String> = []
        for entity in copied {
            for attribute in plan.targetEntity(for: entity)?.attributes ?? [] where !attribute.isTransient {
                names.insert(attribute.columnName)
            }
        }
        return names.sorted()
    }

    /// Comma-separated numbers.
    static func list(_ numbers: [Int64]) -> String { numbers.map(String.init).joined(separator: ", ") }
}
