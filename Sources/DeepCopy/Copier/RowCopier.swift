// Writes one root table's rows with INSERT … SELECT and UPDATE … FROM, a page of source keys per
// batch: new rows get their mapped key, their concrete entity's target number, version 1, the
// copied attributes (target defaults for attributes the source lacks) and their to-one links
// remapped through the identity maps — cycles and self references included, since every map is
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
    let maps: [String: IdentityMap]
    let links: [ForeignKeyLink]
    let onConflict: CopyConflictPolicy
    /// Whether source rows are copied as they are (keys, links and positions need no change).
    let verbatim: Bool

    /// Inserts the new rows and updates the matched ones, batch by batch.
    func copy(with batches: CopyBatches) throws {
        guard let map = maps[table.name] else { return }
        if verbatim {
            try batches.commit { connection in
                try counting("FROM \(table.source) AS s", on: connection, lower: .min, upper: .max, batches: batches) {
                    try connection.run("INSERT INTO \(table.target) SELECT * FROM \(table.source)")
                }
            }
            return
        }
        switch map {
        case .offset:
            let rows = "FROM \(table.source) AS s WHERE s.pk > ?1 AND s.pk <= ?2"
            try batches.paged(table.source, by: "pk") { connection, lower, upper in
                try insert(
                    rows, key: map.target(of: "s.pk"), on: connection, lower: lower, upper: upper, batches: batches)
            }
        case .table(let name):
            let quoted = "temp." + SQLiteIdentifier.quote(name)
            let rows = "FROM \(quoted) AS m JOIN \(table.source) AS s ON s.pk = m.src WHERE m.src > ?1 AND m.src <= ?2"
            try batches.paged(quoted, by: "src") { connection, lower, upper in
                try insert(
                    rows + " AND m.fresh", key: "m.dst", on: connection, lower: lower, upper: upper, batches: batches)
                try updateAttributes(rows, on: connection, lower: lower, upper: upper, batches: batches)
                try updateLinks(rows, on: connection, lower: lower, upper: upper)
            }
        }
    }

    private var remappedLinks: [(column: String, value: String)] {
        links.compactMap { link in
            maps[link.destination].map { map in
                let column = SQLiteIdentifier.quote(link.column)
                return (column, map.target(of: "s.\(column)"))
            }
        }
    }

    private func insert(
        _ rows: String, key: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches
    ) throws {
        let attributes = table.attributeValues("s", firstParameter: 3)
        let links = remappedLinks
        let columns = ["pk", "ent", "opt"] + attributes.columns + links.map(\.column)
        let values = [key, table.entExpression("s"), "1"] + attributes.values + links.map(\.value)
        try counting(rows, on: connection, lower: lower, upper: upper, batches: batches) {
            try connection.run(
                "INSERT INTO \(table.target)(\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \(rows)",
                lower: lower, upper: upper, values: attributes.defaults)
        }
    }

    /// Runs `insert` and counts the rows it copied per entity (from `rows` when the table holds several).
    private func counting(
        _ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64, batches: CopyBatches,
        _ insert: () throws -> Int
    ) throws {
        if table.copied.count > 1 {
            let counts = try connection.counts(
                "SELECT s.ent, count(*) \(rows) GROUP BY s.ent", lower: lower, upper: upper)
            for (entityID, count) in counts {
                if let entity = plan.sourceEntity(storeID: entityID) { batches.count(count, \.copied, of: entity) }
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
        for entity in table.copied {
            let columns = plan.attributes(of: entity.name).map(SQLiteIdentifier.quote)
            guard !columns.isEmpty else { continue }
            let updated = try connection.run(
                """
                UPDATE \(table.target) AS t SET opt = t.opt + 1, \(columns.map { "\($0) = s.\($0)" }.joined(separator: ", "))
                \(rows) AND NOT m.fresh AND s.ent = \(entity.storeID) AND t.pk = m.dst
                AND (\(columns.map { "t.\($0) IS NOT s.\($0)" }.joined(separator: " OR ")))
                """, lower: lower, upper: upper)
            batches.count(updated, \.updated, of: entity)
            batches.count(-updated, \.unchanged, of: entity)
        }
    }

    /// Points matched rows' to-one links at the copies of the source's destinations (when copied).
    private func updateLinks(_ rows: String, on connection: SQLiteConnection, lower: Int64, upper: Int64) throws {
        let links = remappedLinks
        guard !links.isEmpty else { return }
        let values = links.enumerated().map { "\($1.value) AS v\($0)" }
        let assignments = links.enumerated().map { "\($1.column) = coalesce(x.v\($0), t.\($1.column))" }
        let changes = links.enumerated().map { "(x.v\($0) IS NOT NULL AND x.v\($0) IS NOT t.\($1.column))" }
        try connection.run(
            """
            UPDATE \(table.target) AS t SET opt = t.opt + 1, \(assignments.joined(separator: ", "))
            FROM (SELECT m.dst AS d, \(values.joined(separator: ", ")) \(rows) AND NOT m.fresh) AS x
            WHERE t.pk = x.d AND (\(changes.joined(separator: " OR ")))
            """, lower: lower, upper: upper)
    }
}
