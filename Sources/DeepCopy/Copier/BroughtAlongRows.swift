// Relationships that bring their destinations along (RelationshipCopy.bringAlong): once the
// admitted rows of every table are known (AdmittedRows), the copy closes over the source graph
// through those relationships, round by round in set-based SQL. Each round follows the links
// from the rows admitted in the round before (the frontier: at first every copied row) and
// admits the destinations not admitted yet; it ends when a round admits nothing. A row enters a
// frontier once, so each link is read once however long the chains or cycles.
// Invariant: memory holds no rows; the frontiers are TEMP tables on the copy's connection, like
// the admissions they grow (dropped with them when the source is detached).
import GraphStore

/// Admits the rows that relationships bringing their destinations along reach.
struct BroughtAlongRows {
    let plan: CopyPlan
    let tables: [RootTable]

    /// One relationship that brings its destinations along, as SQL over the source tables.
    private struct Reach {
        /// The table of the objects that have the relationship, and their copied entity numbers.
        let owner: RootTable
        let ownerKinds: [Int64]
        /// The table of the destinations, and the copied entity numbers they may have.
        let destination: RootTable
        let destinationKinds: [Int64]
        let storage: RelationshipStorage
    }

    /// Grows the admissions of every table until no relationship that brings its destinations
    /// along reaches a row not admitted yet.
    func close(with batches: CopyBatches) throws {
        let reaches = plan.relationshipChoices.bringingAlong.compactMap(reach)
        guard !reaches.isEmpty else { return }
        let growing = tables.filter { $0.admissions != nil }
        let (key, entity) = (plan.sourceLayout.keyColumn, plan.sourceLayout.entityColumn)
        try batches.scratch { connection in
            for table in growing {
                try connection.execute("CREATE TEMP TABLE \(quoted(frontierName(table)))(key INTEGER PRIMARY KEY)")
                try connection.execute("CREATE TEMP TABLE \(quoted(nextName(table)))(key INTEGER PRIMARY KEY)")
                try connection.run("INSERT INTO \(frontier(table)) SELECT key FROM \(admitted(table))")
            }
            var first = true
            var admittedInRound = 1
            while admittedInRound > 0 {
                for reach in reaches {
                    guard let from = frontierRows(of: reach.owner, first: first) else { continue }
                    try connection.run(
                        """
                        INSERT OR IGNORE INTO \(next(reach.destination)) (key) SELECT r.x FROM (\(rows(reach, from: from))) AS r
                        JOIN \(reach.destination.source) AS d ON d.\(key) = r.x
                        WHERE d.\(entity) IN (\(StoreLayout.list(reach.destinationKinds)))
                        AND r.x NOT IN (SELECT key FROM \(admitted(reach.destination)))
                        """)
                }
                first = false
                admittedInRound = 0
                for table in growing {
                    admittedInRound += try connection.run(
                        "INSERT INTO \(admitted(table)) SELECT key FROM \(next(table))")
                    try connection.run("DELETE FROM \(frontier(table))")
                    try connection.run("INSERT INTO \(frontier(table)) SELECT key FROM \(next(table))")
                    try connection.run("DELETE FROM \(next(table))")
                }
            }
        }
    }

    /// The relationship as SQL, when both its owners and its destinations can be copied and
    /// the destinations' table is not copied whole anyway.
    private func reach(_ relationship: ModelRelationship) -> Reach? {
        let (source, layout) = (plan.source, plan.sourceLayout)
        guard let owner = source.entity(named: relationship.declaringEntity) else { return nil }
        let destination = source.destination(of: relationship)
        guard let ownerTable = tables.first(where: { $0.root.index == owner.rootIndex }),
            let destinationTable = tables.first(where: { $0.root.index == destination.rootIndex }),
            destinationTable.admissions != nil
        else { return nil }
        let ownerKinds = ownerTable.copiedNumbers.filter(layout.kindNumbers(of: owner).contains)
        let destinationKinds = destinationTable.copiedNumbers.filter(layout.kindNumbers(of: destination).contains)
        guard !ownerKinds.isEmpty, !destinationKinds.isEmpty else { return nil }
        return Reach(
            owner: ownerTable, ownerKinds: ownerKinds, destination: destinationTable,
            destinationKinds: destinationKinds, storage: layout.storage(of: relationship))
    }

    /// The rows of `table` to follow links from this round: its frontier, or in the first round
    /// every copied row of a table copied whole; nil when there are none.
    private func frontierRows(of table: RootTable, first: Bool) -> String? {
        if table.admissions != nil { return frontier(table) }
        guard first else { return nil }
        let layout = plan.sourceLayout
        return "(SELECT \(layout.keyColumn) AS key FROM \(table.source)"
            + " WHERE \(layout.entityColumn) IN (\(StoreLayout.list(table.copiedNumbers))))"
    }

    /// `SELECT … AS x`: the keys of the destinations `reach` links the owners in `from` to.
    private func rows(_ reach: Reach, from: String) -> String {
        let (key, entity) = (plan.sourceLayout.keyColumn, plan.sourceLayout.entityColumn)
        let owners = "FROM \(from) AS f JOIN \(reach.owner.source) AS o ON o.\(key) = f.key"
        let kinds = "o.\(entity) IN (\(StoreLayout.list(reach.ownerKinds)))"
        switch reach.storage {
        case .foreignKey(let column):
            let column = SQLiteIdentifier.quote(column)
            return "SELECT o.\(column) AS x \(owners) WHERE \(kinds) AND o.\(column) IS NOT NULL"
        case .inverseForeignKey(let column, _):
            return
                "SELECT m.\(key) AS x \(owners) JOIN \(reach.destination.source) AS m ON m.\(SQLiteIdentifier.quote(column)) = f.key WHERE \(kinds)"
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            let joinTable = SourceAttachment.schema + "." + SQLiteIdentifier.quote(table)
            return
                "SELECT j.\(SQLiteIdentifier.quote(destinationColumn)) AS x \(owners) JOIN \(joinTable) AS j ON j.\(SQLiteIdentifier.quote(sourceColumn)) = f.key WHERE \(kinds)"
        case .transient:
            return "SELECT NULL AS x WHERE 0"
        }
    }

    private func quoted(_ name: String) -> String { SQLiteIdentifier.quote(name) }
    private func frontierName(_ table: RootTable) -> String { plan.targetLayout.reservedName("frontier_" + table.name) }
    private func nextName(_ table: RootTable) -> String { plan.targetLayout.reservedName("reached_" + table.name) }
    private func frontier(_ table: RootTable) -> String { "temp." + quoted(frontierName(table)) }
    private func next(_ table: RootTable) -> String { "temp." + quoted(nextName(table)) }
    private func admitted(_ table: RootTable) -> String { "temp." + quoted(table.admissions ?? "") }
}
