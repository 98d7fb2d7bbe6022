// Writes one row group into the new file: `INSERT INTO main.T(key, entity, version, columns…)
// SELECT … FROM src.S AS s WHERE s.entity IN (…) AND s.key > ?1 AND s.key <= ?2`, a page of
// source keys per batch, each column's value from the members' values (one expression when all
// members agree, else a CASE on the source entity number), constants bound from `?3` on (the
// same statement, from the seed record's table, writes the record of the new file). A
// group that keeps every row, key, number and column of a table whose columns are the source
// table's, in order, is copied whole with `INSERT … SELECT *`, which SQLite runs as a transfer of
// pages (index pages included when the indexes exist).
// Invariants: statements depend only on the program (same program → same SQL, same order of
// rows, so the new file is the same byte for byte); a row group of a mapping pass reads its
// identity table and writes only the rows the mapping creates.
import GraphStore

/// Writes one row group.
struct RowGroupWriter {
    let group: RowGroup
    let program: PassProgram

    private var source: StoreLayout { program.source }
    private var destination: StoreLayout { program.destination }

    /// The destination table, quoted, in `main`.
    var table: String { "main." + SQLiteIdentifier.quote(destination.table(of: group.destinationRoot)) }
    /// The source table, quoted, in `src`.
    var sourceTable: String { "src." + SQLiteIdentifier.quote(source.table(of: group.sourceRoot)) }

    /// The source rows the group reads (and pages over): `FROM … WHERE …` over alias `s`.
    var sourceRows: String {
        let numbers = group.members.map { source.number(of: $0.sourceEntity) }
        var clause = "FROM \(sourceTable) AS s WHERE s.\(source.entityColumn) IN (\(StoreLayout.list(numbers)))"
        if case .table(let name) = group.identity,
            let admitted = program.identityTables.first(where: { $0.name == name })?.admitted
        {
            clause += " AND s.\(source.keyColumn) IN (SELECT key FROM temp.\(SQLiteIdentifier.quote(admitted)))"
        }
        return clause
    }

    /// The rows the group's insert makes: the source rows, through the identity table (as `m`)
    /// in a mapping pass.
    var rows: String { rows(of: sourceTable) }

    /// The rows of `table` (the source table, or a table of the same columns and keys: its seed
    /// record) the group's insert makes.
    private func rows(of table: String) -> String {
        let numbers =
            "s.\(source.entityColumn) IN (\(StoreLayout.list(group.members.map { source.number(of: $0.sourceEntity) })))"
        guard case .table(let name) = group.identity else { return "FROM \(table) AS s WHERE \(numbers)" }
        return "FROM \(table) AS s"
            + " JOIN temp.\(SQLiteIdentifier.quote(name)) AS m ON m.src = s.\(source.keyColumn) AND m.made = 1"
            + " WHERE \(numbers)"
    }

    /// How many source rows the group reads.
    func sourceRowCount(on pass: PassConnection) throws -> Int {
        Int(try pass.integer("SELECT count(*) \(sourceRows)"))
    }

    /// Whether the group can be copied whole (`INSERT … SELECT *`): decided by the compile, and
    /// checked here against both tables' columns.
    func copiesWhole(on pass: PassConnection, wholeTables: Set<Int>) throws -> Bool {
        guard wholeTables.contains(group.destinationRoot.index) else { return false }
        return try columns(of: "main", destination.table(of: group.destinationRoot), on: pass)
            == columns(of: "src", source.table(of: group.sourceRoot), on: pass)
    }

    private func columns(of schema: String, _ table: String, on pass: PassConnection) throws -> [String] {
        let info = try pass.connection.prepare("PRAGMA \(schema).table_info(\(SQLiteIdentifier.quote(table)))")
        var columns: [String] = []
        while try info.step() {
            columns.append([info.string(1), info.string(2), info.string(3), info.string(5)].joined(separator: " "))
        }
        return columns
    }

    /// Copies the whole table in one statement.
    func copyWhole(on pass: PassConnection) throws {
        try pass.batch { connection in
            try connection.execute("INSERT INTO \(table) SELECT * FROM \(sourceTable)")
        }
    }

    /// Writes the rows page by page; `afterPage` runs in each page's transaction after its
    /// insert (policies), then `progress` with the rows read.
    func write(
        on pass: PassConnection, batchSize: Int, afterPage: (SQLiteConnection, Int64, Int64) throws -> Void,
        progress: (Int) -> Void
    ) throws {
        let statement = insertStatement()
        let key = "s.\(source.keyColumn)"
        try pass.paged(rows: sourceRows, key: key, size: batchSize) { _, lower, upper, count in
            try pass.run(
                statement.sql, lower: lower, upper: upper, parameters: statement.parameters,
                encoding: destination.values)
            try afterPage(pass.connection, lower, upper)
            progress(count)
        }
    }

    /// The page's INSERT and its constants.
    func insertStatement() -> (sql: String, parameters: [AttributeValue]) {
        insertStatement(into: table, from: sourceTable)
    }

    /// The page's INSERT into `target` of the rows of `origin` (the source table, or its seed
    /// record), and its constants: only the value columns in `columns` (nil: all of them), and
    /// the `extra` columns with their SQL over `s`.
    func insertStatement(
        into target: String, from origin: String, columns kept: Set<String>? = nil, extra: [(String, String)] = []
    ) -> (sql: String, parameters: [AttributeValue]) {
        var parameters: [AttributeValue] = []
        func bound(_ value: AttributeValue) -> String {
            if let index = parameters.firstIndex(of: value) { return "?\(index + 3)" }
            parameters.append(value)
            return "?\(parameters.count + 2)"
        }
        func text(_ value: ColumnValue) -> String {
            switch value {
            case .sql(let sql): sql
            case .constant(let constant): bound(constant)
            case .coalesced(let sql, let fallback): "coalesce(\(sql), \(bound(fallback)))"
            }
        }
        let key: String
        switch group.identity {
        case .sourceKeys: key = "s.\(source.keyColumn)"
        case .table: key = "m.dst"
        }
        let entity = "s.\(source.entityColumn)"
        let numbers = group.members.map {
            (source.number(of: $0.sourceEntity), destination.number(of: $0.destinationEntity))
        }
        let entityValue: String
        if numbers.allSatisfy({ $0.0 == $0.1 }) {
            entityValue = entity
        } else if Set(numbers.map(\.1)).count == 1 {
            entityValue = String(numbers[0].1)
        } else {
            entityValue =
                "CASE \(entity) " + numbers.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
        }
        var columns = [destination.keyColumn, destination.entityColumn, destination.versionColumn]
        var values = [key, entityValue, group.keepsVersion ? "s.\(source.versionColumn)" : "1"]
        let names = Set(group.members.flatMap(\.values.keys)).filter { kept?.contains($0) ?? true }.sorted()
        for name in names {
            let perMember = group.members.map { ($0, $0.values[name]) }
            columns.append(SQLiteIdentifier.quote(name))
            if let first = perMember[0].1, perMember.allSatisfy({ $0.1 == first }) {
                values.append(text(first))
            } else {
                let branches = perMember.compactMap { member, value in
                    value.map { "WHEN \(source.number(of: member.sourceEntity)) THEN \(text($0))" }
                }
                values.append("CASE \(entity) " + branches.joined(separator: " ") + " END")
            }
        }
        for (column, value) in extra {
            columns.append(SQLiteIdentifier.quote(column))
            values.append(value)
        }
        let sql =
            "INSERT INTO \(target)(\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))"
            + " \(rows(of: origin)) AND s.\(source.keyColumn) > ?1 AND s.\(source.keyColumn) <= ?2"
        return (sql, parameters)
    }
}
