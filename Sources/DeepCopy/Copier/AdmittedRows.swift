// Predicates of a copy (`options.predicates`): evaluated on the source's objects, page by page in
// key order, exactly as fetched objects evaluate them; the keys of the admitted rows go into a
// TEMP table that the set-based copy joins. Only tables with a filtered entity pay for this.
// Invariant: memory holds one page of source objects.
import GraphStore

/// Collects the source keys a copy's predicates admit.
struct AdmittedRows {
    let plan: CopyPlan
    let pageSize: Int

    /// Fills `table.admissions` (when it has one) with the keys of the copied rows the predicates admit.
    func collect(_ table: RootTable, from context: ObjectContext, batches: CopyBatches) throws {
        guard let name = table.admissions else { return }
        let admitted = "temp." + SQLiteIdentifier.quote(name)
        try batches.scratch { connection in
            try connection.execute("CREATE TEMP TABLE \(SQLiteIdentifier.quote(name))(pk INTEGER PRIMARY KEY)")
        }
        var last: Int64 = 0
        while case let page = try context.fetchPage(of: table.root.name, after: last, limit: pageSize),
            let final = page.last
        {
            try batches.scratch { connection in
                let insert = try connection.cachedStatement("INSERT INTO \(admitted)(pk) VALUES (?)")
                for object in page where plan.copies(object.entity) {
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
