// Writes a row batch with prepared statements: new rows entity by entity, then to-many links
// relationship by relationship — as join-table rows (with their position when ordered) or as the
// member's column (and position) when the inverse is a to-one.
// Invariants: runs inside the caller's transaction (ObjectContext.writeRows), so the batch
// commits with its checkpoint, or not at all. Statements are prepared once per connection and
// held here, and rows and join rows go in groups of up to `groupSize` per statement
// (`INSERT … VALUES (…), (…), …`): SQLite's cost per statement run is larger than per row, so
// a million rows take about half the time they take one by one.
import GraphStore

/// Writes row batches to one store.
final class RowBatchWriter {
    /// Rows per multi-row INSERT (fewer when an entity has so many columns that the statement
    /// would pass SQLite's limit on parameters).
    static let groupSize = 32
    private static let parameterLimit = 32_000

    private let model: ObjectModel
    private let storeLayout: StoreLayout
    private let layouts: [EntityRowLayout]
    /// The connection the statements below belong to.
    private var connection: SQLiteConnection?
    /// Prepared statements (a handful: one or two per entity and relationship).
    private var statements: [StatementKey: SQLiteStatement] = [:]

    /// Names a prepared statement without building its SQL text.
    private struct StatementKey: Hashable {
        /// The entity whose rows it inserts, or the relationship whose links it writes.
        let target: ObjectIdentifier
        /// Rows per run.
        let rows: Int
    }

    /// A writer for stores laid out by `layout`.
    init(layout: StoreLayout) {
        self.model = layout.model
        storeLayout = layout
        layouts = model.entities.map(layout.rows(of:))
    }

    /// Writes `batch` on `connection`.
    func write(_ batch: RowBatch, on connection: SQLiteConnection) throws {
        if self.connection !== connection {
            self.connection = connection
            statements = [:]
        }
        var rowsByEntity = Array(repeating: [Int](), count: model.entities.count)
        for (position, row) in batch.rows.enumerated() { rowsByEntity[row.entity.index].append(position) }
        for (entityIndex, positions) in rowsByEntity.enumerated() where !positions.isEmpty {
            try insertRows(positions, of: batch.rows, layout: layouts[entityIndex], on: connection)
        }
        var linksByRelationship: [ObjectIdentifier: [Int]] = [:]
        var relationships: [ModelRelationship] = []
        for (position, link) in batch.links.enumerated() {
            let id = ObjectIdentifier(link.relationship)
            if linksByRelationship[id] == nil { relationships.append(link.relationship) }
            linksByRelationship[id, default: []].append(position)
        }
        for relationship in relationships {
            let positions = linksByRelationship[ObjectIdentifier(relationship)] ?? []
            try writeLinks(positions, of: batch.links, relationship: relationship, on: connection)
        }
    }

    // MARK: - Rows

    private func insertRows(
        _ positions: [Int], of rows: [PendingRow], layout: EntityRowLayout, on connection: SQLiteConnection
    ) throws {
        let width = 3 + layout.writtenColumnCount
        let group = max(1, min(Self.groupSize, Self.parameterLimit / width))
        var start = 0
        while start < positions.count {
            let count = positions.count - start >= group ? group : 1
            let statement = try self.statement(
                StatementKey(target: ObjectIdentifier(model.entities[layout.entityIndex]), rows: count), on: connection
            ) {
                Self.groupedSQL(layout.insertSQL, rows: count, width: width)
            }
            for offset in 0..<count {
                bind(rows[positions[start + offset]], layout: layout, at: Int32(offset * width), to: statement)
            }
            try statement.execute()
            start += count
        }
    }

    private func bind(_ row: PendingRow, layout: EntityRowLayout, at base: Int32, to statement: SQLiteStatement) {
        statement.bind(row.row.key, at: base + 1)
        statement.bind(row.row.entityID, at: base + 2)
        statement.bind(Int64(1), at: base + 3)
        var parameter = base + 4
        for slot in layout.storedAttributes {
            statement.bind(
                row.values[slot], at: parameter, encoding: storeLayout.encoding(of: row.entity.attributes[slot]))
            parameter += 1
        }
        for slot in layout.foreignKeys {
            if let key = row.toOne[slot] {
                statement.bind(key, at: parameter)
            } else {
                statement.bindNull(at: parameter)
            }
            parameter += 1
        }
    }

    // MARK: - Links

    private func writeLinks(
        _ positions: [Int], of links: [PendingLink], relationship: ModelRelationship, on connection: SQLiteConnection
    ) throws {
        switch storeLayout.storage(of: relationship) {
        case .joinTable(let table, let source, let destination, let order):
            let columns = [source, destination] + (order.map { [$0] } ?? [])
            let single =
                "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(table))(\(columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            var pairs: [(owner: Int64, member: Int64, position: Int64)] = []
            for position in positions {
                let link = links[position]
                for (index, member) in link.members.enumerated() {
                    pairs.append((link.owner, member, Int64(index)))
                }
            }
            let width = columns.count
            var start = 0
            while start < pairs.count {
                let count = pairs.count - start >= Self.groupSize ? Self.groupSize : 1
                let statement = try self.statement(
                    StatementKey(target: ObjectIdentifier(relationship), rows: count), on: connection
                ) { Self.groupedSQL(single, rows: count, width: width) }
                for offset in 0..<count {
                    let pair = pairs[start + offset]
                    let base = Int32(offset * width)
                    statement.bind(pair.owner, at: base + 1)
                    statement.bind(pair.member, at: base + 2)
                    if order != nil { statement.bind(pair.position, at: base + 3) }
                }
                try statement.execute()
                start += count
            }
        case .inverseForeignKey(let column, let order):
            let table = SQLiteIdentifier.quote(storeLayout.table(of: model.destination(of: relationship)))
            let assignments = [column] + (order.map { [$0] } ?? [])
            let statement = try self.statement(
                StatementKey(target: ObjectIdentifier(relationship), rows: 1), on: connection
            ) {
                "UPDATE \(table) SET " + assignments.map { "\(SQLiteIdentifier.quote($0)) = ?" }.joined(separator: ", ")
                    + " WHERE \(storeLayout.keyColumn) = ?"
            }
            for position in positions {
                let link = links[position]
                for (index, member) in link.members.enumerated() {
                    statement.bind(link.owner, at: 1)
                    if order != nil { statement.bind(Int64(index), at: 2) }
                    statement.bind(member, at: order == nil ? 2 : 3)
                    try statement.execute()
                }
            }
        case .foreignKey, .transient:
            return
        }
    }

    // MARK: - Statements

    private func statement(
        _ key: StatementKey, on connection: SQLiteConnection, sql: () -> String
    ) throws -> SQLiteStatement {
        if let statement = statements[key] { return statement }
        let statement = try connection.prepare(sql())
        statements[key] = statement
        return statement
    }

    /// `single` (an `INSERT … VALUES (?, …)` of one row of `width` values) for `rows` rows.
    private static func groupedSQL(_ single: String, rows: Int, width: Int) -> String {
        guard rows > 1 else { return single }
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return single + String(repeating: ", " + tuple, count: rows - 1)
    }
}
