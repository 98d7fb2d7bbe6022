// Writes one root table's rows with INSERT … SELECT and UPDATE … FROM, a page of source keys per
// batch: new rows get their mapped key, their concrete entity's target number, version 1, the
// copied attributes (converted to the target's encoding; target defaults for attributes the
// source lacks) and their to-one links remapped through the identity maps (with the target's
// companion entity columns where its layout keeps them) — cycles and self references included, since every map is
// complete before the first row is written. Matched rows take the source's attributes under the
// `update` policy (only rows that differ; their version is bumped) and the source's to-one links
// whenever the destination was copied; with a lineage (LineageMatches), a property the target
// changed since the source last gave it a value keeps the target's, when the lineage keeps
// target changes, and such rows are counted as `kept`.
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
    /// The target's seed record, when the copy has a lineage: it decides which properties of a
    /// matched row keep the target's value.
    let lineage: LineageMatches?
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
            let from = "FROM \(quoted) AS m JOIN \(table.source) AS s ON s.\(key) = m.source_key"
            let page = " WHERE m.source_key > ?1 AND m.source_key <= ?2"
            // With a lineage, matched rows come with their base rows `b` and their target rows `t`.
            let base = lineage?.baseJoin(of: table) ?? ""
            let targets =
                lineage == nil
                ? "" : " JOIN \(table.target) AS t ON t.\(plan.targetLayout.keyColumn) = m.target_key"
            try batches.paged(quoted, by: "source_key") { connection, lower, upper in
                try insert(
                    from + page + " AND m.fresh", key: "m.target_key", on: connection, lower: lower, upper: upper,
                    batches: batches)
                try countKept(
                    from + base + targets + page, on: connection, lower: lower, upper: upper, batches: batches)
                try updateAttributes(from + base + page, on: connection, lower: lower, upper: upper, batches: batches)
                try updateLinks(from + base + targets + page, on: connection, lower: lower, upper: upper)
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

    /// The attributes of `entity` (a source entity) that a matched row takes from the source:
    /// each target column, the source's value, and (with a lineage) whether the row keeps its own.
    private func updatedAttributes(of entity: ModelEntity) -> [(target: String, value: String, keeps: String)] {
        plan.attributes(of: entity.name).compactMap { name in
            entity.attribute(named: name).flatMap { attribute in
                table.targetColumn(ofAttribute: name, of: entity).map { column in
                    (column, table.sourceValue(of: attribute, alias: "s"), lineage?.keeps(column, in: table) ?? "0")
                }
            }
        }
    }

    /// With a lineage that keeps target changes, counts per entity the matched rows of the page
    /// (`rows`: map `m`, source `s`, base `b` and target `t` rows) that keep a value the target
    /// changed although the source changed it too (`kept`).
    private func countKept(
        _ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches
    ) throws {
        guard let lineage, lineage.lineage.keepsTargetChanges else { return }
        let source = plan.sourceLayout
        let links = remappedLinks.map { link in
            (
                differs: "\(link.value) IS NOT NULL AND \(link.value) IS NOT t.\(link.column)",
                keeps: lineage.keeps(link.column, in: table),
                changed: lineage.changed(link.column, in: table, value: link.value)
            )
        }
        for entity in table.copied {
            let attributes = updatedAttributes(of: entity).map { column in
                (
                    differs: "t.\(column.target) IS NOT \(column.value)", keeps: column.keeps,
                    changed: lineage.changed(column.target, in: table, value: column.value)
                )
            }
            // The plain comparison first: the others only for values that differ.
            let conflicts = (attributes + links).map { "(\($0.differs) AND \($0.keeps) AND \($0.changed))" }
            guard !conflicts.isEmpty else { continue }
            let counts = try connection.counts(
                """
                SELECT s.\(source.entityColumn), count(*) \(rows) AND NOT m.fresh
                AND s.\(source.entityColumn) = \(source.number(of: entity)) AND (\(conflicts.joined(separator: " OR ")))
                """, lower: lower, upper: upper)
            for (_, count) in counts { batches.count(count, \.kept, of: entity) }
        }
    }

    /// Under `update` (or with a lineage), writes the source's attributes into matched rows that
    /// differ (per entity, for its counts); with a lineage that keeps target changes, an
    /// attribute the target changed keeps its value.
    private func updateAttributes(
        _ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches
    ) throws {
        guard onConflict == .update || lineage != nil else { return }
        let (source, target) = (plan.sourceLayout, plan.targetLayout)
        let version = target.versionColumn
        for entity in table.copied {
            let columns = updatedAttributes(of: entity)
            guard !columns.isEmpty else { continue }
            let assignments = columns.map { column in
                column.keeps == "0"
                    ? "\(column.target) = \(column.value)"
                    : "\(column.target) = CASE WHEN \(column.keeps) THEN t.\(column.target) ELSE \(column.value) END"
            }
            // The plain comparison first: the base row is only read for values that differ.
            let changes = columns.map { column in
                "t.\(column.target) IS NOT \(column.value)" + (column.keeps == "0" ? "" : " AND NOT \(column.keeps)")
            }
            let updated = try connection.run(
                """
                UPDATE \(table.target) AS t SET \(version) = t.\(version) + 1, \(assignments.joined(separator: ", "))
                \(rows) AND NOT m.fresh AND s.\(source.entityColumn) = \(source.number(of: entity)) AND t.\(target.keyColumn) = m.target_key
                AND (\(changes.map { "(\($0))" }.joined(separator: " OR ")))
                """, lower: lower, upper: upper)
            batches.count(updated, \.updated, of: entity)
            batches.count(-updated, \.unchanged, of: entity)
        }
    }

    /// Points matched rows' to-one links at the copies of the source's destinations (when
    /// copied); with a lineage that keeps target changes, a link the target changed stays. With a
    /// lineage, `rows` also joins the base `b` and target `t` rows.
    private func updateLinks(_ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64) throws {
        let links = remappedLinks
        guard !links.isEmpty else { return }
        let (key, version) = (plan.targetLayout.keyColumn, plan.targetLayout.versionColumn)
        let keeps = links.map { lineage?.keeps($0.column, in: table) ?? "0" }
        let values =
            links.enumerated().map { "\($1.value) AS v\($0)" }
            + keeps.enumerated().filter { $1 != "0" }.map { "\($1) AS k\($0)" }
        let assignments = links.enumerated().map { index, link in
            let linked = "coalesce(x.v\(index), t.\(link.column))"
            return keeps[index] == "0"
                ? "\(link.column) = \(linked)"
                : "\(link.column) = CASE WHEN x.k\(index) THEN t.\(link.column) ELSE \(linked) END"
        }
        let changes = links.enumerated().map { index, link in
            "(x.v\(index) IS NOT NULL AND x.v\(index) IS NOT t.\(link.column)"
                + (keeps[index] == "0" ? "" : " AND NOT x.k\(index)") + ")"
        }
        try connection.run(
            """
            UPDATE \(table.target) AS t SET \(version) = t.\(version) + 1, \(assignments.joined(separator: ", "))
            FROM (SELECT m.target_key AS d, \(values.joined(separator: ", ")) \(rows) AND NOT m.fresh) AS x
            WHERE t.\(key) = x.d AND (\(changes.joined(separator: " OR ")))
            """, lower: lower, upper: upper)
    }
}
