// Every place where the import needs the store's SQL layout — the table of an entity, the column
// of an attribute or relationship, join tables and their order columns, entity numbers — in
// one file, so that the layout can change behind it. The statements that resolve staged
// references set-based are built here from the staging table's own columns (`s.owner`, `s.k0`…).
import GraphStore

/// The SQL the import runs against the store's layout.
enum ImportSQL {
    /// The next free key of every root table of `model`, by table name.
    static func nextFreeKeys(on connection: SQLiteConnection, model: ObjectModel) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for table in Set(model.entities.map { model.root(of: $0).tableName }) {
            let statement = try connection.cachedStatement(
                "SELECT coalesce(max(pk), 0) + 1 FROM \(SQLiteIdentifier.quote(table))")
            defer { statement.reset() }
            _ = try statement.step()
            keys[table] = statement.int64(0)
        }
        return keys
    }

    /// The entity whose rows carry the entity number `storeID`.
    static func entity(storeID: Int64, in model: ObjectModel) -> ModelEntity? {
        model.entities.first { $0.storeID == storeID }
    }

    /// The name of the table holding `entity`'s rows (its root entity's).
    static func tableName(of entity: ModelEntity, in model: ObjectModel) -> String {
        model.root(of: entity).tableName
    }

    // MARK: - Writing rows

    /// `INSERT INTO table(pk, ent, opt, <stored attributes>, <to-one columns>) VALUES (…), …` for
    /// `count` rows of `entity`.
    static func insertRows(of entity: ModelEntity, in model: ObjectModel, count: Int) -> String {
        let layout = EntityRowLayout(entity: entity, model: model)
        return grouped(
            layout.insertSQL, rows: count, width: 3 + layout.storedAttributes.count + layout.foreignKeys.count)
    }

    /// How the row path writes the links of a to-many relationship.
    enum LinkShape {
        /// Join-table rows: owner, member and, when `ordered`, the member's position.
        case joinRows(ordered: Bool)
        /// The member's column set to the owner (and its position column, when `ordered`).
        case memberColumn(ordered: Bool)
    }

    /// How the links of `relationship` are written (nil: not by the row path).
    static func linkShape(of relationship: ModelRelationship) -> LinkShape? {
        switch relationship.storage {
        case .joinTable(_, _, _, let order): .joinRows(ordered: order != nil)
        case .inverseForeignKey(_, let order): .memberColumn(ordered: order != nil)
        case .foreignKey, .transient: nil
        }
    }

    /// `INSERT OR IGNORE INTO join(source, destination[, order]) VALUES (…), …` for `count` links.
    static func insertLinks(of relationship: ModelRelationship, count: Int) -> String {
        guard case .joinTable(let table, let source, let destination, let order) = relationship.storage else {
            return ""
        }
        let columns = [source, destination] + (order.map { [$0] } ?? [])
        let single =
            "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(table))(\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return grouped(single, rows: count, width: columns.count)
    }

    /// `UPDATE members SET column = ?[, order = ?] WHERE pk = ?` for a to-many kept in its members' column.
    static func updateMembers(of relationship: ModelRelationship, in model: ObjectModel) -> String {
        guard case .inverseForeignKey(let column, let order) = relationship.storage else { return "" }
        let table = SQLiteIdentifier.quote(model.destination(of: relationship).tableName)
        let assignments = [column] + (order.map { [$0] } ?? [])
        return "UPDATE \(table) SET " + assignments.map { "\(SQLiteIdentifier.quote($0)) = ?" }.joined(separator: ", ")
            + " WHERE pk = ?"
    }

    /// `single` (an `INSERT … VALUES (?, …)` of one row of `width` values) for `rows` rows.
    private static func grouped(_ single: String, rows: Int, width: Int) -> String {
        guard rows > 1 else { return single }
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return single + String(repeating: ", " + tuple, count: rows - 1)
    }

    // MARK: - Lookups

    /// Where a lookup's destinations are: their table, key columns and the entity numbers a row
    /// must have (nil: every row of the table qualifies).
    struct LookupColumns {
        let tableName: String
        let columnNames: [String]
        let kinds: [Int64]?
        var table: String { SQLiteIdentifier.quote(tableName) }
        var columns: [String] { columnNames.map(SQLiteIdentifier.quote) }

        init(_ lookup: LookupID, model: ObjectModel) {
            let entity = model.entities[lookup.entityIndex]
            tableName = model.root(of: entity).tableName
            columnNames = lookup.slots.map { entity.attributes[$0].columnName }
            kinds = entity.isRoot && entity.subentityIndices.isEmpty ? nil : entity.kindStoreIDs
        }

        /// `d.c0 = s.k0 AND …` (and the entity numbers) for a destination `d` and staged row `s`.
        func matching(_ keyColumns: [String]) -> String {
            var terms = zip(columns, keyColumns).map { "d.\($0) = s.\($1)" }
            if let kinds { terms.append("d.ent IN (\(kinds.map(String.init).joined(separator: ", ")))") }
            return terms.joined(separator: " AND ")
        }
    }

    /// Creates an index on a lookup's key columns unless one exists, returning its name when
    /// it made one (to drop after use).
    static func ensureIndex(for lookup: LookupColumns, number: Int, on connection: SQLiteConnection) throws -> String? {
        let list = try connection.prepare("SELECT name FROM pragma_index_list(\(lookup.tableName.sqlLiteral))")
        var names: [String] = []
        while try list.step() { names.append(list.string(0)) }
        for name in names {
            let info = try connection.prepare("SELECT name FROM pragma_index_info(\(name.sqlLiteral)) ORDER BY seqno")
            var columns: [String] = []
            while try info.step() { columns.append(info.string(0)) }
            if columns.starts(with: lookup.columnNames) { return nil }
        }
        let name = "seedkit_import_lookup_\(number)"
        try connection.execute(
            "CREATE INDEX IF NOT EXISTS \(name) ON \(lookup.table)(\(lookup.columns.joined(separator: ", ")))")
        return name
    }

    // MARK: - Resolving staged references

    /// The staged rows of the relationship mapping `mapping` for new rows, each with `dest`,
    /// the key of the destination its key names (NULL when none does).
    static func resolved(mapping: Int, lookup: LookupColumns, staging: StagedReferences) -> String {
        """
        SELECT s.seq AS seq, s.ref AS ref, s.owner AS owner, s.ordinal AS ordinal,
          (SELECT d.pk FROM \(lookup.table) d WHERE \(lookup.matching(staging.keyColumns)) ORDER BY d.pk LIMIT 1) AS dest
        FROM \(StagedReferences.table) s WHERE s.mapping = \(mapping) AND s.objects = 0
        """
    }

    /// The statement linking the owners of `resolved` (see ``resolved(mapping:lookup:staging:)``)
    /// to their destinations through `relationship` of `owner` (nil for a relationship the row
    /// path does not write).
    static func link(_ relationship: ModelRelationship, of owner: ModelEntity, model: ObjectModel, resolved: String)
        -> String?
    {
        let found = "SELECT owner, dest, ordinal FROM (\(resolved)) WHERE dest IS NOT NULL"
        // Members in the order of their keys, a member named twice kept at its first place.
        let positioned = """
            SELECT owner, dest, row_number() OVER (PARTITION BY owner ORDER BY first) - 1 AS position
            FROM (SELECT owner, dest, min(ordinal) AS first FROM (\(found)) GROUP BY owner, dest)
            """
        switch relationship.storage {
        case .foreignKey(let column):
            let table = SQLiteIdentifier.quote(model.root(of: owner).tableName)
            return "UPDATE \(table) SET \(SQLiteIdentifier.quote(column)) = r.dest FROM (\(found)) AS r "
                + "WHERE \(table).pk = r.owner"
        case .joinTable(let table, let source, let destination, let order):
            let columns = [source, destination] + (order.map { [$0] } ?? [])
            return "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(table))(\(columns.joined(separator: ", "))) "
                + (order == nil
                    ? "SELECT owner, dest FROM (\(found))" : "SELECT owner, dest, position FROM (\(positioned))")
        case .inverseForeignKey(let column, let order):
            let table = SQLiteIdentifier.quote(model.destination(of: relationship).tableName)
            let assignments =
                ["\(SQLiteIdentifier.quote(column)) = r.owner"]
                + (order.map { ["\(SQLiteIdentifier.quote($0)) = r.position"] } ?? [])
            return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) FROM (\(positioned)) AS r "
                + "WHERE \(table).pk = r.dest"
        case .transient:
            return nil
        }
    }

    /// The distinct keys staged for new rows by the relationship mappings `mappings` (all
    /// `missing: create` of one lookup) that name no destination, in the order first staged.
    static func missingKeys(mappings: [Int], lookup: LookupColumns, staging: StagedReferences) -> String {
        let keys = staging.keyColumns.joined(separator: ", ")
        return """
            SELECT \(keys) FROM \(StagedReferences.table) s
            WHERE s.objects = 0 AND s.mapping IN (\(mappings.map(String.init).joined(separator: ", ")))
              AND NOT EXISTS (SELECT 1 FROM \(lookup.table) d WHERE \(lookup.matching(staging.keyColumns)))
            GROUP BY \(keys) ORDER BY min(s.seq)
            """
    }

    /// The staged keys of new rows by the relationship mapping `mapping` that name no
    /// destination, with their reference, owner and position, in staging order.
    static func unresolved(mapping: Int, lookup: LookupColumns, staging: StagedReferences) -> String {
        """
        SELECT s.seq, s.ref, s.entity, s.owner, \(staging.keyColumns.map { "s.\($0)" }.joined(separator: ", ")),
          s.file, s.line, s.col, s.byte, s.record
        FROM \(StagedReferences.table) s WHERE s.mapping = \(mapping) AND s.objects = 0
          AND NOT EXISTS (SELECT 1 FROM \(lookup.table) d WHERE \(lookup.matching(staging.keyColumns)))
        ORDER BY s.seq
        """
    }
}

extension String {
    /// The string as a SQL string literal.
    fileprivate var sqlLiteral: String {
        "'" + replacingOccurrences(of: "'", with: "''") + "'"
    }
}
