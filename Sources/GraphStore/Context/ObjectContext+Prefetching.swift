// Prefetching: loading a to-many relationship for many objects with one query per chunk of
// owners instead of one query per object (the importer checks memberships this way).
// Invariant: pending in-memory changes of a to-many fault are applied on top of what is
// loaded, exactly as when the fault fires on its own.

extension ObjectContext {
    /// Loads `relationship` (a to-many) of every object in `owners` that has not loaded it yet,
    /// in chunks of 500 owners per query.
    public func prefetch(_ relationshipName: String, of owners: [ManagedObject]) throws {
        guard let first = owners.first, let relationship = first.entity.relationship(named: relationshipName),
            relationship.isToMany
        else { return }
        let pending = owners.filter { owner in
            guard let key = owner.objectID.primaryKey, key > 0, owner.context === self else { return false }
            return owner.toMany[relationship.index]?.isFault ?? true
        }
        let destination = model.destination(of: relationship)
        let destinationTable = SQLiteIdentifier.quote(destination.tableName)
        let chunkSize = 500
        for start in stride(from: 0, to: pending.count, by: chunkSize) {
            let chunk = Array(pending[start..<min(pending.count, start + chunkSize)])
            let placeholders = Array(repeating: "?", count: chunkSize).joined(separator: ", ")
            let sql: String
            switch relationship.storage {
            case .inverseForeignKey(let column, let order):
                let owner = SQLiteIdentifier.quote(column)
                sql =
                    "SELECT d.\(owner), d.pk, d.ent FROM \(destinationTable) d WHERE d.\(owner) IN (\(placeholders))"
                    + " ORDER BY d.\(owner), " + (order.map { "d.\(SQLiteIdentifier.quote($0)), " } ?? "") + "d.pk"
            case .joinTable(let table, let source, let target, let order):
                sql =
                    "SELECT j.\(source), d.pk, d.ent FROM \(SQLiteIdentifier.quote(table)) j"
                    + " JOIN \(destinationTable) d ON d.pk = j.\(target) WHERE j.\(source) IN (\(placeholders))"
                    + " ORDER BY j.\(source), " + (order.map { "j.\($0), " } ?? "") + "d.pk"
            case .foreignKey, .transient:
                return
            }
            var members: [Int64: [ManagedObject]] = [:]
            try PersistentStore.sqlite(store.location.description) {
                let statement = try connection.cachedStatement(sql)
                defer { statement.reset() }
                for index in 0..<chunkSize {
                    let owner = chunk[min(index, chunk.count - 1)]
                    statement.bind(owner.objectID.key, at: Int32(index + 1))
                }
                while try statement.step() {
                    let kind = entity(storeID: statement.int64(2)) ?? destination
                    members[statement.int64(0), default: []].append(
                        registeredObject(entity: kind, key: statement.int64(1)))
                }
            }
            for owner in chunk {
                let state = try toManyState(of: owner, relationship, load: false)
                if state.isFault {
                    state.load(stored: members[owner.objectID.key] ?? [])
                }
            }
        }
    }
}
