// The run journal: how a long run (an import, a copy, a first-launch merge) commits batch by
// batch yet can leave nothing of itself behind (docs/Architecture.md "Runs").
//
// At the start of a run the journal records, per table, the highest key in use (the
// watermark) and installs TEMP triggers on the run's own connection that write undo SQL into
// `seedkit_undo` whenever the run changes or deletes a row that existed before it (rows above
// the watermark are the run's own and need no log). Each batch's undo entries commit with the
// batch, so after a kill the store holds whole batches plus their undo log. Tables that were
// empty get no triggers: every row in them is the run's own.
// Undo: replay the log newest first, then delete every row above the watermarks (and the join
// rows that point at them). Finish: forget the log and the marker, in the last batch's transaction.
// Invariants: at most one run is active per store (its marker is the `run.active` metadata key);
// the triggers exist only on the connection that runs the batches.
import Foundation

/// A run's undo state: its id and the key watermarks taken when it began.
public struct RunJournal: Sendable, Hashable, Codable {
    /// The run's id.
    public let id: String
    /// The highest `pk` of each entity table when the run began.
    public let watermarks: [String: Int64]

    static let markerKey = "run.active"

    /// Starts a run: takes watermarks and writes the marker (in its own transaction), then
    /// installs the undo triggers on `connection`.
    static func begin(id: String, model: ObjectModel, on connection: SQLiteConnection) throws -> RunJournal {
        var watermarks: [String: Int64] = [:]
        try connection.transaction(.immediate) {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS seedkit_undo(seq INTEGER PRIMARY KEY AUTOINCREMENT, sql TEXT NOT NULL)")
            for root in model.entities where root.isRoot {
                let statement = try connection.prepare(
                    "SELECT coalesce(max(pk), 0) FROM \(SQLiteIdentifier.quote(root.tableName))")
                _ = try statement.step()
                watermarks[root.tableName] = statement.int64(0)
            }
            let journal = RunJournal(id: id, watermarks: watermarks)
            try MetadataTable.write([markerKey: try journal.encoded()], on: connection)
        }
        let journal = RunJournal(id: id, watermarks: watermarks)
        try journal.installTriggers(model: model, on: connection)
        return journal
    }

    /// The run left active in the store (by a run that was killed or is still going), if any.
    static func active(on connection: SQLiteConnection, path: String) throws -> RunJournal? {
        let metadata = try MetadataTable.read(on: connection, path: path)
        guard let text = metadata[markerKey] else { return nil }
        return try JSONDecoder().decode(RunJournal.self, from: Data(text.utf8))
    }

    /// The marker's metadata value.
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Installs the undo triggers (TEMP: only this connection's writes are logged).
    func installTriggers(model: ObjectModel, on connection: SQLiteConnection) throws {
        let schema = StoreSchema(model: model)
        for root in model.entities where root.isRoot {
            let table = root.tableName
            let watermark = watermarks[table] ?? 0
            // A table that was empty has no row the run could change or delete: no trigger (so
            // bulk INSERT … SELECT into it keeps SQLite's transfer optimization).
            guard watermark > 0 else { continue }
            let columns = ["ent", "opt"] + schema.columns(ofTableFor: root).map(\.name)
            let quoted = SQLiteIdentifier.quote(table)
            let assignments = columns.map { column in
                "'\(Self.literal(SQLiteIdentifier.quote(column)))=' || quote(OLD.\(SQLiteIdentifier.quote(column)))"
            }.joined(separator: " || ', ' || ")
            let values = (["pk"] + columns).map { "quote(OLD.\(SQLiteIdentifier.quote($0)))" }
                .joined(separator: " || ', ' || ")
            let columnList = (["pk"] + columns).map(SQLiteIdentifier.quote).joined(separator: ", ")
            try connection.execute(
                """
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote("seedkit_undo_u_" + table))
                AFTER UPDATE ON main.\(quoted) WHEN OLD.pk <= \(watermark) BEGIN
                INSERT INTO seedkit_undo(sql) VALUES ('UPDATE \(Self.literal(quoted)) SET ' || \(assignments) || ' WHERE pk = ' || OLD.pk);
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote("seedkit_undo_d_" + table))
                AFTER DELETE ON main.\(quoted) WHEN OLD.pk <= \(watermark) BEGIN
                INSERT INTO seedkit_undo(sql) VALUES ('INSERT INTO \(Self.literal(quoted))(\(Self.literal(columnList))) VALUES (' || \(values) || ')');
                END;
                """)
        }
        for joinTable in schema.joinTables {
            guard let (sourceTable, destinationTable) = endTables(of: joinTable.name, model: model),
                (watermarks[sourceTable] ?? 0) > 0, (watermarks[destinationTable] ?? 0) > 0
            else { continue }
            let quoted = SQLiteIdentifier.quote(joinTable.name)
            let oldWhen =
                "OLD.src <= \(watermarks[sourceTable] ?? 0) AND OLD.dst <= \(watermarks[destinationTable] ?? 0)"
            let newWhen =
                "NEW.src <= \(watermarks[sourceTable] ?? 0) AND NEW.dst <= \(watermarks[destinationTable] ?? 0)"
            let columns = ["src", "dst"] + joinTable.orderColumns.sorted()
            let values = columns.map { "quote(OLD.\($0))" }.joined(separator: " || ', ' || ")
            let updates = joinTable.orderColumns.sorted().map { "'\($0) = ' || quote(OLD.\($0))" }
            var sql = """
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote("seedkit_undo_i_" + joinTable.name))
                AFTER INSERT ON main.\(quoted) WHEN \(newWhen) BEGIN
                INSERT INTO seedkit_undo(sql) VALUES ('DELETE FROM \(Self.literal(quoted)) WHERE src = ' || NEW.src || ' AND dst = ' || NEW.dst);
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote("seedkit_undo_d_" + joinTable.name))
                AFTER DELETE ON main.\(quoted) WHEN \(oldWhen) BEGIN
                INSERT INTO seedkit_undo(sql) VALUES ('INSERT INTO \(Self.literal(quoted))(\(columns.joined(separator: ", "))) VALUES (' || \(values) || ')');
                END;
                """
            if !updates.isEmpty {
                sql += """
                    CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote("seedkit_undo_u_" + joinTable.name))
                    AFTER UPDATE ON main.\(quoted) WHEN \(oldWhen) BEGIN
                    INSERT INTO seedkit_undo(sql) VALUES ('UPDATE \(Self.literal(quoted)) SET ' || \(updates.joined(separator: " || ', ' || ")) || ' WHERE src = ' || OLD.src || ' AND dst = ' || OLD.dst);
                    END;
                    """
            }
            try connection.execute(sql)
        }
    }

    /// Restores the store to its state before the run, in one transaction, and drops the marker.
    func undo(model: ObjectModel, on connection: SQLiteConnection) throws {
        try connection.transaction(.immediate) {
            try dropTriggers(on: connection)
            let log = try connection.prepare("SELECT sql FROM seedkit_undo ORDER BY seq DESC")
            var statements: [String] = []
            while try log.step() { statements.append(log.string(0)) }
            for statement in statements {
                try connection.execute(statement)
            }
            for joinTable in StoreSchema(model: model).joinTables {
                guard let (sourceTable, destinationTable) = endTables(of: joinTable.name, model: model) else {
                    continue
                }
                try connection.execute(
                    "DELETE FROM \(SQLiteIdentifier.quote(joinTable.name)) WHERE src > \(watermarks[sourceTable] ?? 0) OR dst > \(watermarks[destinationTable] ?? 0)"
                )
            }
            for (table, watermark) in watermarks.sorted(by: { $0.key < $1.key }) {
                try connection.execute("DELETE FROM \(SQLiteIdentifier.quote(table)) WHERE pk > \(watermark)")
            }
            try forget(on: connection)
        }
    }

    /// Forgets the run (its log and marker) inside the caller's transaction.
    func forget(on connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM seedkit_undo")
        try MetadataTable.write([Self.markerKey: nil], on: connection)
    }

    /// Removes the undo triggers from `connection`.
    func dropTriggers(on connection: SQLiteConnection) throws {
        let triggers = try connection.prepare(
            "SELECT name FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'seedkit_undo_%'")
        var names: [String] = []
        while try triggers.step() { names.append(triggers.string(0)) }
        for name in names {
            try connection.execute("DROP TRIGGER IF EXISTS temp.\(SQLiteIdentifier.quote(name))")
        }
    }

    /// The root tables of a join table's source and destination.
    private func endTables(of joinTable: String, model: ObjectModel) -> (String, String)? {
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                if case .joinTable(joinTable, "src", _, _) = relationship.storage {
                    return (entity.tableName, model.destination(of: relationship).tableName)
                }
            }
        }
        return nil
    }

    /// `text` with single quotes doubled, to sit inside a SQL string literal.
    private static func literal(_ text: String) -> String {
        String(text.flatMap { $0 == "'" ? ["'", "'"] : [$0] })
    }
}
