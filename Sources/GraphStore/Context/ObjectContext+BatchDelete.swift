// Batch deletes: the matching rows, and everything their cascade rules reach, deleted with
// set-based SQL in one transaction, followed by a change set for other contexts.
// Invariants: the doomed rows are collected in a TEMP table (root entity index, key, entity number), grown
// by one INSERT … SELECT per cascade relationship until nothing new is added (so a cascade of
// any depth costs a few statements per level, never one per object); a deny rule with a
// surviving destination aborts the whole delete; no reference to a deleted row survives: to-one
// columns pointing at one are cleared (with their position column, row version bumped) and join
// rows naming one are removed.

extension ObjectContext {
    /// The TEMP table of doomed rows: `seedkit_doomed`.
    private var doomed: String { "temp." + layout.reservedName("doomed") }

    /// Deletes every matching object, and what its cascade rules reach, with SQL.
    ///
    /// ```swift
    /// let result = try context.execute(BatchDeleteRequest(entityName: "Organization", predicate: .key("name") == "Zenith"))
    /// viewContext.merge(result.changes)
    /// ```
    ///
    /// - Throws: ``FetchError`` for an unknown entity or key path, or
    ///   ``FetchError/invalidRequest(_:)`` when a deny rule forbids the delete; ``StoreError``
    ///   for a read-only store or a SQLite failure; ``ObjectError`` (`.childContext`) in a child
    ///   context, whose deletions go to its parent (delete objects there instead). Nothing is
    ///   deleted when it throws.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try requireStoreContext("run a batch delete")
        _ = try self.entity(named: request.entityName)
        guard !store.isReadOnly else { throw StoreError(.readOnly, path: store.location.description) }
        let builder = try FetchQueryBuilder(layout: layout, request: request.fetchRequest)
        let selection = try builder.selectQuery(columns: identityColumns, applyingLimit: false)
        let (pk, ent) = (layout.keyColumn, layout.entityColumn)
        let result = try inBatchTransaction { () throws -> BatchResult in
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS \(layout.reservedName("doomed"))(tbl INTEGER NOT NULL, pk INTEGER NOT NULL,"
                    + " ent INTEGER NOT NULL, PRIMARY KEY (tbl, pk)) WITHOUT ROWID")
            try connection.execute("DELETE FROM \(doomed)")
            let ids = try connection.rows(selection, encoding: layout.values, objectID)
            var insert = SQLQuery(
                "INSERT INTO \(doomed)(tbl, pk, ent) SELECT \(builder.entity.rootIndex), \(pk), \(ent) FROM (")
            insert.append(selection)
            insert.append(")")
            try connection.execute(insert, encoding: layout.values)
            try cascade()
            let updated = try clearReferences()
            let deleted = try connection.rows(
                SQLQuery("SELECT pk, ent FROM \(doomed)"), encoding: layout.values, objectID)
            for root in layout.roots {
                try connection.execute(
                    "DELETE FROM \(SQLiteIdentifier.quote(layout.table(of: root)))"
                        + " WHERE \(pk) IN (\(doomedKeys(root.index)))")
            }
            try connection.execute("DELETE FROM \(doomed)")
            return BatchResult(objectIDs: ids, changes: ChangeSet(updated: Set(updated), deleted: Set(deleted)))
        }
        finishBatch(result.changes)
        return result
    }

    /// `SELECT pk FROM doomed WHERE tbl = root`: the doomed keys of one root table (of `kinds` only, when given).
    private func doomedKeys(_ root: Int, kinds: ModelEntity? = nil) -> String {
        "SELECT pk FROM \(doomed) WHERE tbl = \(root)"
            + (kinds.map { " AND ent IN (" + layout.kindList(of: $0) + ")" } ?? "")
    }

    /// Each stored relationship once, with the entity that declares it.
    private var declaredRelationships: [(entity: ModelEntity, relationship: ModelRelationship)] {
        model.entities.flatMap { entity in
            entity.relationships.filter { $0.declaringEntity == entity.name && !$0.isTransient }
                .map { (entity, $0) }
        }
    }

    /// Adds the destinations of cascade relationships to the doomed rows, level by level, and
    /// refuses the delete when a deny relationship of a doomed row still has a surviving destination.
    private func cascade() throws {
        let relationships = declaredRelationships
        let (pk, ent) = (layout.keyColumn, layout.entityColumn)
        var added: Int
        repeat {
            added = 0
            for (entity, relationship) in relationships where relationship.deleteRule == .cascade {
                let destination = model.destination(of: relationship)
                added += try connection.execute(
                    SQLQuery(
                        "INSERT OR IGNORE INTO \(doomed)(tbl, pk, ent) SELECT \(destination.rootIndex), d.\(pk), d.\(ent)"
                            + " FROM \(SQLiteIdentifier.quote(layout.table(of: destination))) d WHERE d.\(pk) IN ("
                            + destinationKeys(entity, relationship) + ")"), encoding: layout.values)
            }
        } while added > 0
        for (entity, relationship) in relationships where relationship.deleteRule == .deny {
            let destination = model.destination(of: relationship)
            let survivor = try connection.rows(
                SQLQuery(
                    "SELECT 1 FROM (\(destinationKeys(entity, relationship))) k WHERE k.key NOT IN ("
                        + doomedKeys(destination.rootIndex) + ") LIMIT 1"), encoding: layout.values
            ) { _ in true }
            if !survivor.isEmpty {
                throw FetchError.invalidRequest(
                    "batch delete denied: \(entity.name).\(relationship.name) still has objects (deny rule)")
            }
        }
    }

    /// `SELECT … AS key`: the destination keys of `relationship` for the doomed rows of `entity`.
    private func destinationKeys(_ entity: ModelEntity, _ relationship: ModelRelationship) -> String {
        let sources = doomedKeys(entity.rootIndex, kinds: entity)
        let quote = SQLiteIdentifier.quote
        let pk = layout.keyColumn
        switch layout.storage(of: relationship) {
        case .foreignKey(let column):
            return "SELECT s.\(quote(column)) AS key FROM \(quote(layout.table(of: entity))) s"
                + " WHERE s.\(pk) IN (\(sources)) AND s.\(quote(column)) IS NOT NULL"
        case .inverseForeignKey(let column, _):
            let destination = layout.table(of: model.destination(of: relationship))
            return "SELECT d.\(pk) AS key FROM \(quote(destination)) d WHERE d.\(quote(column)) IN (\(sources))"
        case .joinTable(let table, let source, let target, _):
            return "SELECT j.\(quote(target)) AS key FROM \(quote(table)) j WHERE j.\(quote(source)) IN (\(sources))"
        case .transient:
            return "SELECT NULL AS key WHERE 0"
        }
    }

    /// Clears every to-one column that points at a doomed row (in rows that survive) and removes
    /// every join row naming one; returns the IDs of the rows whose columns were cleared.
    private func clearReferences() throws -> [ObjectID] {
        let quote = SQLiteIdentifier.quote
        let (pk, ent, opt) = (layout.keyColumn, layout.entityColumn, layout.versionColumn)
        var updated: [ObjectID] = []
        var clearedJoinTables: Set<String> = []
        for (entity, relationship) in declaredRelationships {
            let destination = model.destination(of: relationship)
            switch layout.storage(of: relationship) {
            case .foreignKey(let column):
                var assignments = "\(quote(column)) = NULL"
                if let companion = layout.companionColumn(of: relationship) {
                    assignments += ", \(quote(companion)) = NULL"
                }
                if let inverse = model.inverse(of: relationship),
                    case .inverseForeignKey(_, let order?) = layout.storage(of: inverse)
                {
                    assignments += ", \(quote(order)) = NULL"
                }
                let table = quote(layout.table(of: entity))
                let condition =
                    " WHERE \(quote(column)) IN (\(doomedKeys(destination.rootIndex)))"
                    + " AND \(pk) NOT IN (\(doomedKeys(entity.rootIndex)))"
                updated += try connection.rows(
                    SQLQuery("SELECT \(pk), \(ent) FROM \(table)" + condition), encoding: layout.values, objectID)
                try connection.execute("UPDATE \(table) SET \(assignments), \(opt) = \(opt) + 1" + condition)
            case .joinTable(let table, let source, let target, _) where clearedJoinTables.insert(table).inserted:
                try connection.execute(
                    "DELETE FROM \(quote(table)) WHERE \(quote(source)) IN (\(doomedKeys(entity.rootIndex)))"
                        + " OR \(quote(target)) IN (\(doomedKeys(destination.rootIndex)))")
            default:
                continue
            }
        }
        return updated
    }
}
