// Writes one root table's rows with INSERT … SELECT and UPDATE … FROM, a page of source keys per
// batch: new rows get their mapped key, their concrete entity's target number, version 1, the
// copied attributes (converted to the target's encoding; target defaults for attributes the
// source lacks) and their to-one links remapped through the identity maps (with the target's
// companion entity columns where its layout keeps them) — cycles and self references included, since every map is
// complete before the first row is written. Matched rows take the source's attributes under the
// `update` policy (only rows that differ; their version is bumped) and the source's to-one links
// whenever the destination was copied.
// A verbatim copy (same model, everything copied, every table empty in the target) moves whole
// tables with `INSERT … SELECT *`, which SQLite runs as a page-level transfer.
// Invariant: a link to a row the copy left out stays unset (the maps give NULL for it).
import GraphStore

/// Copies the rows of one root table.
struct RowCopier {
    let table: RootTable
    let plan: CopyPlan
    let maps: [Int: IdentityMap]
    let links: [ForeignKeyLink]
    let onConflict: CopyConflictPolicy
    /// Whether source rows are copied as they are (keys, links and positions need no change).
    let verbatim: Bool

    /// Inserts the new rows and updates the matched ones, batch by batch.
    func copy(with batches: CopyBatches) throws {
        guard let map = maps[table.root.index] else { return }
        if verbatim {
            try batches.commit { connection in
                try counting("FROM \(table.source) AS s", on: connection, lower: .min, upper: .max, batches: batches) {
                    try connection.run("INSERT INTO \(table.target) SELECT * FROM \(table.source)")
                }
            }
            return
        }
        let key = plan.sourceLayout.keyColumn
        switch map {
        case .offset:
            let rows = "FROM \(table.source) AS s WHERE s.\(key) > ?1 AND s.\(key) <= ?2"
            try batches.paged(table.source, by: key) { connection, lower, upper in
                try insert(
                    rows, key: map.target(of: "s.\(key)"), on: connection, lower: lower, upper: upper, batches: batches)
            }
        case .table(let name):
            let quoted = "temp." + SQLiteIdentifier.quote(name)
            let rows =
                "FROM \(quoted) AS m JOIN \(table.source) AS s ON s.\(key) = m.source_key"
                + " WHERE m.source_key > ?1 AND m.source_key <= ?2"
            try batches.paged(quoted, by: "source_key") { connection, lower, upper in
                try insert(
                    rows + " AND m.fresh", key: "m.target_key", on: connection, lower: lower, upper: upper,
                    batches: batches)
                try updateAttributes(rows, on: connection, lower: lower, upper: upper, batches: batches)
                try updateLinks(rows, on: connection, lower: lower, upper: upper)
            }
        }
    }

    /// Each written to-one column with its value for the source row `s`: the remapped key, and
    /// for a companion column the remapped destination's target entity number.
    private var remappedLinks: [(column: String, value: String)] {
        links.flatMap { link -> [(column: String, value: String)] in
            guard let map = maps[link.destination] else { return [] }
            let source = "s.\(SQLiteIdentifier.quote(link.sourceColumn))"
            var columns = [(SQLiteIdentifier.quote(link.targetColumn), map.target(of: source))]
            if let companion = link.targetCompanion,
                let destination = plan.roots.first(where: { $0.index == link.destination })
            {
                let layout = plan.sourceLayout
                let entity = RootTable(root: destination, plan: plan).entExpression("d")
                let table = SourceAttachment.schema + "." + SQLiteIdentifier.quote(layout.table(of: destination))
                columns.append(
                    (
                        SQLiteIdentifier.quote(companion),
                        "(SELECT \(entity) FROM \(table) AS d WHERE d.\(layout.keyColumn) = \(source))"
                    ))
            }
            return columns
        }
    }

    private func insert(
        _ rows: String, key: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches
    ) throws {
        let target = plan.targetLayout
        let attributes = table.attributeValues("s", firstParameter: 3)
        let links = remappedLinks
        let columns =
            [target.keyColumn, target.entityColumn, target.versionColumn] + attributes.columns + links.map(\.column)
        let values = [key, table.entExpression("s"), "1"] + attributes.values + links.map(\.value)
        let encoding = batches.encoding
        try counting(rows, on: connection, lower: lower, upper: upper, batches: batches) {
            try connection.run(
                "INSERT INTO \(table.target)(\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \(rows)",
                lower: lower, upper: upper
            ) { statement in
                for (offset, value) in attributes.defaults.enumerated() {
                    statement.bind(value, at: Int32(offset + 3), encoding: encoding)
                }
            }
        }
    }

    /// Runs `insert` and counts the rows it copied per entity (from `rows` when the table holds several).
    private func counting(
        _ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches,
        _ insert: () throws -> Int
    ) throws {
        if table.copied.count > 1 {
            let entity = plan.sourceLayout.entityColumn
            let counts = try connection.counts(
                "SELECT s.\(entity), count(*) \(rows) GROUP BY s.\(entity)", lower: lower, upper: upper)
            for (number, count) in counts {
                if let entity = plan.sourceEntity(number: number) { batches.count(count, \.copied, of: entity) }
            }
        }
        let inserted = try insert()
        if table.copied.count == 1 { batches.count(inserted, \.copied, of: table.copied[0]) }
    }

    /// Under `update`, writes the source's attributes into matched rows that differ (per entity, for its counts).
    private func updateAttributes(
        _ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches
    ) throws {
        guard onConflict == .update else { return }
        let (source, target) = (plan.sourceLayout, plan.targetLayout)
        let version = target.versionColumn
        for entity in table.copied {
            let columns = plan.attributes(of: entity.name).compactMap { name in
                entity.attribute(named: name).flatMap { attribute in
                    table.targetColumn(ofAttribute: name, of: entity).map {
                        (target: $0, value: table.sourceValue(of: attribute, alias: "s"))
                    }
                }
            }
            guard !columns.isEmpty else { continue }
            let updated = try connection.run(
                """
                UPDATE \(table.target) AS t SET \(version) = t.\(version) + 1, \(columns.map { "\($0.target) = \($0.value)" }.joined(separator: ", "))
                \(rows) AND NOT m.fresh AND s.\(source.entityColumn) = \(source.number(of: entity)) AND t.\(target.keyColumn) = m.target_key
                AND (\(columns.map { "t.\($0.target) IS NOT \($0.value)" }.joined(separator: " OR ")))
                """, lower: lower, upper: upper)
            batches.count(updated, \.updated, of: entity)
            batches.count(-updated, \.unchanged, of: entity)
        }
    }

    /// Points matched rows' to-one links at the copies of the source's destinations (when copied).
    private func updateLinks(_ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64) throws {
        let links = remappedLinks
        guard !links.isEmpty else { return }
        let (key, version) = (plan.targetLayout.keyColumn, plan.targetLayout.versionColumn)
        let values = links.enumerated().map { "\($1.value) AS v\($0)" }
        let assignments = links.enumerated().map { "\($1.column) = coalesce(x.v\($0), t.\($1.column))" }
        let changes = links.enumerated().map { "(x.v\($0) IS NOT NULL AND x.v\($0) IS NOT t.\($1.column))" }
        try connection.run(
            """
            UPDATE \(table.target) AS t SET \(version) = t.\(version) + 1, \(assignments.joined(separator: ", "))
            FROM (SELECT m.target_key AS d, \(values.joined(separator: ", ")) \(rows) AND NOT m.fresh) AS x
            WHERE t.\(key) = x.d AND (\(changes.joined(separator: " OR ")))
            """, lower: lower, upper: upper)
    }
}
