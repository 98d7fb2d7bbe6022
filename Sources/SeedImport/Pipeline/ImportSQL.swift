// Every place where the import needs the store's SQL layout — the table of an entity, the column
// of an attribute or relationship, join tables and their order columns, entity numbers, how
// values are stored — in one file, so that the layout can change behind it. The statements that
// resolve staged references set-based are built here from the staging table's own columns
// (`s.owner`, `s.k0`…).
import Foundation
import GraphStore

/// The SQL the import runs against the store's layout.
enum ImportSQL {
    /// The next free key of every root table of `layout`, by table name.
    static func nextFreeKeys(on connection: SQLiteConnection, layout: StoreLayout) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for root in layout.roots {
            keys[layout.table(of: root)] = try layout.highestKey(ofRoot: root, on: connection) + 1
        }
        return keys
    }

    /// Brings the layout's key counters (if it keeps any) up to the rows written into the tables
    /// of `entities` (inside the transaction that wrote them).
    static func coverKeys(of entities: Set<Int>, layout: StoreLayout, on connection: SQLiteConnection) throws {
        let roots = Set(entities.map { layout.model.root(of: layout.model.entities[$0]).index })
        for root in roots.sorted() {
            try layout.coverKeys(ofRoot: layout.model.entities[root], on: connection)
        }
    }

    /// The entity numbers of `entity` and its sub-entities: the rows a lookup of `entity` finds.
    static func entityNumbers(of entity: ModelEntity, in layout: StoreLayout) -> Set<Int64> {
        Set(layout.kindNumbers(of: entity))
    }

    // MARK: - Writing rows

    /// The values of a row of `entity` in its insert statement after its key, entity number and
    /// version: the slots of its stored attributes, then those of its to-ones kept as columns.
    static func rowColumns(of entity: ModelEntity, in layout: StoreLayout) -> (attributes: [Int], toOnes: [Int]) {
        let rows = layout.rows(of: entity)
        return (rows.storedAttributes, rows.foreignKeys)
    }

    /// Whether the row path can write rows of `entity`: its insert statement holds nothing but
    /// its key, entity number, version, attributes and to-one keys (no companion entity columns).
    static func rowPathWrites(rowsOf entity: ModelEntity, in layout: StoreLayout) -> Bool {
        layout.rows(of: entity).companionColumns.allSatisfy { $0 == nil }
    }

    /// Whether the row path writes both sides of `relationship` (with `inverse`) by writing one
    /// row: a to-one kept in the owner's column whose inverse (if any) is an unordered to-many; a
    /// to-many in a join table whose inverse is not ordered; or a to-many kept in its
    /// destinations' column.
    static func rowPathWrites(_ relationship: ModelRelationship, inverse: ModelRelationship?, in layout: StoreLayout)
        -> Bool
    {
        switch layout.storage(of: relationship) {
        case .foreignKey:
            !relationship.isToMany && inverse.map { $0.isToMany && !$0.isOrdered } ?? true
        case .joinTable:
            !(inverse?.isOrdered ?? false)
        case .inverseForeignKey:
            relationship.isToMany
        case .transient:
            false
        }
    }

    /// `INSERT INTO table(key, entity, version, <stored attributes>, <to-one columns>) VALUES (…), …`
    /// for `count` rows of `entity`.
    static func insertRows(of entity: ModelEntity, in layout: StoreLayout, count: Int) -> String {
        let rows = layout.rows(of: entity)
        return grouped(rows.insertSQL, rows: count, width: 3 + rows.writtenColumnCount)
    }

    /// How the row path writes the links of a to-many relationship.
    enum LinkShape {
        /// Join-table rows: owner, member and, when `ordered`, the member's position.
        case joinRows(ordered: Bool)
        /// The member's column set to the owner (and its position column, when `ordered`).
        case memberColumn(ordered: Bool)
    }

    /// How the links of `relationship` are written (nil: not by the row path).
    static func linkShape(of relationship: ModelRelationship, in layout: StoreLayout) -> LinkShape? {
        switch layout.storage(of: relationship) {
        case .joinTable(_, _, _, let order): .joinRows(ordered: order != nil)
        case .inverseForeignKey(_, let order): .memberColumn(ordered: order != nil)
        case .foreignKey, .transient: nil
        }
    }

    /// `INSERT OR IGNORE INTO join(source, destination[, order]) VALUES (…), …` for `count` links.
    static func insertLinks(of relationship: ModelRelationship, in layout: StoreLayout, count: Int) -> String {
        guard case .joinTable(let table, let source, let destination, let order) = layout.storage(of: relationship)
        else {
            return ""
        }
        let columns = [source, destination] + (order.map { [$0] } ?? [])
        let single =
            "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(table))(\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return grouped(single, rows: count, width: columns.count)
    }

    /// `UPDATE members SET column = ?[, order = ?] WHERE key = ?` for a to-many kept in its members' column.
    static func updateMembers(of relationship: ModelRelationship, in layout: StoreLayout) -> String {
        guard case .inverseForeignKey(let column, let order) = layout.storage(of: relationship) else { return "" }
        let table = SQLiteIdentifier.quote(layout.table(of: layout.model.destination(of: relationship)))
        let assignments = [column] + (order.map { [$0] } ?? [])
        return "UPDATE \(table) SET " + assignments.map { "\(SQLiteIdentifier.quote($0)) = ?" }.joined(separator: ", ")
            + " WHERE \(layout.keyColumn) = ?"
    }

    /// `single` (an `INSERT … VALUES (?, …)` of one row of `width` values) for `rows` rows.
    private static func grouped(_ single: String, rows: Int, width: Int) -> String {
        guard rows > 1 else { return single }
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return single + String(repeating: ", " + tuple, count: rows - 1)
    }

    // MARK: - Reading rows back (re-runs)

    /// Whether the links of `relationship` can be read back row by row: a to-one's column, a
    /// to-many's join rows or members' column.
    static func linksReadable(_ relationship: ModelRelationship, in layout: StoreLayout) -> Bool {
        switch layout.storage(of: relationship) {
        case .foreignKey: !relationship.isToMany
        case .joinTable, .inverseForeignKey: relationship.isToMany
        case .transient: false
        }
    }

    /// A query for rows of an entity by key: what to select from which table, and where each
    /// value is in a result row — the row's key at 0, its entity number at 1, the key's parts
    /// from 2.
    struct RowsByKey {
        /// The selected columns, quoted and joined.
        let select: String
        /// The root table, quoted.
        let table: String
        /// The key's columns (unquoted: the query quotes them).
        let keyColumns: [String]
        /// The result column of each attribute slot selected (nil: not selected).
        let attributeColumns: [Int32?]
        /// The result column of the first to-one selected; the others follow in order.
        let firstToOne: Int32
    }

    /// Rows of `entity` by the key of `keySlots`, with the attributes of `attributeSlots` and the
    /// columns of `toOnes`; nil when a to-one is not kept in a column.
    static func rowsByKey(
        of entity: ModelEntity, keySlots: [Int], attributeSlots: [Int], toOnes: [ModelRelationship],
        in layout: StoreLayout
    ) -> RowsByKey? {
        let keyColumns = keySlots.map { layout.column(of: entity.attributes[$0]) }
        var columns = [layout.keyColumn, layout.entityColumn] + keyColumns.map(SQLiteIdentifier.quote)
        var attributeColumns = [Int32?](repeating: nil, count: entity.attributes.count)
        for slot in attributeSlots {
            attributeColumns[slot] = Int32(columns.count)
            columns.append(SQLiteIdentifier.quote(layout.column(of: entity.attributes[slot])))
        }
        let firstToOne = Int32(columns.count)
        for relationship in toOnes {
            guard case .foreignKey(let column) = layout.storage(of: relationship) else { return nil }
            columns.append(SQLiteIdentifier.quote(column))
        }
        return RowsByKey(
            select: columns.joined(separator: ", "), table: SQLiteIdentifier.quote(layout.table(of: entity)),
            keyColumns: keyColumns, attributeColumns: attributeColumns, firstToOne: firstToOne)
    }

    /// Where the members of a to-many `relationship` are: the table, the owner's and the member's
    /// columns, and the order column of an ordered one (nil for a relationship not kept in rows).
    static func members(of relationship: ModelRelationship, in layout: StoreLayout) -> (
        table: String, owner: String, member: String, order: String?
    )? {
        switch layout.storage(of: relationship) {
        case .joinTable(let table, let source, let destination, let order):
            (table, source, destination, order)
        case .inverseForeignKey(let column, let order):
            (layout.table(of: layout.model.destination(of: relationship)), column, layout.keyColumn, order)
        case .foreignKey, .transient:
            nil
        }
    }

    // MARK: - Lookups

    /// Where a lookup's destinations are: their table, key columns and the entity numbers a row
    /// must have (nil: every row of the table qualifies).
    struct LookupColumns {
        let tableName: String
        let columnNames: [String]
        let kinds: [Int64]?
        /// The destination table's key and entity-number columns, quoted.
        let keyColumn: String
        let entityColumn: String
        var table: String { SQLiteIdentifier.quote(tableName) }
        var columns: [String] { columnNames.map(SQLiteIdentifier.quote) }

        init(_ lookup: LookupID, layout: StoreLayout) {
            let entity = layout.model.entities[lookup.entityIndex]
            tableName = layout.table(of: entity)
            columnNames = lookup.slots.map { layout.column(of: entity.attributes[$0]) }
            kinds = entity.isRoot && entity.subentityIndices.isEmpty ? nil : layout.kindNumbers(of: entity)
            keyColumn = layout.keyColumn
            entityColumn = layout.entityColumn
        }

        /// `d.c0 = s.k0 AND …` (and the entity numbers) for a destination `d` and staged row `s`.
        func matching(_ keyColumns: [String]) -> String {
            var terms = zip(columns, keyColumns).map { "d.\($0) = s.\($1)" }
            if let kinds { terms.append("d.\(entityColumn) IN (\(StoreLayout.list(kinds)))") }
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

    /// The table (in the connection's temporary schema) of the staged rows of new rows, each
    /// with `dest`, the key of the destination its key names (NULL when none does).
    static let resolvedTable = "temp.seedkit_import_resolved"

    /// Creates ``resolvedTable`` empty (replacing one left from an earlier pass).
    static let createResolved = """
        DROP TABLE IF EXISTS \(resolvedTable);
        CREATE TABLE \(resolvedTable)(mapping INTEGER NOT NULL, seq INTEGER NOT NULL, ref INTEGER NOT NULL,
          owner INTEGER NOT NULL, ordinal INTEGER NOT NULL, dest INTEGER)
        """

    /// Fills ``resolvedTable`` with the staged rows of the relationship mapping `mapping` for
    /// new rows and their destinations. The keys are looked up in key order, so that the
    /// destination's index is read page after page rather than a page per key (a large table's
    /// index does not fit the page cache).
    static func resolve(mapping: Int, lookup: LookupColumns, staging: StagedReferences) -> String {
        let keys = staging.keyColumns.joined(separator: ", ")
        return """
            INSERT INTO \(resolvedTable)(mapping, seq, ref, owner, ordinal, dest)
            SELECT \(mapping), s.seq, s.ref, s.owner, s.ordinal,
              (SELECT d.\(lookup.keyColumn) FROM \(lookup.table) d WHERE \(lookup.matching(staging.keyColumns))
               ORDER BY d.\(lookup.keyColumn) LIMIT 1)
            FROM (SELECT seq, ref, owner, ordinal, \(keys) FROM \(StagedReferences.table)
                  WHERE mapping = \(mapping) AND objects = 0 ORDER BY \(keys)) s
            """
    }

    /// The rows ``resolve(mapping:lookup:staging:)`` kept for `mapping`: `seq`, `ref`, `owner`,
    /// `ordinal` and `dest`.
    static func resolved(mapping: Int) -> String {
        "SELECT seq, ref, owner, ordinal, dest FROM \(resolvedTable) WHERE mapping = \(mapping)"
    }

    /// The statement linking the owners of `resolved` (see ``resolved(mapping:)``)
    /// to their destinations through `relationship` of `owner` (nil for a relationship the row
    /// path does not write).
    static func link(_ relationship: ModelRelationship, of owner: ModelEntity, layout: StoreLayout, resolved: String)
        -> String?
    {
        let key = layout.keyColumn
        let found = "SELECT owner, dest, ordinal FROM (\(resolved)) WHERE dest IS NOT NULL"
        // Members in the order of their keys, a member named twice kept at its first place.
        let positioned = """
            SELECT owner, dest, row_number() OVER (PARTITION BY owner ORDER BY first) - 1 AS position
            FROM (SELECT owner, dest, min(ordinal) AS first FROM (\(found)) GROUP BY owner, dest)
            """
        switch layout.storage(of: relationship) {
        case .foreignKey(let column):
            let table = SQLiteIdentifier.quote(layout.table(of: owner))
            return "UPDATE \(table) SET \(SQLiteIdentifier.quote(column)) = r.dest FROM (\(found)) AS r "
                + "WHERE \(table).\(key) = r.owner"
        case .joinTable(let table, let source, let destination, let order):
            let columns = [source, destination] + (order.map { [$0] } ?? [])
            return "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(table))(\(columns.joined(separator: ", "))) "
                + (order == nil
                    ? "SELECT owner, dest FROM (\(found))" : "SELECT owner, dest, position FROM (\(positioned))")
        case .inverseForeignKey(let column, let order):
            let table = SQLiteIdentifier.quote(layout.table(of: layout.model.destination(of: relationship)))
            let assignments =
                ["\(SQLiteIdentifier.quote(column)) = r.owner"]
                + (order.map { ["\(SQLiteIdentifier.quote($0)) = r.position"] } ?? [])
            return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) FROM (\(positioned)) AS r "
                + "WHERE \(table).\(key) = r.dest"
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
    /// destination (``resolvedTable`` found none), with their reference, owner and position, in
    /// staging order.
    static func unresolved(mapping: Int, staging: StagedReferences) -> String {
        """
        SELECT s.seq, s.ref, s.entity, s.owner, \(staging.keyColumns.map { "s.\($0)" }.joined(separator: ", ")),
          s.file, s.line, s.col, s.byte, s.record
        FROM \(resolvedTable) r JOIN \(StagedReferences.table) s ON s.seq = r.seq
        WHERE r.mapping = \(mapping) AND r.dest IS NULL
        ORDER BY s.seq
        """
    }
}

/// Binds flat values: text from a batch's arena, boxed values and run constants as the store
/// keeps them (`encoding`: the store layout's).
struct FlatBinder {
    let text: UnsafeRawBufferPointer
    let boxed: [AttributeValue]
    let constants: [AttributeValue]
    let encoding: ValueEncoding

    /// Binds `value` to the 1-based parameter `index` of `statement`.
    @inline(__always)
    func bind(_ value: FlatValue, at index: Int32, to statement: SQLiteStatement) {
        switch value.kind {
        case .absent, .null: statement.bindNull(at: index)
        case .integer: statement.bind(Int64(bitPattern: value.bits), at: index)
        case .double: statement.bind(Double(bitPattern: value.bits), at: index)
        case .boolean: statement.bind(Int64(value.bits), at: index)
        case .date:
            statement.bind(
                encoding.seconds(of: Date(timeIntervalSinceReferenceDate: Double(bitPattern: value.bits))), at: index)
        case .text: statement.bind(text: UnsafeRawBufferPointer(rebasing: text[value.textRange]), at: index)
        case .boxed: statement.bind(boxed[Int(value.bits)], at: index, encoding: encoding)
        case .constant: statement.bind(constants[Int(value.bits)], at: index, encoding: encoding)
        }
    }
}

extension String {
    /// The string as a SQL string literal.
    fileprivate var sqlLiteral: String {
        "'" + replacingOccurrences(of: "'", with: "''") + "'"
    }
}
