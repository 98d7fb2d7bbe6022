// Writes a row batch with prepared statements: new rows entity by entity, then to-many links
// relationship mapping by relationship mapping — as join-table rows (with their position when
// ordered) or as the member's column (and position) when the inverse is a to-one. Values are
// bound straight from the flat values of the batch (text from the prepared batch's arena).
// Invariants: runs inside the commit step's transaction (ObjectContext.writeRows), so the batch
// commits with its checkpoint, or not at all. Statements are prepared once per connection and
// held here, and rows and join rows go in groups of up to `groupSize` per statement
// (`INSERT … VALUES (…), (…), …`): SQLite's cost per statement run is larger than per row, so
// a million rows take about half the time they take one by one.
import GraphStore

/// Writes row batches to one store.
final class RowWriter {
    /// Rows per multi-row INSERT (fewer when an entity has so many columns that the statement
    /// would pass SQLite's limit on parameters).
    static let groupSize = 32
    private static let parameterLimit = 32_000

    private let model: ObjectModel
    private var layout: StoreLayout { layouts.store }
    private let mappings: PlanMappings
    private let layouts: RowLayouts
    /// The connection the statements below belong to.
    private var connection: SQLiteConnection?
    /// Prepared statements (a handful: one or two per entity and relationship mapping).
    private var statements: [StatementKey: SQLiteStatement] = [:]

    /// Names a prepared statement without building its SQL text.
    private struct StatementKey: Hashable {
        /// Rows of this entity (index), or links of this relationship mapping (number, negated − 1).
        let target: Int
        /// Rows per run.
        let rows: Int
    }

    /// A writer of rows in `layouts` for `mappings`.
    init(mappings: PlanMappings, layouts: RowLayouts) {
        model = layouts.store.model
        self.mappings = mappings
        self.layouts = layouts
    }

    /// Writes `rows`, whose values are in `batch`, on `connection`.
    func write(_ rows: RowBatch, of batch: PreparedBatch, on connection: SQLiteConnection) throws {
        if self.connection !== connection {
            self.connection = connection
            statements = [:]
        }
        try batch.text.withUnsafeBytes { text in
            let binder = FlatBinder(
                text: text, boxed: batch.boxed, constants: layouts.constants, encoding: layout.values)
            for (entityIndex, entityRows) in rows.rows.enumerated() where !entityRows.keys.isEmpty {
                try insert(entityRows, of: model.entities[entityIndex], binder: binder, on: connection)
            }
        }
        try ImportSQL.coverKeys(
            of: Set(rows.rows.indices.filter { !rows.rows[$0].keys.isEmpty }), layout: layout, on: connection)
        for (number, links) in rows.links.enumerated() where !links.owners.isEmpty {
            try write(links, of: mappings.relationships[number].relationship, number: number, on: connection)
        }
    }

    // MARK: - Rows

    private func insert(
        _ rows: EntityRows, of entity: ModelEntity, binder: FlatBinder, on connection: SQLiteConnection
    ) throws {
        let columns = layouts.widths[entity.index]
        let width = 3 + columns
        let group = max(1, min(Self.groupSize, Self.parameterLimit / width))
        var start = 0
        while start < rows.keys.count {
            let count = rows.keys.count - start >= group ? group : 1
            let statement = try self.statement(StatementKey(target: entity.index, rows: count), on: connection) {
                ImportSQL.insertRows(of: entity, in: layout, count: count)
            }
            for offset in 0..<count {
                let row = start + offset
                let base = Int32(offset * width)
                statement.bind(rows.keys[row], at: base + 1)
                statement.bind(layouts.storeIDs[entity.index], at: base + 2)
                statement.bind(Int64(1), at: base + 3)
                for column in 0..<columns {
                    binder.bind(rows.values[row * columns + column], at: base + 4 + Int32(column), to: statement)
                }
            }
            try statement.execute()
            start += count
        }
    }

    // MARK: - Links

    private func write(
        _ links: LinkRows, of relationship: ModelRelationship, number: Int, on connection: SQLiteConnection
    ) throws {
        let target = -number - 1
        switch ImportSQL.linkShape(of: relationship, in: layout) {
        case .joinRows(let ordered):
            let width = ordered ? 3 : 2
            var start = 0
            while start < links.owners.count {
                let count = links.owners.count - start >= Self.groupSize ? Self.groupSize : 1
                let statement = try self.statement(StatementKey(target: target, rows: count), on: connection) {
                    ImportSQL.insertLinks(of: relationship, in: layout, count: count)
                }
                for offset in 0..<count {
                    let base = Int32(offset * width)
                    statement.bind(links.owners[start + offset], at: base + 1)
                    statement.bind(links.members[start + offset], at: base + 2)
                    if ordered { statement.bind(links.positions[start + offset], at: base + 3) }
                }
                try statement.execute()
                start += count
            }
        case .memberColumn(let ordered):
            let statement = try self.statement(StatementKey(target: target, rows: 1), on: connection) {
                ImportSQL.updateMembers(of: relationship, in: layout)
            }
            for index in links.owners.indices {
                statement.bind(links.owners[index], at: 1)
                if ordered { statement.bind(links.positions[index], at: 2) }
                statement.bind(links.members[index], at: ordered ? 3 : 2)
                try statement.execute()
            }
        case .none:
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
}
