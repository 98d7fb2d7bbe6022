// The identity tables of a mapping pass, built before any row is written: for each entity mapping,
// `(src, dst, made)` — which new row each source row becomes. A mapping keeps the source keys
// when it is the only reader of its source table into its destination table (decided by the
// compile); the others get fresh keys above every kept one, in source key order, mapping by
// mapping in editor order. `made` marks the rows the mapping's SQL creates; a policy's
// `associate` adds pairs with `made = 0`.
// A mapping with a filter predicate reads only the source objects the predicate admits: their
// keys are collected first, page by page, evaluating the predicate on the source's objects as a
// fetch does.
// Invariants: keys are unique per destination table; the same program gives the same keys.
import GraphStore

/// Builds a mapping pass's identity tables.
struct IdentityTables {
    let program: PassProgram
    /// The pass's source file.
    let input: String
    /// Source objects per page when a filter predicate is evaluated.
    let pageSize: Int

    func build(on pass: PassConnection) throws {
        try admit(on: pass)
        let source = program.source
        var highest: [Int: Int64] = [:]
        let ordered = program.identityTables.filter(\.keepsKeys) + program.identityTables.filter { !$0.keepsKeys }
        try pass.batch { connection in
            for table in ordered {
                let name = SQLiteIdentifier.quote(table.name)
                try connection.execute(
                    "CREATE TEMP TABLE \(name)(src INTEGER NOT NULL, dst INTEGER NOT NULL, made INTEGER NOT NULL,"
                        + " PRIMARY KEY(src, dst)) WITHOUT ROWID")
                guard table.createsRows, let entity = table.sourceEntity, let root = table.destinationRoot else {
                    continue
                }
                let key = "s.\(source.keyColumn)"
                var rows =
                    "FROM src.\(SQLiteIdentifier.quote(source.table(of: entity))) AS s"
                    + " WHERE s.\(source.entityColumn) = \(source.number(of: entity))"
                if let admitted = table.admitted {
                    rows += " AND \(key) IN (SELECT key FROM temp.\(SQLiteIdentifier.quote(admitted)))"
                }
                let base = highest[root.index] ?? 0
                let target = table.keepsKeys ? key : "\(base) + row_number() OVER (ORDER BY \(key))"
                try connection.execute("INSERT INTO temp.\(name)(src, dst, made) SELECT \(key), \(target), 1 \(rows)")
                let top = try pass.integer("SELECT coalesce(max(dst), 0) FROM temp.\(name)")
                highest[root.index] = max(base, top)
            }
        }
    }

    /// Fills the admitted-key tables of mappings with a filter predicate.
    private func admit(on pass: PassConnection) throws {
        let filtered = program.identityTables.filter { $0.filter != nil && $0.admitted != nil }
        guard !filtered.isEmpty else { return }
        var options = StoreOptions()
        options.readOnly = true
        let store = try PersistentStore.open(at: input, model: program.source.model, options: options)
        let context = try ObjectContext(store: store)
        for table in filtered {
            guard let predicate = table.filter, let admitted = table.admitted, let entity = table.sourceEntity else {
                continue
            }
            let name = "temp." + SQLiteIdentifier.quote(admitted)
            try pass.batch { connection in
                try connection.execute("CREATE TEMP TABLE \(SQLiteIdentifier.quote(admitted))(key INTEGER PRIMARY KEY)")
            }
            var last = Int64.min
            while case let page = try context.fetchPage(
                of: entity.name, after: last, limit: pageSize, includesSubentities: false),
                let final = page.last
            {
                try pass.batch { connection in
                    let insert = try connection.cachedStatement("INSERT INTO \(name)(key) VALUES (?)")
                    for object in page where try PredicateEvaluator.evaluate(predicate, on: object) {
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
}
