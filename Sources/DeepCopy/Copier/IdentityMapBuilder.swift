// Builds the identity map of one root table (see IdentityMap) before any row is written:
// source rows matched in the target by key, then fresh keys for the others in source-key order
// (source rows sharing a key that is not unique become one new row), and the matched counts.
// A `fail` policy stops here, at the first match, before the target has been written.
// Invariant: fresh keys lie above every key the target held, so they never collide with its rows.
import GraphStore

/// Works out which target row each copied source row becomes.
struct IdentityMapBuilder {
    let plan: CopyPlan
    let onConflict: CopyConflictPolicy

    /// The map of `table`'s rows; TEMP tables it needs are created on `connection`.
    func build(_ table: RootTable, on connection: SQLiteConnection, batches: CopyBatches) throws -> IdentityMap {
        let next = try connection.integer("SELECT coalesce(max(pk), 0) FROM \(table.target)")
        if table.copiesEveryRow,
            !table.isKeyed || (next == 0 && table.copied.allSatisfy(plan.keyIsUnique))
        {
            return .offset(next)
        }
        let name = "seedkit_map_" + table.name
        let map = "temp." + SQLiteIdentifier.quote(name)
        try connection.execute(
            "CREATE TEMP TABLE \(SQLiteIdentifier.quote(name))(src INTEGER PRIMARY KEY, dst INTEGER NOT NULL, fresh INTEGER NOT NULL)"
        )
        for entity in table.copied {
            guard let key = plan.key(of: entity.name), let lookup = plan.lookupEntity(of: entity.name) else { continue }
            let matches = key.map { "t.\(SQLiteIdentifier.quote($0)) = s.\(SQLiteIdentifier.quote($0))" }
            let matched = try connection.run(
                """
                INSERT OR IGNORE INTO \(map)(src, dst, fresh)
                SELECT s.pk, t.pk, 0 FROM \(table.source) AS s JOIN \(table.target) AS t
                ON \(matches.joined(separator: " AND ")) AND t.ent IN (\(RootTable.list(lookup.kindStoreIDs)))
                WHERE s.ent = \(entity.storeID) AND \(table.copiedCondition("s"))
                """)
            if matched > 0, onConflict == .fail {
                throw DeepCopyError(
                    "\(entity.name) \(try firstMatch(of: entity, key: key, map: map, table: table, on: connection)) already exists in the target (onConflict: fail)"
                )
            }
        }
        try connection.run(
            """
            INSERT INTO \(map)(src, dst, fresh)
            SELECT src, \(next) + dense_rank() OVER (ORDER BY grp), src = grp FROM (
            SELECT s.pk AS src, \(group(of: table)) AS grp FROM \(table.source) AS s
            WHERE \(table.copiedCondition("s")) AND s.pk NOT IN (SELECT src FROM \(map)))
            """)
        let matched = try connection.counts(
            "SELECT s.ent, count(*) FROM \(map) AS m JOIN \(table.source) AS s ON s.pk = m.src WHERE NOT m.fresh GROUP BY s.ent"
        )
        for (entityID, count) in matched {
            guard let entity = plan.sourceEntity(storeID: entityID) else { continue }
            batches.count(count, \.matched, of: entity)
            batches.count(count, \.unchanged, of: entity)
        }
        return .table(name)
    }

    /// The SQL grouping source rows into new target rows: each row on its own, except rows
    /// sharing a key that is not unique (without nils), which group under the lowest key.
    private func group(of table: RootTable) -> String {
        let shared = table.copied.filter { !plan.keyIsUnique($0) }
        guard !shared.isEmpty else { return "s.pk" }
        let keys = shared.map { entity in (plan.key(of: entity.name) ?? []).map { "s.\(SQLiteIdentifier.quote($0))" } }
        let partition = zip(shared, keys).flatMap { entity, key in
            key.map { "CASE WHEN s.ent = \(entity.storeID) THEN \($0) END" }
        }
        let window = "min(s.pk) OVER (PARTITION BY " + (["s.ent"] + partition).joined(separator: ", ") + ")"
        let branches = zip(shared, keys).map { entity, key in
            "WHEN s.ent = \(entity.storeID)" + key.map { " AND \($0) IS NOT NULL" }.joined() + " THEN \(window)"
        }
        return "CASE " + branches.joined(separator: " ") + " ELSE s.pk END"
    }

    /// The key of `entity`'s first matched source row, as text for a message.
    private func firstMatch(
        of entity: ModelEntity, key: [String], map: String, table: RootTable, on connection: SQLiteConnection
    )
        throws -> String
    {
        let columns = key.map { "s.\(SQLiteIdentifier.quote($0))" }.joined(separator: ", ")
        let statement = try connection.prepare(
            "SELECT \(columns) FROM \(map) AS m JOIN \(table.source) AS s ON s.pk = m.src WHERE s.ent = \(entity.storeID) ORDER BY m.src LIMIT 1"
        )
        guard try statement.step() else { return "[]" }
        let values = key.enumerated().map { column, name in
            entity.attribute(named: name).flatMap { statement.attributeValue(at: Int32(column), type: $0.type) }
                .map { "\($0)" } ?? "nil"
        }
        return "[" + values.joined(separator: ", ") + "]"
    }
}
