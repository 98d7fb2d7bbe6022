// Prefetching: loading relationships for many objects with one query per level (per chunk of
// 500 owners) instead of one query per object: a to-many's members (and, for a fetch's
// `relationshipKeyPathsForPrefetching`, their rows), a to-one's destinations' rows.
// A child context asks its parent instead, once per level.
// Invariants: pending in-memory changes of a to-many fault are applied on top of what is
// loaded, exactly as when the fault fires on its own; objects that are already loaded are never
// read again; a multi-level key path (`items.tags`) prefetches each level from the objects the
// level before reached.

extension ObjectContext {
    private static let prefetchChunks = KeyChunks(size: 500)

    /// Loads `relationship` (a to-many) of every object in `owners` that has not loaded it yet,
    /// in chunks of 500 owners per query. The members stay faults.
    public func prefetch(_ relationshipName: String, of owners: [ManagedObject]) throws {
        guard let first = owners.first, let relationship = first.entity.relationship(named: relationshipName),
            relationship.isToMany
        else { return }
        _ = try prefetchMembers(relationship, of: owners, fillingRows: false)
    }

    /// Loads every level of each dotted relationship key path (`"items.tags"`, `"unit"`) from
    /// `objects`, filling the reached objects' rows: one query per level and chunk of 500.
    ///
    /// ```swift
    /// try context.prefetch(keyPaths: ["employees.projects", "organization"], of: people)
    /// ```
    ///
    /// - Throws: ``FetchError`` when a key does not name a relationship of the objects reached.
    public func prefetch(keyPaths: [String], of objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var level = objects
            for key in keyPath.split(separator: ".") {
                var next: [ManagedObject] = []
                for (entity, owners) in Dictionary(grouping: level, by: { $0.entity.index }).sorted(by: {
                    $0.key < $1.key
                }) {
                    let entity = model.entities[entity]
                    guard let relationship = entity.relationship(named: String(key)) else {
                        throw FetchError.unknownKeyPath(entity: entity.name, keyPath: keyPath)
                    }
                    next += try prefetchLevel(relationship, of: owners)
                }
                level = next
            }
        }
    }

    /// One level: the destinations of `relationship` for `owners`, loaded.
    private func prefetchLevel(_ relationship: ModelRelationship, of owners: [ManagedObject]) throws -> [ManagedObject]
    {
        if relationship.isToMany { return try prefetchMembers(relationship, of: owners, fillingRows: true) }
        try fillRows(of: owners.filter(\.isFault))
        var seen: Set<ObjectIdentifier> = []
        let destinations = owners.compactMap { $0.toOne[relationship.index] }.filter {
            seen.insert(ObjectIdentifier($0)).inserted
        }
        try fillRows(of: destinations.filter(\.isFault))
        return destinations
    }

    /// Loads the members of a to-many for every owner whose collection is still a fault (with
    /// their rows when `fillingRows`), and returns every owner's members.
    private func prefetchMembers(_ relationship: ModelRelationship, of owners: [ManagedObject], fillingRows: Bool)
        throws
        -> [ManagedObject]
    {
        if let parent = nesting.parent {
            return try prefetchMembersFromParent(relationship, of: owners, fillingRows: fillingRows, via: parent)
        }
        let pending = owners.filter { owner in
            guard let key = owner.objectID.primaryKey, key > 0, owner.context === self else { return false }
            return owner.toMany[relationship.index]?.isFault ?? true
        }
        let destination = model.destination(of: relationship)
        let table = SQLiteIdentifier.quote(layout.table(of: destination))
        let rowLayout = FetchRowLayout(entity: destination, layout: layout)
        let pk = layout.keyColumn
        let columns = fillingRows ? rowLayout.columns.joined(separator: ", ") : "t0.\(pk), t0.\(layout.entityColumn)"
        let chunks = Self.prefetchChunks
        let sql: String
        switch layout.storage(of: relationship) {
        case .inverseForeignKey(let column, let order):
            let owner = "t0.\(SQLiteIdentifier.quote(column))"
            sql =
                "SELECT \(owner), \(columns) FROM \(table) t0 WHERE \(owner) IN \(chunks.list)"
                + " ORDER BY \(owner), " + (order.map { "t0.\(SQLiteIdentifier.quote($0)), " } ?? "") + "t0.\(pk)"
        case .joinTable(let joinTable, let source, let target, let order):
            let owner = "j.\(SQLiteIdentifier.quote(source))"
            sql =
                "SELECT \(owner), \(columns) FROM \(SQLiteIdentifier.quote(joinTable)) j"
                + " JOIN \(table) t0 ON t0.\(pk) = j.\(SQLiteIdentifier.quote(target)) WHERE \(owner) IN \(chunks.list)"
                + " ORDER BY \(owner), " + (order.map { "j.\(SQLiteIdentifier.quote($0)), " } ?? "") + "t0.\(pk)"
        case .foreignKey, .transient:
            return []
        }
        for chunk in chunks.split(pending) {
            var members: [Int64: [ManagedObject]] = [:]
            try PersistentStore.sqlite(store.location.description) {
                let statement = try connection.cachedStatement(sql)
                try chunks.query(statement, with: chunk, bind: { $0.bind($1.objectID.key, at: $2) }) { statement in
                    let member = object(
                        inRow: statement, of: rowLayout, entity: destination, offset: 1, filling: fillingRows)
                    members[statement.int64(0), default: []].append(member)
                }
            }
            for owner in chunk {
                let state = try toManyState(of: owner, relationship, load: false)
                if state.isFault {
                    state.load(stored: members[owner.objectID.key] ?? [])
                }
            }
        }
        return try owners.flatMap { try $0.relatedObjects(at: relationship.index) }
    }

    /// Loads the rows of `objects` (faults with permanent IDs) with one query per root table
    /// and chunk of 500.
    private func fillRows(of objects: [ManagedObject]) throws {
        if let parent = nesting.parent { return try loadFromParent(objects, via: parent) }
        let stored = objects.filter { $0.objectID.primaryKey != nil && $0.context === self }
        let chunks = Self.prefetchChunks
        for (root, group) in Dictionary(grouping: stored, by: { $0.entity.rootIndex }).sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[root]
            let rowLayout = FetchRowLayout(entity: entity, layout: layout)
            let sql =
                "SELECT \(rowLayout.columns.joined(separator: ", ")) FROM \(SQLiteIdentifier.quote(layout.table(of: entity))) t0"
                + " WHERE t0.\(layout.keyColumn) IN \(chunks.list)"
            for chunk in chunks.split(group) {
                try PersistentStore.sqlite(store.location.description) {
                    let statement = try connection.cachedStatement(sql)
                    try chunks.query(statement, with: chunk, bind: { $0.bind($1.objectID.key, at: $2) }) { statement in
                        _ = object(inRow: statement, of: rowLayout, entity: entity)
                    }
                }
            }
        }
    }
}
