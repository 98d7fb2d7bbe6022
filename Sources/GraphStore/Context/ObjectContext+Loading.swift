// Faulting: loading an object's row, its to-one destinations and its to-many members on first use
// (a child context loads them from its parent instead: ParentReads).
// Invariants: a fault fires with one indexed query; a to-many fault fires with one query for all
// its members; loading never overwrites unsaved in-memory changes; a SQLite failure (a damaged
// page) is a StoreError naming the store.

extension ObjectContext {
    /// Loads `object`'s row (its attributes and to-one destinations).
    func fire(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        if let parent = nesting.parent { return try fireFromParent(object, via: parent) }
        guard let key = object.objectID.primaryKey else { return }
        let entity = object.entity
        let rows = layout.rows(of: entity)
        let found = try readRows { connection in
            let statement = try connection.cachedStatement(rows.selectSQL)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            guard try statement.step() else { return false }
            fill(object, from: statement, mapping: RowMapping.forSingleRow(rows), rows: rows)
            return true
        }
        guard found else { throw ObjectError(.notFound, entity: entity.name, objectID: object.objectID) }
    }

    /// The object of a result row whose columns are `rowLayout.columns` after `offset` others
    /// (key, entity number, …), registered in this context; with `filling`, a fault is filled
    /// from the row. `entity` stands in for an entity number the layout does not know.
    func object(
        inRow statement: SQLiteStatement, of rowLayout: FetchRowLayout, entity: ModelEntity, offset: Int32 = 0,
        filling: Bool = true
    ) -> ManagedObject {
        let kind = layout.entity(number: statement.int64(offset + 1)) ?? entity
        let object = registeredObject(entity: kind, key: statement.int64(offset))
        if filling, object.isFault, let mapping = rowLayout.mappings[kind.index] {
            let shifted = offset == 0 ? mapping : mapping.shifted(by: offset)
            fill(object, from: statement, mapping: shifted, rows: layout.rows(of: kind))
        }
        return object
    }

    /// Copies a result row into `object` (which must be a fault).
    func fill(_ object: ManagedObject, from statement: SQLiteStatement, mapping: RowMapping, rows: EntityRowLayout) {
        let entity = object.entity
        var values = entity.attributes.map { $0.isTransient ? $0.declaration.defaultValue : nil }
        readAttributes(into: &values, of: entity, from: statement, mapping: mapping, rows: rows)
        object.values = values
        readToOnes(into: &object.toOne, of: entity, from: statement, mapping: mapping, rows: rows)
        for slot in rows.foreignKeys {
            object.toOneLoaded[slot] = true
        }
        for relationship in entity.relationships where relationship.isTransient && !relationship.isToMany {
            object.toOneLoaded[relationship.index] = true
        }
        object.rowVersion = statement.int64(mapping.versionColumn)
        object.isFault = false
    }

    /// Reads the stored attributes of a result row into `values` (by slot; transient slots are left alone).
    func readAttributes(
        into values: inout [AttributeValue?], of entity: ModelEntity, from statement: SQLiteStatement,
        mapping: RowMapping, rows: EntityRowLayout
    ) {
        for (slot, column) in zip(rows.storedAttributes, mapping.attributeColumns) {
            values[slot] = statement.attributeValue(
                at: column, type: entity.attributes[slot].type, encoding: layout.values)
        }
    }

    /// Reads the to-one destinations of a result row into `toOne` (by slot; registered objects,
    /// faults when not loaded yet; slots without a foreign key are left alone).
    func readToOnes(
        into toOne: inout [ManagedObject?], of entity: ModelEntity, from statement: SQLiteStatement,
        mapping: RowMapping, rows: EntityRowLayout
    ) {
        for (position, slot) in rows.foreignKeys.enumerated() {
            let column = mapping.foreignKeyColumns[position]
            guard !statement.isNull(column) else {
                toOne[slot] = nil
                continue
            }
            var destination = model.destination(of: entity.relationships[slot])
            if let entityColumn = mapping.foreignKeyEntityColumns[position], !statement.isNull(entityColumn),
                let concrete = layout.entity(number: statement.int64(entityColumn))
            {
                destination = concrete
            }
            toOne[slot] = registeredObject(entity: destination, key: statement.int64(column))
        }
    }

    /// The to-one destination of `relationship`, loading the object if needed.
    func toOneValue(of object: ManagedObject, _ relationship: ModelRelationship) throws -> ManagedObject? {
        if object.isFault { try fire(object) }
        return object.toOne[relationship.index]
    }

    /// The state of a to-many relationship; with `load`, its members are read from the store
    /// when they have not been yet.
    func toManyState(of object: ManagedObject, _ relationship: ModelRelationship, load: Bool) throws -> ToManyState {
        let state: ToManyState
        if let existing = object.toMany[relationship.index] {
            state = existing
        } else {
            state =
                object.isInserted || relationship.isTransient
                ? ToManyState(loaded: []) : ToManyState(fault: ())
            object.toMany[relationship.index] = state
        }
        if load && state.isFault {
            state.load(stored: try storedMembers(of: object, relationship))
        }
        return state
    }

    /// The members of a to-many as stored (in order for ordered relationships).
    private func storedMembers(of object: ManagedObject, _ relationship: ModelRelationship) throws -> [ManagedObject] {
        if let parent = nesting.parent { return try membersFromParent(of: object, relationship, via: parent) }
        guard let key = object.objectID.primaryKey else { return [] }
        let destination = model.destination(of: relationship)
        let destinationTable = SQLiteIdentifier.quote(layout.table(of: destination))
        let (pk, ent) = (layout.keyColumn, layout.entityColumn)
        let sql: String
        switch layout.storage(of: relationship) {
        case .inverseForeignKey(let column, let order):
            sql =
                "SELECT \(pk), \(ent) FROM \(destinationTable) WHERE \(SQLiteIdentifier.quote(column)) = ?"
                + (order.map { " ORDER BY \(SQLiteIdentifier.quote($0)), \(pk)" } ?? "")
        case .joinTable(let table, let source, let target, let order):
            sql =
                "SELECT d.\(pk), d.\(ent) FROM \(SQLiteIdentifier.quote(table)) j JOIN \(destinationTable) d ON d.\(pk) = j.\(target)"
                + " WHERE j.\(source) = ?" + (order.map { " ORDER BY j.\($0), d.\(pk)" } ?? "")
        case .foreignKey, .transient:
            return []
        }
        return try readRows { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            var members: [ManagedObject] = []
            while try statement.step() {
                let kind = layout.entity(number: statement.int64(1)) ?? destination
                members.append(registeredObject(entity: kind, key: statement.int64(0)))
            }
            return members
        }
    }
}
