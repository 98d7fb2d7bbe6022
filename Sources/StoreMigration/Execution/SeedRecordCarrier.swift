// Carries the store's seed record (docs/StoreFormat.md, "Seed record") into the new file of an
// inferred pass, so that a newer seed merged after the migration (docs/FirstLaunch.md, "A new
// model version") still tells the user's values from the seed's, leaves deleted what the user
// deleted and matches objects without a unique key: each base row becomes what the pass makes of
// its object's row — the same key and version, the new entity number, each column through the
// same expression — in the record table of the new root, with its seed key.
// Invariants: a base row and its object's row go through the same expressions, so an object the
// user left as the seed gave it still equals its base row after the pass; a mapping pass (new
// keys, objects made by policies) and a record that lacks a column of its table (written before
// the entity had it) leave no record, and the next merge is one into a store without a record;
// the rows are read in key order, so the same store gives the same bytes.
import GraphStore

/// Writes the seed record of one pass's new file.
struct SeedRecordCarrier {
    let program: PassProgram

    /// Writes the record of each row group whose source table has a complete one, in one batch.
    func write(on pass: PassConnection) throws {
        guard program.identityTables.isEmpty else { return }
        let quote = SQLiteIdentifier.quote
        let sourceRecord = SeedRecord(layout: program.source)
        let destinationRecord = SeedRecord(layout: program.destination)
        let carried = try program.rowGroups.filter { try hasCompleteRecord($0, record: sourceRecord, on: pass) }
        guard !carried.isEmpty else { return }
        try pass.batch { connection in
            for group in carried {
                try destinationRecord.prepare(ofRoot: group.destinationRoot, on: connection)
                let statement = RowGroupWriter(group: group, program: program).insertStatement(
                    into: destinationRecord.table(ofRoot: group.destinationRoot),
                    from: "src." + quote(program.source.seedRecordTable(ofRoot: group.sourceRoot)),
                    columns: Set(destinationRecord.valueColumns(ofRoot: group.destinationRoot)),
                    extra: [(destinationRecord.seedKeyColumn, "s." + quote(sourceRecord.seedKeyColumn))])
                try pass.run(statement.sql, parameters: statement.parameters, encoding: program.destination.values)
            }
        }
    }

    /// Whether the source has a record of the group's table with every column the table's rows
    /// are read from.
    private func hasCompleteRecord(_ group: RowGroup, record: SeedRecord, on pass: PassConnection) throws -> Bool {
        let layout = program.source
        let statement = try pass.connection.prepare("SELECT name FROM pragma_table_info(?1, 'src')")
        statement.bind(text: layout.seedRecordTable(ofRoot: group.sourceRoot), at: 1)
        var present: Set<String> = []
        while try statement.step() { present.insert(statement.string(0)) }
        let needed =
            [layout.keyColumn, layout.entityColumn, layout.versionColumn, record.seedKeyColumn]
            + record.valueColumns(ofRoot: group.sourceRoot)
        return !present.isEmpty && needed.allSatisfy(present.contains)
    }
}
