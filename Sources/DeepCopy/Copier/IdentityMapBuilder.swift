// Builds the identity map of one root table (see IdentityMap) before any row is written:
// source rows the target's seed record found (a copy with a lineage, LineageMatches), then
// source rows matched in the target by key, then fresh keys for the others in source-key order
// (source rows sharing a key that is not unique become one new row; rows whose object the
// target deleted are left out when the lineage keeps target changes), and the matched counts.
// A `fail` policy stops here, at the first match, before the target has been written.
// Invariant: fresh keys lie above every key the target held, so they never collide with its rows.
import GraphStore

/// Works out which target row each copied source row becomes.
struct IdentityMapBuilder {
    let plan: CopyPlan
    let onConflict: CopyConflictPolicy
    /// The target's seed record, when the copy has a lineage: its matches come first.
    let lineage: LineageMatches?

    /// The map of `table`'s rows; TEMP tables it needs are created on `connection`.
    func build(_ table: RootTable, on connection: SQLiteConnection, batches: CopyBatches) throws -> IdentityMap {
        let (source, target) = (plan.sourceLayout, plan.targetLayout)
        let next = try table.targetRoot.map { try target.highestKey(ofRoot: $0, on: connection) } ?? 0
        if lineage == nil, table.copiesEveryRow,
            !table.isKeyed || (next == 0 && table.copied.allSatisfy(plan.keyIsUnique))
        {
            return .offset(next)
        }
        let name = target.reservedName("map_" + table.name)
        let map = "temp." + SQLiteIdentifier.quote(name)
        let (key, entity) = (source.keyColumn, source.entityColumn)
        try connection.execute(
            "CREATE TEMP TABLE \(SQLiteIdentifier.quote(name))(source_key INTEGER PRIMARY KEY, target_key INTEGER NOT NULL, fresh INTEGER NOT NULL)"
        )
        try lineage?.prefill(map, for: table, on: connection)
        for copied in table.copied {
            guard let attributes = plan.key(of: copied.name), let lookup = plan.lookupEntity(of: copied.name) else {
                continue
            }
            let matches = attributes.compactMap { name in
                copied.attribute(named: name).flatMap { attribute in
                    table.targetColumn(ofAttribute: name, of: copied).map {
                        "t.\($0) = \(table.sourceValue(of: attribute, alias: "s"))"
                    }
                }
            }
            let matched = try connection.run(
                """
                INSERT OR IGNORE INTO \(map)(source_key, target_key, fresh)
                SELECT s.\(key), t.\(target.keyColumn), 0 FROM \(table.source) AS s JOIN \(table.target) AS t
                ON \(matches.joined(separator: " AND ")) AND t.\(target.entityColumn) IN (\(target.kindList(of: lookup)))
                WHERE s.\(entity) = \(source.number(of: copied)) AND \(table.copiedCondition("s"))
                """)
            if matched > 0, onConflict == .fail {
                throw DeepCopyError(
                    "\(copied.name) \(try firstMatch(of: copied, key: attributes, map: map, table: table, on: connection)) already exists in the target (onConflict: fail)"
                )
            }
        }
        let excluded = lineage?.exclusion(of: table, alias: "s").map { " AND " + $0 } ?? ""
        try connection.run(
            """
            INSERT INTO \(map)(source_key, target_key, fresh)
            SELECT source_key, \(next) + dense_rank() OVER (ORDER BY grp), source_key = grp FROM (
            SELECT s.\(key) AS source_key, \(group(of: table)) AS grp FROM \(table.source) AS s
            WHERE \(table.copiedCondition("s")) AND s.\(key) NOT IN (SELECT source_key FROM \(map))\(excluded))
            """)
        let matched = try connection.counts(
            "SELECT s.\(entity), count(*) FROM \(map) AS m JOIN \(table.source) AS s ON s.\(key) = m.source_key WHERE NOT m.fresh GROUP BY s.\(entity)"
        )
        for (number, count) in matched {
            guard let copied = plan.sourceEntity(number: number) else { continue }
            batches.count(count, \.matched, of: copied)
            batches.count(count, \.unchanged, of: copied)
        }
        return .table(name)
    }

    /// The SQL grouping source rows into new target rows: each row on its own, except rows
    /// sharing a key that is not unique (without nils), which group under the lowest key.
    private func group(of table: RootTable) -> String {
        let layout = plan.sourceLayout
        let (key, entity) = ("s.\(layout.keyColumn)", "s.\(layout.entityColumn)")
        let shared = table.copied.filter { !plan.keyIsUnique($0) }
        guard !shared.isEmpty else { return key }
        let keys = shared.map { copied in
            (plan.key(of: copied.name) ?? []).compactMap { name in
                copied.attribute(named: name).map { "s.\(SQLiteIdentifier.quote(layout.column(of: $0)))" }
            }
        }
        let partition = zip(shared, keys).flatMap { copied, columns in
            columns.map { "CASE WHEN \(entity) = \(layout.number(of: copied)) THEN \($0) END" }
        }
        let window = "min(\(key)) OVER (PARTITION BY " + ([entity] + partition).joined(separator: ", ") + ")"
        let branches = zip(shared, keys).map { copied, columns in
            "WHEN \(entity) = \(layout.number(of: copied))" + columns.map { " AND \($0) IS NOT NULL" }.joined()
                + " THEN \(window)"
        }
        return "CASE " + branches.joined(separator: " ") + " ELSE \(key) END"
    }

    /// The key of `entity`'s first matched source row, as text for a message.
    private func firstMatch(
        of entity: ModelEntity, key: [String], map: String, table: RootTable, on connection: SQLiteConnection
    )
        throws -> String
    {
        let layout = plan.sourceLayout
        let attributes = key.compactMap(entity.attribute(named:))
        let columns = attributes.map { "s.\(SQLiteIdentifier.quote(layout.column(of: $0)))" }.joined(separator: ", ")
        let statement = try connection.prepare(
            "SELECT \(columns) FROM \(map) AS m JOIN \(table.source) AS s ON s.\(layout.keyColumn) = m.source_key"
                + " WHERE s.\(layout.entityColumn) = \(layout.number(of: entity)) ORDER BY m.source_key LIMIT 1"
        )
        guard try statement.step() else { return "[]" }
        let values = attributes.enumerated().map { column, attribute in
            statement.attributeValue(at: Int32(column), type: attribute.type, encoding: layout.values)
                .map { "\($0)" } ?? "nil"
        }
        return "[" + values.joined(separator: ", ") + "]"
    }
}
