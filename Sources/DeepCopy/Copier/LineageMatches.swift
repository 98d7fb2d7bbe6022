// A copy with a lineage (CopyLineage): before the identity maps, each root table's source rows
// are matched to the base rows of the target's seed record (GraphStore's SeedRecord) in a TEMP
// table `lineage_<table>` — by key for entities with one, else by content (equal values, ranked
// in seed-key order), then, for rows whose content changed, by the seed key the base row kept.
// A matched row's object is either there (the same object: its key unchanged; for entities
// without a key, its row not replaced by a later one with the key) or gone (the target deleted
// it). The identity maps then take the objects found, leave out the gone ones when target
// changes are kept, and match the rest by key as usual; a matched object's column keeps the
// target's value when it differs from its base row's (the target changed it since the source
// last gave it); the base rows are rewritten in the copy's last transaction.
// Invariants: the record is read before the first batch and written only in the last
// transaction, so a copy that fails, is cancelled or killed leaves it as it was; base rows of
// objects the source no longer has stay, with seed key 0.
import GraphStore

/// What a lineage copy knows of the target's seed record, and the SQL that uses and keeps it.
final class LineageMatches {
    /// Where a matched source row stands.
    private enum State: Int {
        /// The base row's object is in the target.
        case found = 1
        /// The target deleted the base row's object (or gave its key to another object).
        case gone = 2
    }

    let lineage: CopyLineage
    private let plan: CopyPlan
    private let record: SeedRecord
    /// The quoted columns of each target root's record table, by the target root's index (none:
    /// the target has no record of it).
    private var recorded: [Int: Set<String>] = [:]

    init(lineage: CopyLineage, plan: CopyPlan) {
        self.lineage = lineage
        self.plan = plan
        record = SeedRecord(layout: plan.targetLayout)
    }

    /// Reads which record tables the target has, and their columns.
    func prepare(on connection: SQLiteConnection) throws {
        for root in plan.targetLayout.roots {
            let columns = try record.existingColumns(ofRoot: root, on: connection)
            if !columns.isEmpty { recorded[root.index] = Set(columns.map(SQLiteIdentifier.quote)) }
        }
    }

    /// `temp."seedkit_lineage_T"`: the matched source rows of `table`.
    private func rows(of table: RootTable) -> String {
        "temp." + SQLiteIdentifier.quote(plan.targetLayout.reservedName("lineage_" + table.name))
    }

    /// The target's record table of `table`, when it has one.
    private func base(of table: RootTable) -> String? {
        guard let root = table.targetRoot, recorded[root.index] != nil else { return nil }
        return record.table(ofRoot: root)
    }

    /// Matches the copied source rows of `table` to base rows, and finds which objects are gone.
    func match(_ table: RootTable, on connection: SQLiteConnection, batches: CopyBatches) throws {
        let rows = rows(of: table)
        try connection.execute(
            """
            CREATE TEMP TABLE \(rows)(source_key INTEGER PRIMARY KEY, entity INTEGER NOT NULL,
            target_key INTEGER NOT NULL, state INTEGER NOT NULL)
            """)
        guard base(of: table) != nil else { return }
        for copied in table.copied {
            guard let targetEntity = plan.targetEntity(for: copied) else { continue }
            let number = plan.targetLayout.number(of: targetEntity)
            if plan.key(of: copied.name) != nil {
                try matchByKey(copied, number: number, in: table, on: connection)
            } else {
                try matchByContent(copied, number: number, in: table, on: connection)
            }
            try findGone(copied, number: number, in: table, on: connection)
        }
        guard lineage.keepsTargetChanges else { return }
        for (number, count) in try connection.counts(
            "SELECT entity, count(*) FROM \(rows) WHERE state = \(State.gone.rawValue) GROUP BY entity")
        {
            if let copied = plan.sourceEntity(number: number) { batches.count(count, \.notRestored, of: copied) }
        }
    }

    /// The columns an object of `copied` is identified by — its key's, or for an entity without
    /// one all its stored attributes' — that the base rows of `table` have, as quoted target
    /// columns, each with the source row `s`'s value (converted to the target's encoding).
    private func identityColumns(of copied: ModelEntity, in table: RootTable) -> [(column: String, value: String)] {
        let has = table.targetRoot.flatMap { recorded[$0.index] } ?? []
        let names = plan.key(of: copied.name) ?? copied.attributes.filter { !$0.isTransient }.map(\.name).sorted()
        return names.compactMap { name in
            copied.attribute(named: name).flatMap { attribute in
                table.targetColumn(ofAttribute: name, of: copied).map {
                    ($0, table.sourceValue(of: attribute, alias: "s"))
                }
            }
        }.filter { has.contains($0.column) }
    }

    /// `INSERT OR IGNORE` of matched rows of `copied` into the lineage rows of `table`: the
    /// source and target keys `sourceKey` and `targetKey` of the rows `query` (a `FROM` clause
    /// and what follows) gives.
    private func insertMatches(
        _ copied: ModelEntity, in table: RootTable, sourceKey: String, targetKey: String, _ query: String,
        on connection: SQLiteConnection
    ) throws {
        try connection.execute(
            """
            INSERT OR IGNORE INTO \(rows(of: table))(source_key, entity, target_key, state)
            SELECT \(sourceKey), \(plan.sourceLayout.number(of: copied)), \(targetKey), \(State.found.rawValue) \(query)
            """)
    }

    /// The condition on the source row `s` of being a copied row of `copied`.
    private func sourceRows(of copied: ModelEntity, in table: RootTable) -> String {
        "s.\(plan.sourceLayout.entityColumn) = \(plan.sourceLayout.number(of: copied)) AND \(table.copiedCondition("s"))"
    }

    /// Matches the source rows of `copied`, an entity with a key, to the base rows (of target
    /// entity number `number`) with the same key.
    private func matchByKey(_ copied: ModelEntity, number: Int64, in table: RootTable, on connection: SQLiteConnection)
        throws
    {
        guard let base = base(of: table) else { return }
        let target = plan.targetLayout
        let pairs = identityColumns(of: copied, in: table).map { "b.\($0.column) IS \($0.value)" }
        guard !pairs.isEmpty else { return }
        try insertMatches(
            copied, in: table, sourceKey: "s.\(plan.sourceLayout.keyColumn)", targetKey: "b.\(target.keyColumn)",
            """
            FROM \(table.source) AS s JOIN \(base) AS b
            ON b.\(target.entityColumn) = \(number) AND \(pairs.joined(separator: " AND "))
            WHERE \(sourceRows(of: copied, in: table))
            """, on: connection)
    }

    /// Matches the source rows of `copied`, an entity without a key, to base rows (of target
    /// entity number `number`) of the same values — the n-th source row in source-key order to
    /// the n-th base row in seed-key order among equal ones — then the rest to the base row that
    /// kept its source key (a row the seed changed, at the same place in the seed).
    private func matchByContent(
        _ copied: ModelEntity, number: Int64, in table: RootTable, on connection: SQLiteConnection
    ) throws {
        guard let base = base(of: table) else { return }
        let (key, target) = (plan.sourceLayout.keyColumn, plan.targetLayout)
        let seedKey = SQLiteIdentifier.quote(record.seedKeyColumn)
        let columns = identityColumns(of: copied, in: table)
        let partition = { (values: [String]) in
            values.isEmpty ? "" : "PARTITION BY " + values.joined(separator: ", ") + " "
        }
        let sourceValues = columns.enumerated().map { "\($1.value) AS c\($0)" }
        let baseValues = columns.enumerated().map { "b.\($1.column) AS c\($0)" }
        let equal = columns.indices.map { "w.c\($0) IS v.c\($0)" } + ["w.r = v.r"]
        try insertMatches(
            copied, in: table, sourceKey: "v.k", targetKey: "w.k",
            """
            FROM (SELECT \((["s.\(key) AS k"] + sourceValues).joined(separator: ", ")),
            row_number() OVER (\(partition(columns.map(\.value)))ORDER BY s.\(key)) AS r
            FROM \(table.source) AS s WHERE \(sourceRows(of: copied, in: table))) AS v
            JOIN (SELECT \((["b.\(target.keyColumn) AS k"] + baseValues).joined(separator: ", ")),
            row_number() OVER (\(partition(columns.map { "b.\($0.column)" }))ORDER BY b.\(seedKey) = 0, b.\(seedKey)) AS r
            FROM \(base) AS b WHERE b.\(target.entityColumn) = \(number)) AS w
            ON \(equal.joined(separator: " AND "))
            """, on: connection)
        try insertMatches(
            copied, in: table, sourceKey: "s.\(key)", targetKey: "b.\(target.keyColumn)",
            """
            FROM \(table.source) AS s JOIN \(base) AS b ON b.\(seedKey) = s.\(key) AND b.\(target.entityColumn) = \(number)
            WHERE \(sourceRows(of: copied, in: table))
            AND b.\(target.keyColumn) NOT IN (SELECT target_key FROM \(rows(of: table)))
            """, on: connection)
    }

    /// Marks as gone the matched rows of `copied` (target entity number `number`) whose object is
    /// no longer there: no row of that entity with the key, or one that is not the object — for
    /// an entity with a key, its key differs from the base row's; for one without, its version
    /// is lower than the base row's, or the same (and the first) with other values.
    private func findGone(_ copied: ModelEntity, number: Int64, in table: RootTable, on connection: SQLiteConnection)
        throws
    {
        guard let base = base(of: table) else { return }
        let target = plan.targetLayout
        let columns = identityColumns(of: copied, in: table).map(\.column)
        let equal = columns.isEmpty ? "1" : columns.map { "t.\($0) IS b.\($0)" }.joined(separator: " AND ")
        let (version, baseVersion) = ("t.\(target.versionColumn)", "b.\(target.versionColumn)")
        let same =
            plan.key(of: copied.name) != nil
            ? equal
            : "(\(version) > \(baseVersion) OR (\(version) = \(baseVersion) AND (\(baseVersion) > 1 OR (\(equal)))))"
        try connection.execute(
            """
            UPDATE \(rows(of: table)) AS l SET state = \(State.gone.rawValue)
            WHERE l.entity = \(plan.sourceLayout.number(of: copied)) AND NOT EXISTS (
            SELECT 1 FROM \(table.target) AS t JOIN \(base) AS b ON b.\(target.keyColumn) = t.\(target.keyColumn)
            WHERE t.\(target.keyColumn) = l.target_key AND t.\(target.entityColumn) = \(number) AND \(same))
            """)
    }

    /// Puts the source rows of `table` whose object the record found into the identity map
    /// `map` as matches, before the rest are matched by key.
    func prefill(_ map: String, for table: RootTable, on connection: SQLiteConnection) throws {
        try connection.execute(
            "INSERT INTO \(map)(source_key, target_key, fresh) SELECT source_key, target_key, 0 FROM \(rows(of: table)) WHERE state = \(State.found.rawValue)"
        )
    }

    /// SQL, true for the source rows `alias` of `table` the copy leaves out (their object was
    /// deleted and target changes are kept), or nil when it leaves none out.
    func exclusion(of table: RootTable, alias: String) -> String? {
        guard base(of: table) != nil, lineage.keepsTargetChanges else { return nil }
        return
            "\(alias).\(plan.sourceLayout.keyColumn) NOT IN (SELECT source_key FROM \(rows(of: table)) WHERE state = \(State.gone.rawValue))"
    }

    /// `LEFT JOIN` of the base row `b` of the matched target row `m.target_key`, for the SQL
    /// of ``changed(_:in:value:)`` (empty when the target has no record of `table`).
    func baseJoin(of table: RootTable) -> String {
        guard let base = base(of: table) else { return "" }
        return " LEFT JOIN \(base) AS b ON b.\(plan.targetLayout.keyColumn) = m.target_key"
    }

    /// SQL, true when `value` — the target's, or the source's new one — of the quoted target
    /// column `column` of `table` differs from the base row `b` (no base row: the object is not
    /// the record's, every value counts as changed; a column the base rows predate: unchanged).
    func changed(_ column: String, in table: RootTable, value: String) -> String {
        guard let root = table.targetRoot, let has = recorded[root.index] else { return "1" }
        guard has.contains(column) else { return "0" }
        return "(b.\(plan.targetLayout.keyColumn) IS NULL OR \(value) IS NOT b.\(column))"
    }

    /// SQL, true when a matched target row `t` keeps its value of the quoted column `column`
    /// instead of the source's: the target changed it and the policy keeps target changes.
    func keeps(_ column: String, in table: RootTable) -> String {
        lineage.keepsTargetChanges ? changed(column, in: table, value: "t.\(column)") : "0"
    }

    /// Rewrites the base rows of the objects the copy wrote or matched in `tables` (in the copy's
    /// last transaction): each holds what the source gave the object — for a column the target
    /// kept, what the source would have given, so it stays changed — with the object's version
    /// and source key; a deleted object left out keeps its base row with its new source key; base
    /// rows of objects the source no longer has get source key 0.
    func record(
        _ tables: [RootTable], maps: [Int: IdentityMap], links: CopyLinks, on connection: SQLiteConnection
    ) throws {
        let (sourceKey, target) = (plan.sourceLayout.keyColumn, plan.targetLayout)
        let quote = SQLiteIdentifier.quote
        let seedKey = quote(record.seedKeyColumn)
        for table in tables {
            guard let root = table.targetRoot, let map = maps[table.root.index], case .table(let name) = map else {
                continue
            }
            try record.prepare(ofRoot: root, on: connection)
            let base = record.table(ofRoot: root)
            let columns = record.valueColumns(ofRoot: root).map(quote)
            let values = columns.map { value(of: $0, in: table, maps: maps, links: links) }
            let fixed = [target.keyColumn, target.entityColumn, target.versionColumn].map(quote)
            try connection.execute(
                """
                INSERT OR REPLACE INTO \(base)(\((fixed + columns + [seedKey]).joined(separator: ", ")))
                SELECT \((fixed.map { "t." + $0 } + values + ["m.source_key"]).joined(separator: ", "))
                FROM temp.\(quote(name)) AS m JOIN \(table.source) AS s ON s.\(sourceKey) = m.source_key
                JOIN \(table.target) AS t ON t.\(target.keyColumn) = m.target_key
                """)
            let rows = rows(of: table)
            try connection.execute(
                """
                UPDATE \(base) AS b SET \(seedKey) = l.source_key FROM \(rows) AS l
                WHERE l.state = \(State.gone.rawValue) AND b.\(target.keyColumn) = l.target_key
                """)
            let numbers = table.copied.compactMap(plan.targetEntity(for:)).map(target.number(of:))
            try connection.execute(
                """
                UPDATE \(base) SET \(seedKey) = 0 WHERE \(seedKey) <> 0 AND \(target.entityColumn) IN (\(StoreLayout.list(numbers)))
                AND \(target.keyColumn) NOT IN (SELECT target_key FROM temp.\(quote(name)))
                AND \(target.keyColumn) NOT IN (SELECT target_key FROM \(rows))
                """)
        }
    }

    /// The SQL of what the source row `s` gives the quoted target column `column` of `table`
    /// (target row `t`): an attribute's converted value, by the row's entity; a to-one's
    /// destination through its map (the target's own link when the destination was not
    /// copied); the target's value for what the source does not give.
    private func value(of column: String, in table: RootTable, maps: [Int: IdentityMap], links: CopyLinks) -> String {
        let current = "t.\(column)"
        if let link = links.foreignKeys(on: table.root.index).first(where: {
            SQLiteIdentifier.quote($0.targetColumn) == column
        }), let map = maps[link.destination] {
            return "coalesce(\(map.target(of: "s.\(SQLiteIdentifier.quote(link.sourceColumn))")), \(current))"
        }
        let branches = table.copied.compactMap { entity -> (Int64, String)? in
            guard
                let attribute = plan.targetEntity(for: entity)?.attributes.first(where: {
                    !$0.isTransient && table.targetColumn(ofAttribute: $0.name, of: entity) == column
                }), plan.attributes(of: entity.name).contains(attribute.name),
                let copied = entity.attribute(named: attribute.name)
            else { return nil }
            return (plan.sourceLayout.number(of: entity), table.sourceValue(of: copied, alias: "s"))
        }
        guard !branches.isEmpty else { return current }
        if branches.count == table.copied.count, Set(branches.map(\.1)).count == 1 { return branches[0].1 }
        let entity = "s.\(plan.sourceLayout.entityColumn)"
        return "CASE \(entity) " + branches.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ")
            + " ELSE \(current) END"
    }
}
