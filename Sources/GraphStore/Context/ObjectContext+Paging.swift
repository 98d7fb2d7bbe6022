// Paging: reading an entity's objects in primary-key order, a page at a time, and loading many
// faults with one query — how exports and deep copies walk stores of any size in bounded memory.
// Paging walks the store, so a child context does not page (its `load` asks its parent).
// Invariant: a page never holds more than `limit` objects; objects that already hold unsaved
// changes keep them.

extension ObjectContext {
    /// Up to `limit` objects of `entityName` (and its sub-entities) with keys above `key`, in key order, loaded.
    ///
    /// ```swift
    /// var last: Int64 = 0
    /// while case let page = try context.fetchPage(of: "Item", after: last, limit: 5000), !page.isEmpty {
    ///     …
    ///     last = page.last?.objectID.key ?? last
    ///     context.reset()
    /// }
    /// ```
    ///
    /// - Throws: ``ObjectError`` (`.childContext`) in a child context: a page walks the store.
    public func fetchPage(of entityName: String, after key: Int64, limit: Int, includesSubentities: Bool = true) throws
        -> [ManagedObject]
    {
        try requireStoreContext("page through the store")
        let entity = try self.entity(named: entityName)
        let rowLayout = FetchRowLayout(entity: entity, layout: layout)
        let kinds = includesSubentities ? layout.kindList(of: entity) : String(layout.number(of: entity))
        let (pk, ent) = (layout.keyColumn, layout.entityColumn)
        let sql =
            "SELECT " + rowLayout.columns.joined(separator: ", ")
            + " FROM \(SQLiteIdentifier.quote(layout.table(of: entity))) t0"
            + " WHERE t0.\(ent) IN (\(kinds)) AND t0.\(pk) > ? ORDER BY t0.\(pk) LIMIT ?"
        return try PersistentStore.sqlite(store.location.description) {
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            statement.bind(Int64(max(0, limit)), at: 2)
            var objects: [ManagedObject] = []
            while try statement.step() {
                objects.append(object(inRow: statement, of: rowLayout, entity: entity))
            }
            return objects
        }
    }

    /// Loads every fault in `objects` with one query per entity and chunk of 500 keys.
    public func load(_ objects: [ManagedObject]) throws {
        if let parent = nesting.parent { return try loadFromParent(objects, via: parent) }
        let faults = objects.filter { $0.isFault && $0.context === self && $0.objectID.primaryKey != nil }
        let byEntity = Dictionary(grouping: faults) { $0.entity.index }
        let chunks = KeyChunks(size: 500)
        let pk = layout.keyColumn
        for (entityIndex, group) in byEntity.sorted(by: { $0.key < $1.key }) {
            let rows = layout.rows(of: model.entities[entityIndex])
            // The single-row SELECT with the key in front and `pk IN (…)` for `pk = ?`.
            let mapping = RowMapping.forSingleRow(rows).shifted(by: 1)
            let sql =
                "SELECT \(pk), " + rows.selectSQL.dropFirst("SELECT ".count).dropLast("\(pk) = ?".count)
                + "\(pk) IN \(chunks.list)"
            for chunk in chunks.split(group) {
                let byKey = Dictionary(chunk.map { ($0.objectID.key, $0) }, uniquingKeysWith: { first, _ in first })
                try PersistentStore.sqlite(store.location.description) {
                    let statement = try connection.cachedStatement(sql)
                    try chunks.query(statement, with: chunk, bind: { $0.bind($1.objectID.key, at: $2) }) { statement in
                        guard let object = byKey[statement.int64(0)], object.isFault else { return }
                        fill(object, from: statement, mapping: mapping, rows: rows)
                    }
                }
            }
        }
    }
}
