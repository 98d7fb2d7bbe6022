// Builds one pass's new file from its source file (docs/Migration.md, "Execution"), top-down:
// the file is created with the destination model (same store UUID, indexes deferred), the source
// attached read-only; checks that need only the source run and the data the pass drops is counted
// (refused here when data loss is not allowed); identity tables are built; the indexes of tables
// copied whole are created first (SQLite moves their pages with the rows), then the rows, join
// tables, the store's seed record (inferred passes) and links are written batch by batch, the
// new file is checked against the new model's rules, the remaining indexes are built (unique
// ones last, so a violation names its constraint), the metadata written (the source's user
// keys, the new model, `migration.from`), and the file closed in rollback-journal mode and synced.
// Invariants: the source is only read; a failure or a cancellation leaves a partial new file
// that the caller removes; the same source, program and options give the same bytes.
import Foundation
import GraphStore

/// What one pass did.
struct PassOutcome {
    /// Objects kept, created and dropped, per entity name.
    var counts: [String: MigrationReport.EntityCounts] = [:]
    /// Data dropped, one line each.
    var dataDropped: [String] = []
    /// What the pass noticed.
    var warnings: [String] = []
}

/// Builds one pass's new file.
struct PassBuilder {
    let program: PassProgram
    /// The file read (the store, or the previous pass's file).
    let input: String
    /// The file written.
    let output: String
    /// The source file's store UUID and the metadata kept in the new file.
    let metadata: StoreMetadata
    /// The hash the whole migration started from (`migration.from`).
    let migrationFrom: String
    let options: MigrationOptions
    /// The pass's number, for progress and stop points.
    let step: Int
    let progress: ProgressTracker
    /// Policies of the mapping pass, when it has any.
    let policies: PolicyCalls?

    /// Builds the file and returns what the pass did.
    func build() throws -> PassOutcome {
        var outcome = PassOutcome(warnings: program.warnings)
        try createFile()
        let pass = try PassConnection(path: output, source: input) { [options, step] batch in
            options.onStopPoint?(.batchCommitted(pass: step, batch: batch))
        }
        defer { pass.close() }
        try runSourceChecks(on: pass)
        outcome.dataDropped = try countDroppedData(on: pass)
        let snapshot = try SchemaSnapshot(of: program.destination)
        var writers = program.rowGroups.map { RowGroupWriter(group: $0, program: program) }
        var whole: Set<Int> = []
        for writer in writers where try writer.copiesWhole(on: pass, wholeTables: program.wholeTables) {
            whole.insert(writer.group.destinationRoot.index)
        }
        let wholeJoins = try program.joinCopies.filter { try copiesWhole($0, on: pass) }.map(\.table)
        let early = Set(whole.map { program.destination.table(of: program.destination.model.entities[$0]) }).union(
            wholeJoins)
        try pass.batch { connection in
            for index in snapshot.indexes where early.contains(index.table) { try connection.execute(index.sql) }
        }
        // Identity tables first: they hold the keys a filter predicate admits, which the row
        // counts read.
        try IdentityTables(program: program, input: input, pageSize: max(1, min(options.batchSize, 5000))).build(
            on: pass)
        // The source rows each row group and join copy reads, counted once: for progress and
        // for the report.
        let groupRows = try writers.map { try $0.sourceRowCount(on: pass) }
        let joinRows = try program.joinCopies.map {
            Int(try pass.integer("SELECT count(*) FROM src.\(SQLiteIdentifier.quote($0.sourceTable))"))
        }
        progress.beginPass(step, rows: groupRows.reduce(0, +) + joinRows.reduce(0, +))
        try policies?.prepare(on: pass)
        for (writer, rows) in zip(writers, groupRows) {
            try count(writer, rows: rows, into: &outcome, on: pass)
            if whole.contains(writer.group.destinationRoot.index) {
                try writer.copyWhole(on: pass)
                progress.advance(by: rows)
                continue
            }
            try writer.write(
                on: pass, batchSize: options.batchSize,
                afterPage: { connection, lower, upper in
                    try policies?.call(for: writer.group, lower: lower, upper: upper, on: connection)
                }, progress: progress.advance(by:))
        }
        writers.removeAll()
        for (copy, rows) in zip(program.joinCopies, joinRows) {
            try write(copy, whole: wholeJoins.contains(copy.table), on: pass)
            progress.advance(by: rows)
        }
        try SeedRecordCarrier(program: program).write(on: pass)
        for (index, plan) in program.linkPlans.enumerated() {
            let writer = LinkWriter(
                plan: plan, program: program, tableName: program.destination.reservedName("links_\(index)"),
                policyLinks: policies?.linkTable)
            outcome.dataDropped += try writer.write(on: pass)
        }
        for (entity, count) in policies?.inserted ?? [:] { outcome.counts[entity, default: .init()].created += count }
        for entity in program.droppedEntities {
            let table = SQLiteIdentifier.quote(program.source.table(of: entity))
            let count = try pass.integer(
                "SELECT count(*) FROM src.\(table) WHERE \(program.source.entityColumn) = \(program.source.number(of: entity))"
            )
            outcome.counts[entity.name, default: .init()].dropped += Int(count)
        }
        progress.completePass()
        progress.enter(.checking)
        try DestinationChecks(program: program).run(on: pass)
        try buildIndexes(snapshot.indexes.filter { !early.contains($0.table) }, on: pass)
        try finishMetadata(on: pass)
        pass.close()
        try StoreFiles.sync(output)
        return outcome
    }

    // MARK: - Steps

    /// Creates the new file with the destination model, the source's store UUID, no indexes,
    /// and no write-ahead log (the file is handed over as one file).
    private func createFile() throws {
        var options = StoreOptions()
        options.storeUUID = metadata.storeUUID.flatMap(UUID.init(uuidString:))
        options.deferIndexes = true
        options.writeAheadLog = false
        options.layoutRules = program.destination.rules
        _ = try PersistentStore.open(at: output, model: program.destination.model, options: options)
    }

    private func runSourceChecks(on pass: PassConnection) throws {
        for check in program.sourceChecks {
            let (count, first) = try pass.check(check.sql)
            guard count > 0 else { continue }
            throw MigrationError(
                .dataCheck(
                    DataCheckFailure(rule: check.rule, subject: check.subject, count: count, first: "pk \(first ?? 0)")),
                store: "")
        }
    }

    /// Counts what the pass drops; refuses when data loss is not allowed and something is dropped.
    private func countDroppedData(on pass: PassConnection) throws -> [String] {
        var lines: [String] = []
        for probe in program.dataLoss {
            let count = try pass.integer(probe.sql)
            if count > 0 { lines.append("\(probe.subject): \(count) \(probe.unit)") }
        }
        if !options.allowDataLoss && !lines.isEmpty { throw MigrationError(.dataLoss(lines), store: "") }
        return lines
    }

    /// Adds the group's objects to the counts: kept when a member continues its own entity (a
    /// rename included), created otherwise. `rows` is the group's source row count, which is the
    /// object count of a group of one entity whose rows keep their keys.
    private func count(
        _ writer: RowGroupWriter, rows: Int, into outcome: inout PassOutcome, on pass: PassConnection
    ) throws {
        for member in writer.group.members {
            var count = rows
            if case .table(let name) = writer.group.identity {
                count = try objects(of: member, madeThrough: name, on: pass)
            } else if writer.group.members.count > 1 {
                count = try objects(of: member, madeThrough: nil, on: pass)
            }
            let keeps = writer.group.mapping == nil || Self.continues(member.destinationEntity, member.sourceEntity)
            let counter: WritableKeyPath<MigrationReport.EntityCounts, Int> = keeps ? \.kept : \.created
            outcome.counts[member.destinationEntity.name, default: .init()][keyPath: counter] += count
        }
    }

    /// The source objects of `member`'s entity, only those its mapping made when `identity`
    /// names an identity table.
    private func objects(of member: RowMember, madeThrough identity: String?, on pass: PassConnection) throws -> Int {
        let source = program.source
        var rows = "FROM src.\(SQLiteIdentifier.quote(source.table(of: member.sourceEntity))) AS s"
        if let identity {
            rows +=
                " JOIN temp.\(SQLiteIdentifier.quote(identity)) AS m ON m.src = s.\(source.keyColumn) AND m.made = 1"
        }
        return Int(
            try pass.integer(
                "SELECT count(*) \(rows) WHERE s.\(source.entityColumn) = \(source.number(of: member.sourceEntity))"))
    }

    /// Whether `entity` (destination) continues `old` (source) by name or renaming identifier.
    static func continues(_ entity: ModelEntity, _ old: ModelEntity) -> Bool {
        let canonical = entity.declaration.renamingIdentifier ?? entity.name
        return canonical == old.name || canonical == (old.declaration.renamingIdentifier ?? old.name)
    }

    private func copiesWhole(_ copy: JoinCopy, on pass: PassConnection) throws -> Bool {
        guard copy.conditions.isEmpty, copy.columns.allSatisfy({ $0.destination == $0.source }) else { return false }
        func columns(_ schema: String, _ table: String) throws -> [String] {
            let info = try pass.connection.prepare("PRAGMA \(schema).table_info(\(SQLiteIdentifier.quote(table)))")
            var names: [String] = []
            while try info.step() { names.append(info.string(1) + " " + info.string(2)) }
            return names
        }
        let target = try columns("main", copy.table)
        return target == (try columns("src", copy.sourceTable)) && target.count == copy.columns.count
    }

    private func write(_ copy: JoinCopy, whole: Bool, on pass: PassConnection) throws {
        let quote = SQLiteIdentifier.quote
        let (target, source) = ("main." + quote(copy.table), "src." + quote(copy.sourceTable))
        try pass.batch { connection in
            if whole {
                try connection.execute("INSERT INTO \(target) SELECT * FROM \(source)")
            } else {
                let conditions = copy.conditions.isEmpty ? "" : " WHERE " + copy.conditions.joined(separator: " AND ")
                try connection.execute(
                    "INSERT INTO \(target)(\(copy.columns.map { quote($0.destination) }.joined(separator: ", ")))"
                        + " SELECT \(copy.columns.map { "j.\(quote($0.source))" }.joined(separator: ", ")) FROM \(source) AS j"
                        + conditions)
            }
        }
    }

    /// Builds the indexes not built before the rows: non-unique ones first, then unique ones;
    /// a unique index the rows break becomes a data check naming the constraint and the first duplicate.
    private func buildIndexes(_ indexes: [SchemaSnapshot.Index], on pass: PassConnection) throws {
        let ordered = indexes.filter { !$0.isUnique } + indexes.filter(\.isUnique)
        progress.beginIndexing(ordered.count)
        for index in ordered {
            do {
                try pass.batch { connection in try connection.execute(index.sql) }
            } catch let error as SQLiteError where error.isConstraintViolation {
                throw try UniqueDuplicates(program: program).failure(in: index.table, on: pass)
                    ?? MigrationError(.store("\(index.name): \(error)"), store: "")
            }
            progress.indexBuilt()
        }
    }

    /// Writes the new file's metadata: the source's user keys (not those of an import's run; in
    /// a Core Data store also those that are not text),
    /// `migration.from`, and no pending indexes; brings key counters up to the rows.
    private func finishMetadata(on pass: PassConnection) throws {
        var values: [String: String?] = [:]
        for (key, value) in metadata.userValues where !Self.runKeys(key) { values[key] = value }
        values[Self.migrationFromKey] = migrationFrom
        values[StoreMetadata.Key.indexesPending] = .some(nil)
        try pass.batch { connection in
            for root in program.destination.roots { try program.destination.coverKeys(ofRoot: root, on: connection) }
            try program.destination.writeMetadata(values, on: connection)
            try program.destination.rules.writeNonTextMetadata(of: metadata, on: connection)
        }
    }

    /// The metadata key naming the model hash a migrated store came from.
    static let migrationFromKey = "migration.from"

    /// Keys of a run or an import that cannot go on in another model: not carried over.
    static func runKeys(_ key: String) -> Bool {
        key == "run.active" || key == "import.checkpoint" || key.hasPrefix("import.deferred.")
    }
}
