// The run journal: how a long run (an import, a copy, a first-launch merge) commits batch by
// batch yet can leave nothing of itself behind (docs/Architecture.md "Runs").
//
// At the start of a run the journal records, per table, the highest key in use (the
// watermark) and installs TEMP triggers on the run's own connection that write undo SQL into
// the layout's journal table (`seedkit_undo`) whenever the run changes or deletes a row that existed before it (rows above
// the watermark are the run's own and need no log). Each batch's undo entries commit with the
// batch, so after a kill the store holds whole batches plus their undo log. Tables that were
// empty get no triggers: every row in them is the run's own.
// Undo: replay the log newest first, then delete every row above the watermarks (and the join
// rows that point at them); the log is SQL read from the file, so it is compiled under an
// authorizer that lets it only write rows of the layout's tables. Finish: forget the log and the marker, in the last batch's transaction.
// Invariants: at most one run is active per store (its marker is the `run.active` metadata key);
// the triggers exist only on the connection that runs the batches.
import Foundation

/// A run's undo state: its id and the key watermarks taken when it began.
public struct RunJournal: Sendable, Hashable, Codable {
    /// The run's id.
    public let id: String
    /// The highest key of each entity table when the run began, by table name.
    public let watermarks: [String: Int64]

    static let markerKey = "run.active"

    /// Starts a run: takes watermarks and writes the marker (in its own transaction), then
    /// installs the undo triggers on `connection`.
    static func begin(id: String, layout: StoreLayout, on connection: SQLiteConnection) throws -> RunJournal {
        var watermarks: [String: Int64] = [:]
        try connection.transaction(.immediate) {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS \(layout.journalTable)(seq INTEGER PRIMARY KEY AUTOINCREMENT, sql TEXT NOT NULL)"
            )
            for root in layout.roots {
                watermarks[layout.table(of: root)] = try layout.highestKey(ofRoot: root, on: connection)
            }
            let journal = RunJournal(id: id, watermarks: watermarks)
            try layout.writeMetadata([markerKey: try journal.encoded()], on: connection)
        }
        let journal = RunJournal(id: id, watermarks: watermarks)
        try journal.installTriggers(layout: layout, on: connection)
        return journal
    }

    /// The run left active in the store (by a run that was killed or is still going), if any.
    static func active(layout: StoreLayout, on connection: SQLiteConnection, path: String) throws -> RunJournal? {
        let metadata = try layout.readMetadata(on: connection, path: path)
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
    func installTriggers(layout: StoreLayout, on connection: SQLiteConnection) throws {
        let log = layout.journalTable
        let key = layout.keyColumn
        for root in layout.roots {
            let table = layout.table(of: root)
            let watermark = watermarks[table] ?? 0
            // A table that was empty has no row the run could change or delete: no trigger (so
            // bulk INSERT … SELECT into it keeps SQLite's transfer optimization).
            guard watermark > 0 else { continue }
            let columns = [layout.entityColumn, layout.versionColumn] + layout.dataColumns(ofRoot: root).map(\.name)
            let quoted = SQLiteIdentifier.quote(table)
            let assignments = columns.map { column in
                "'\(Self.literal(SQLiteIdentifier.quote(column)))=' || quote(OLD.\(SQLiteIdentifier.quote(column)))"
            }.joined(separator: " || ', ' || ")
            let values = ([key] + columns).map { "quote(OLD.\(SQLiteIdentifier.quote($0)))" }
                .joined(separator: " || ', ' || ")
            let columnList = ([key] + columns).map(SQLiteIdentifier.quote).joined(separator: ", ")
            try connection.execute(
                """
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote(layout.reservedName("undo_u_" + table)))
                AFTER UPDATE ON main.\(quoted) WHEN OLD.\(key) <= \(watermark) BEGIN
                INSERT INTO \(log)(sql) VALUES ('UPDATE \(Self.literal(quoted)) SET ' || \(assignments) || ' WHERE \(key) = ' || OLD.\(key));
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote(layout.reservedName("undo_d_" + table)))
                AFTER DELETE ON main.\(quoted) WHEN OLD.\(key) <= \(watermark) BEGIN
                INSERT INTO \(log)(sql) VALUES ('INSERT INTO \(Self.literal(quoted))(\(Self.literal(columnList))) VALUES (' || \(values) || ')');
                END;
                """)
        }
        for joinTable in layout.joinTables {
            let (first, second) = (joinTable.firstColumn, joinTable.secondColumn)
            let firstMark = watermark(ofRoot: joinTable.firstRootIndex, layout: layout)
            let secondMark = watermark(ofRoot: joinTable.secondRootIndex, layout: layout)
            guard firstMark > 0, secondMark > 0 else { continue }
            let quoted = SQLiteIdentifier.quote(joinTable.name)
            let oldWhen = "OLD.\(first) <= \(firstMark) AND OLD.\(second) <= \(secondMark)"
            let newWhen = "NEW.\(first) <= \(firstMark) AND NEW.\(second) <= \(secondMark)"
            let orders = joinTable.orders.map(\.column)
            let columns = [first, second] + orders
            let values = columns.map { "quote(OLD.\($0))" }.joined(separator: " || ', ' || ")
            let updates = orders.map { "'\($0) = ' || quote(OLD.\($0))" }
            var sql = """
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote(layout.reservedName("undo_i_" + joinTable.name)))
                AFTER INSERT ON main.\(quoted) WHEN \(newWhen) BEGIN
                INSERT INTO \(log)(sql) VALUES ('DELETE FROM \(Self.literal(quoted)) WHERE \(first) = ' || NEW.\(first) || ' AND \(second) = ' || NEW.\(second));
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote(layout.reservedName("undo_d_" + joinTable.name)))
                AFTER DELETE ON main.\(quoted) WHEN \(oldWhen) BEGIN
                INSERT INTO \(log)(sql) VALUES ('INSERT INTO \(Self.literal(quoted))(\(columns.joined(separator: ", "))) VALUES (' || \(values) || ')');
                END;
                """
            if !updates.isEmpty {
                sql += """
                    CREATE TEMP TRIGGER IF NOT EXISTS \(SQLiteIdentifier.quote(layout.reservedName("undo_u_" + joinTable.name)))
                    AFTER UPDATE ON main.\(quoted) WHEN \(oldWhen) BEGIN
                    INSERT INTO \(log)(sql) VALUES ('UPDATE \(Self.literal(quoted)) SET ' || \(updates.joined(separator: " || ', ' || ")) || ' WHERE \(first) = ' || OLD.\(first) || ' AND \(second) = ' || OLD.\(second));
                    END;
                    """
            }
            try connection.execute(sql)
        }
    }

    /// Restores the store to its state before the run, in one transaction, and drops the marker.
    ///
    /// The log and the watermarks come from the store's file, which may come from elsewhere: each
    /// logged statement is compiled alone, and only as what the undo triggers write (a row
    /// inserted, updated or deleted in one of the layout's tables); anything else — another
    /// table, ATTACH, VACUUM, a pragma, a function, several statements — is refused before it
    /// runs (`not authorized`), and the store is left as it was.
    func undo(layout: StoreLayout, on connection: SQLiteConnection) throws {
        let tables = Set(layout.roots.map { layout.table(of: $0) } + layout.joinTables.map(\.name))
        try connection.transaction(.immediate) {
            try dropTriggers(layout: layout, on: connection)
            let log = try connection.prepare("SELECT sql FROM \(layout.journalTable) ORDER BY seq DESC")
            var statements: [String] = []
            while try log.step() { statements.append(log.string(0)) }
            var writesRows = false
            let undoes = { (action: SQLiteAction) -> Bool in
                guard Self.undoes(action, tables: tables) else { return false }
                if action.trigger == nil && action.isRowWrite { writesRows = true }
                return true
            }
            try connection.withAuthorizer(undoes) {
                for statement in statements {
                    writesRows = false
                    let compiled = try connection.prepare(statement)
                    // Statements that write no row (VACUUM INTO asks the authorizer nothing) are not undo SQL.
                    guard writesRows else { throw SQLiteError.notAuthorized(sql: statement) }
                    try compiled.execute()
                }
                for joinTable in layout.joinTables {
                    try connection.execute(
                        "DELETE FROM \(SQLiteIdentifier.quote(joinTable.name)) WHERE \(joinTable.firstColumn) > \(watermark(ofRoot: joinTable.firstRootIndex, layout: layout)) OR \(joinTable.secondColumn) > \(watermark(ofRoot: joinTable.secondRootIndex, layout: layout))"
                    )
                }
                for (table, watermark) in watermarks.sorted(by: { $0.key < $1.key }) {
                    try connection.execute(
                        "DELETE FROM \(SQLiteIdentifier.quote(table)) WHERE \(layout.keyColumn) > \(watermark)")
                }
            }
            try forget(layout: layout, on: connection)
        }
    }

    /// Whether undoing a run may compile `action`: reading and writing rows of `tables` in the
    /// main database, and whatever the store's own triggers do (its schema was checked when the
    /// store was opened).
    private static func undoes(_ action: SQLiteAction, tables: Set<String>) -> Bool {
        if action.trigger != nil { return true }
        return action.isRowAccess && action.database == "main" && action.first.map(tables.contains) == true
    }

    /// Forgets the run (its log and marker) inside the caller's transaction.
    func forget(layout: StoreLayout, on connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM \(layout.journalTable)")
        try layout.writeMetadata([Self.markerKey: nil], on: connection)
    }

    /// Removes the undo triggers from `connection`.
    func dropTriggers(layout: StoreLayout, on connection: SQLiteConnection) throws {
        let triggers = try connection.prepare(
            "SELECT name FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE ?")
        triggers.bind(text: layout.reservedName("undo_%"), at: 1)
        var names: [String] = []
        while try triggers.step() { names.append(triggers.string(0)) }
        for name in names {
            try connection.execute("DROP TRIGGER IF EXISTS temp.\(SQLiteIdentifier.quote(name))")
        }
    }

    /// Removes the journal's table from a store no run is using (a finished seed ships without it).
    static func removeStorage(layout: StoreLayout, on connection: SQLiteConnection) throws {
        try connection.execute("DROP TABLE IF EXISTS \(layout.journalTable)")
        let sequence = try connection.prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
        guard try sequence.step() else { return }
        let forget = try connection.prepare("DELETE FROM sqlite_sequence WHERE name = ?")
        forget.bind(text: layout.journalTable, at: 1)
        try forget.execute()
    }

    /// The watermark of the table of the root entity at `index`.
    private func watermark(ofRoot index: Int, layout: StoreLayout) -> Int64 {
        watermarks[layout.table(of: layout.model.entities[index])] ?? 0
    }

    /// `text` with single quotes doubled, to sit inside a SQL string literal.
    private static func literal(_ text: String) -> String {
        String(text.flatMap { $0 == "'" ? ["'", "'"] : [$0] })
    }
}
