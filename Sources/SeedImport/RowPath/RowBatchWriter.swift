// Writes a row batch with cached prepared statements: each new row as one INSERT of all its
// columns, then each to-many link as a join-table row (with its position when ordered) or as
// the member's column (and position) when the inverse is a to-one.
// Invariant: runs inside the caller's transaction (ObjectContext.writeRows), so the batch
// commits with its checkpoint, or not at all.
import GraphStore

/// Writes row batches to one store.
struct RowBatchWriter {
    private let model: ObjectModel
    private let layouts: [EntityRowLayout]

    /// A writer for stores of `model`.
    init(model: ObjectModel) {
        self.model = model
        layouts = model.entities.map { EntityRowLayout(entity: $0, model: model) }
    }

    /// Writes `batch` on `connection`.
    func write(_ batch: RowBatch, on connection: SQLiteConnection) throws {
        for row in batch.rows { try insert(row, on: connection) }
        for link in batch.links { try write(link, on: connection) }
    }

    private func insert(_ row: PendingRow, on connection: SQLiteConnection) throws {
        let layout = layouts[row.entity.index]
        let statement = try connection.cachedStatement(layout.insertSQL)
        statement.bind(row.row.key, at: 1)
        statement.bind(row.row.entityID, at: 2)
        statement.bind(Int64(1), at: 3)
        var parameter: Int32 = 4
        for slot in layout.storedAttributes {
            statement.bind(row.values[slot], at: parameter)
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
        try statement.execute()
    }

    private func write(_ link: PendingLink, on connection: SQLiteConnection) throws {
        let statement: SQLiteStatement
        switch link.relationship.storage {
        case .joinTable(let table, let source, let destination, let order):
            let columns = [source, destination] + (order.map { [$0] } ?? [])
            statement = try connection.cachedStatement(
                "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(table))(\(columns.joined(separator: ", "))) VALUES ("
                    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
            for (position, member) in link.members.enumerated() {
                statement.bind(link.owner, at: 1)
                statement.bind(member, at: 2)
                if order != nil { statement.bind(Int64(position), at: 3) }
                try statement.execute()
            }
        case .inverseForeignKey(let column, let order):
            let table = SQLiteIdentifier.quote(model.destination(of: link.relationship).tableName)
            let assignments = [column] + (order.map { [$0] } ?? [])
            statement = try connection.cachedStatement(
                "UPDATE \(table) SET " + assignments.map { "\(SQLiteIdentifier.quote($0)) = ?" }.joined(separator: ", ")
                    + " WHERE pk = ?")
            for (position, member) in link.members.enumerated() {
                statement.bind(link.owner, at: 1)
                if order != nil { statement.bind(Int64(position), at: 2) }
                statement.bind(member, at: order == nil ? 2 : 3)
                try statement.execute()
            }
        case .foreignKey, .transient:
            return
        }
    }
}
