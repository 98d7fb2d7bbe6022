// The rows a copy starts from in tables that are not copied whole (`RootTable.admissions`): the
// objects of the entities asked for that their predicates admit. Predicates are evaluated on the
// source's objects, page by page in key order, exactly as fetched objects evaluate them; a table
// without a predicate (only some of its entities asked for, the others reached through
// relationships) is admitted with one INSERT … SELECT. The keys go into a TEMP table that the
// set-based copy joins, and that BroughtAlongRows then grows. Only such tables pay for this.
// Invariant: memory holds one page of source objects.
import GraphStore

/// Collects the source keys a copy's predicates admit.
struct AdmittedRows {
    let plan: CopyPlan
    let pageSize: Int

    /// Creates `table.admissions` (when it has one) and fills it with the keys of the rows of
    /// entities asked for that the predicates admit.
    func collect(_ table: RootTable, from context: ObjectContext, batches: CopyBatches) throws {
        guard let name = table.admissions else { return }
        let admitted = "temp." + SQLiteIdentifier.quote(name)
        let asked = table.copied.filter(plan.isSelected)
        let layout = plan.sourceLayout
        try batches.scratch { connection in
            try connection.execute("CREATE TEMP TABLE \(SQLiteIdentifier.quote(name))(key INTEGER PRIMARY KEY)")
            if !asked.contains(where: plan.isFiltered), !asked.isEmpty {
                let numbers = StoreLayout.list(asked.map(layout.number(of:)))
                try connection.run(
                    "INSERT INTO \(admitted)(key) SELECT \(layout.keyColumn) FROM \(table.source) WHERE \(layout.entityColumn) IN (\(numbers))"
                )
            }
        }
        guard asked.contains(where: plan.isFiltered) else { return }
        var last: Int64 = 0
        while case let page = try context.fetchPage(of: table.root.name, after: last, limit: pageSize),
            let final = page.last
        {
            try batches.scratch { connection in
                let insert = try connection.cachedStatement("INSERT INTO \(admitted)(key) VALUES (?)")
                for object in page where plan.copies(object.entity) && plan.isSelected(object.entity) {
                    guard try plan.admits(object) else { continue }
                    insert.bind(object.objectID.key, at: 1)
                    try insert.execute()
                    insert.reset()
                }
            }
            last = final.objectID.key
            context.reset()
        }
    }
}
