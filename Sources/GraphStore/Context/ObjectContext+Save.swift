// Saving: validate, then write every insert, update, delete, join-table pair and ordered position
// in one SQLite transaction; only after the commit do objects take their permanent IDs and
// lose their change flags, the change set goes out to observers, and the context's children
// learn the permanent IDs. (A child context saves into its parent instead: SavingToParent.)
// Invariants: all or nothing — on any error the store is unchanged and so is every object's
// in-memory state (permanent keys are kept aside until the commit); new rows get keys above the
// table's current maximum, allocated inside the write transaction.

extension ObjectContext {
    /// Saves every change in one transaction and returns what changed (nil when nothing did).
    ///
    /// In a child context (``newChildContext(name:)``), the save validates the changed objects
    /// and pushes the changes into the parent context instead (nothing reaches the store until
    /// the parent's own save); the change set then names the objects pushed, by the IDs they
    /// have here (temporary ones for new objects).
    ///
    /// - Parameter metadata: store metadata keys to set (nil values remove keys) in the same
    ///   transaction — importers use it for checkpoints. A child context takes none.
    /// - Throws: ``ObjectValidationError`` with every failure (nothing written), ``ObjectError``, or
    ///   ``StoreError`` from SQLite (nothing written).
    @discardableResult
    public func save(metadata: [String: String?] = [:]) throws -> ChangeSet? {
        if let parent = nesting.parent, metadata.isEmpty { return try saveToParent(via: parent) }
        return try save(metadata: metadata, finishing: nil)
    }

    /// Saves like ``save(metadata:)``; with `run`, the run's undo log and marker are dropped in
    /// the same transaction, so the last batch and the end of the run commit together.
    /// Inside an open transaction (a dry run), the save is a savepoint of it.
    @discardableResult
    func save(metadata: [String: String?], finishing run: RunJournal?) throws -> ChangeSet? {
        try save(metadata: metadata, finishing: run) { _ in [:] }
    }

    /// Saves like ``save(metadata:)``, and adds the metadata `lateMetadata` computes once every
    /// inserted object has its row key — in the same transaction. `lateMetadata` gets a function
    /// giving the permanent ID an object has after this save (nil for objects that will not exist).
    ///
    /// Importers use it to store references that wait for later records, by permanent ID,
    /// atomically with the batch that created their owners.
    @discardableResult
    public func save(
        metadata: [String: String?], finishing run: RunJournal? = nil,
        lateMetadata: (_ permanentID: (ManagedObject) -> ObjectID?) throws -> [String: String?]
    ) throws -> ChangeSet? {
        try requireStoreContext("save store metadata or runs")
        guard hasChanges || !metadata.isEmpty || run != nil else { return nil }
        guard !store.isReadOnly else { throw StoreError(.readOnly, path: store.location.description) }
        var plan = pendingSavePlan()
        try validate(plan)
        try PersistentStore.sqlite(store.location.description) {
            let write = { [self] in
                try assignKeys(&plan)
                try writeInserts(&plan)
                for root in plan.rootsWithNewKeys {
                    try layout.coverKeys(ofRoot: model.entities[root], on: connection)
                }
                try writeUpdates(&plan)
                try writeDeletes(plan)
                try writeJoinChanges(plan)
                try writePositions(plan)
                let late = try lateMetadata { [self] object in
                    rowKey(of: object, in: plan).map {
                        ObjectID(storeUUID: store.identifier, entityID: layout.number(of: object.entity), key: $0)
                    }
                }
                let allMetadata = metadata.merging(late) { _, new in new }
                if !allMetadata.isEmpty { try layout.writeMetadata(allMetadata, on: connection) }
                try run?.forget(layout: layout, on: connection)
            }
            if connection.isInTransaction {
                try connection.savepoint(layout.reservedName("save"), write)
            } else {
                try connection.transaction(.immediate, write)
            }
        }
        if let run {
            try PersistentStore.sqlite(store.location.description) {
                try run.dropTriggers(layout: layout, on: connection)
            }
        }
        let nested = connection.isInTransaction
        let changes = finishSave(plan)
        if !nested { store.saves.publish(changes) }
        return changes
    }

    /// Every rule `objects` break (required values, ranges, lengths, patterns, dates,
    /// relationship counts), without saving — seed builds check a whole store this way.
    public func validationFailures(of objects: [ManagedObject]) throws -> [ValidationFailure] {
        var validator = SaveValidator()
        var failures: [ValidationFailure] = []
        for object in objects where object.context === self {
            failures += try validator.failures(of: object, in: self)
        }
        return failures
    }

    /// What a save of the context's pending changes writes: inserted objects not deleted again,
    /// updated, deleted and touched objects that are not also in an earlier list.
    func pendingSavePlan() -> SavePlan {
        SavePlan(
            inserted: insertedList.filter { $0.isInserted && !$0.isDeleted },
            updated: updatedList.filter { $0.isUpdated && !$0.isDeleted && !$0.isInserted },
            deleted: deletedList.filter { $0.isDeleted && !$0.isInserted },
            touched: touchedList.filter { $0.isTouched && !$0.isUpdated && !$0.isDeleted && !$0.isInserted })
    }

    /// Checks every object `plan` writes against the model's rules; throws every failure at once.
    func validate(_ plan: SavePlan) throws {
        var validator = SaveValidator()
        var failures: [ValidationFailure] = []
        for object in plan.inserted + plan.updated {
            failures += try validator.failures(of: object, in: self)
        }
        // An owner whose to-many members changed (through the members' to-ones, a join table or a
        // delete rule) keeps its row, but its member counts must still hold.
        for object in plan.touched {
            failures += try validator.countFailures(of: object, in: self)
        }
        for object in plan.deleted {
            failures += try validator.denyFailures(of: object, in: self)
        }
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
    }

    // MARK: - Keys

    /// Gives every inserted object its row key: an existing row's key when the merge policy
    /// merges it into that row, otherwise the next free key of its table.
    private func assignKeys(_ plan: inout SavePlan) throws {
        var nextKey: [Int: Int64] = [:]  // by root entity index
        var claimed: [String: Int64] = [:]  // unique-constraint values → key, within this save
        for object in plan.inserted {
            let identity = ObjectIdentifier(object)
            if mergePolicy != .error, let existing = try existingRow(for: object, claimed: &claimed) {
                plan.keys[identity] = existing
                plan.merged.insert(identity)
                continue
            }
            let root = model.root(of: object.entity)
            let key = try nextKey[root.index] ?? layout.highestKey(ofRoot: root, on: connection) + 1
            nextKey[root.index] = key + 1
            plan.keys[identity] = key
            if mergePolicy != .error { claim(object, key: key, in: &claimed) }
        }
        plan.rootsWithNewKeys = nextKey.keys.sorted()
    }

    /// The key of a stored row (or an object earlier in this save) sharing a unique constraint's values with `object`.
    private func existingRow(for object: ManagedObject, claimed: inout [String: Int64]) throws -> Int64? {
        for constraint in object.entity.uniqueConstraints {
            let values = try constraint.map { try object[$0] }
            guard values.allSatisfy({ $0 != nil }) else { continue }
            let signature = uniqueSignature(object.entity, constraint, values)
            if let key = claimed[signature] { return key }
            let conditions = constraint.map { property in
                "\(SQLiteIdentifier.quote(layout.column(ofProperty: property, in: object.entity) ?? property)) = ?"
            }.joined(separator: " AND ")
            let kinds = layout.kindList(of: model.root(of: object.entity))
            let table = SQLiteIdentifier.quote(layout.table(of: object.entity))
            let statement = try connection.cachedStatement(
                "SELECT \(layout.keyColumn) FROM \(table) WHERE \(conditions) AND \(layout.entityColumn) IN (\(kinds)) LIMIT 1"
            )
            defer { statement.reset() }
            for (position, value) in values.enumerated() {
                statement.bind(value, at: Int32(position + 1), encoding: layout.values)
            }
            if try statement.step() {
                let key = statement.int64(0)
                claimed[signature] = key
                return key
            }
        }
        return nil
    }

    private func claim(_ object: ManagedObject, key: Int64, in claimed: inout [String: Int64]) {
        for constraint in object.entity.uniqueConstraints {
            guard let values = try? constraint.map({ try object[$0] }), values.allSatisfy({ $0 != nil }) else {
                continue
            }
            claimed[uniqueSignature(object.entity, constraint, values)] = key
        }
    }

    private func uniqueSignature(_ entity: ModelEntity, _ constraint: [String], _ values: [AttributeValue?]) -> String {
        layout.table(of: entity) + "|" + constraint.joined(separator: ",") + "|"
            + values.map { "\($0.map { "\($0.kindName):\($0)" } ?? "nil")" }.joined(separator: "|")
    }

    /// The key a relationship column stores for `object`, or nil when it will not exist after the save.
    func rowKey(of object: ManagedObject?, in plan: SavePlan) -> Int64? {
        guard let object, !object.isDeleted else { return nil }
        return plan.keys[ObjectIdentifier(object)] ?? object.objectID.primaryKey
    }

    // MARK: - Rows

    private func writeInserts(_ plan: inout SavePlan) throws {
        for object in plan.inserted {
            let identity = ObjectIdentifier(object)
            guard let key = plan.keys[identity] else { continue }
            if plan.merged.contains(identity) {
                if mergePolicy == .objectWins {
                    // The row's version is bumped, so other contexts holding it see the overwrite.
                    let stored = try storedVersion(of: object.entity, key: key)
                    try updateRow(of: object, key: key, version: stored, plan: plan)
                    plan.versions[identity] = stored + 1
                }
                continue
            }
            let rows = layout.rows(of: object.entity)
            let statement = try connection.cachedStatement(rows.insertSQL)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            statement.bind(layout.number(of: object.entity), at: 2)
            statement.bind(Int64(1), at: 3)
            bindData((object.values, object.toOne), rows: rows, to: statement, from: 4, plan: plan)
            do {
                try statement.execute()
            } catch let error as SQLiteError where error.isUniqueConstraintViolation {
                throw ObjectValidationError(failures: [uniqueFailure(object, error)])
            }
            plan.versions[identity] = 1
        }
    }

    /// Writes the rows of updated objects. A row changed by someone else since the object read it
    /// (its version moved on) fails the save (`.error`), is overwritten (`.objectWins`), or keeps
    /// its stored attribute values and the stored destinations of the to-ones the object did not
    /// change, while the to-ones it changed are written (`.storeWins`; the object takes the
    /// stored values and destinations after the commit).
    private func writeUpdates(_ plan: inout SavePlan) throws {
        for object in plan.updated where !object.isFault {
            guard let key = object.objectID.primaryKey else { continue }
            let identity = ObjectIdentifier(object)
            let checkVersion = mergePolicy == .objectWins ? nil : object.rowVersion
            if try updateRow(of: object, key: key, version: checkVersion, plan: plan) {
                plan.versions[identity] = object.rowVersion + 1
            } else if mergePolicy == .error {
                throw ObjectValidationError(failures: [
                    ValidationFailure(entity: object.entity.name, objectID: object.objectID, rule: .rowVersionConflict)
                ])
            } else {
                let stored = try storedRow(of: object, key: key)
                // The to-ones the object changed keep its destinations; the others take the row's.
                var toOne = stored.toOne
                for slot in toOne.indices where !(object.snapshot.map { $0.toOne[slot] === object.toOne[slot] } ?? true)
                {
                    toOne[slot] = object.toOne[slot]
                }
                try updateRow(
                    of: object, key: key, version: stored.version, data: (stored.values, toOne), plan: plan)
                plan.versions[identity] = stored.version + 1
                plan.storedData[identity] = (stored.values, toOne)
            }
        }
    }

    /// What row `key` holds for `object` now: its attribute values (with the object's transient
    /// values as they are), its to-one destinations (the object's for slots without a foreign
    /// key) and its version.
    private func storedRow(of object: ManagedObject, key: Int64) throws
        -> (values: [AttributeValue?], toOne: [ManagedObject?], version: Int64)
    {
        let rows = layout.rows(of: object.entity)
        let statement = try connection.cachedStatement(rows.selectSQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else {
            throw ObjectError(.notFound, entity: object.entity.name, objectID: object.objectID)
        }
        let mapping = RowMapping.forSingleRow(rows)
        var (values, toOne) = (object.values, object.toOne)
        readAttributes(into: &values, of: object.entity, from: statement, mapping: mapping, rows: rows)
        readToOnes(into: &toOne, of: object.entity, from: statement, mapping: mapping, rows: rows)
        return (values, toOne, statement.int64(mapping.versionColumn))
    }

    /// Writes all data columns of `object` to row `key` (its attribute values and to-ones, or
    /// `data`); with `version`, only if the row still has it. Returns whether a row was written.
    @discardableResult
    private func updateRow(
        of object: ManagedObject, key: Int64, version: Int64?,
        data: (values: [AttributeValue?], toOne: [ManagedObject?])? = nil, plan: SavePlan
    ) throws -> Bool {
        let rows = layout.rows(of: object.entity)
        let sql = version == nil ? rows.updateSQL : rows.updateSQL + " AND \(layout.versionColumn) = ?"
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        let nextVersion = (version ?? object.rowVersion) + 1
        statement.bind(nextVersion, at: 1)
        let next = bindData(data ?? (object.values, object.toOne), rows: rows, to: statement, from: 2, plan: plan)
        statement.bind(key, at: next)
        if let version { statement.bind(version, at: next + 1) }
        do {
            try statement.execute()
        } catch let error as SQLiteError where error.isUniqueConstraintViolation {
            throw ObjectValidationError(failures: [uniqueFailure(object, error)])
        }
        return connection.changes > 0
    }

    /// The version row `key` of `entity`'s table has now.
    private func storedVersion(of entity: ModelEntity, key: Int64) throws -> Int64 {
        let statement = try connection.cachedStatement(
            "SELECT \(layout.versionColumn) FROM \(SQLiteIdentifier.quote(layout.table(of: entity))) WHERE \(layout.keyColumn) = ?"
        )
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { throw ObjectError(.notFound, entity: entity.name) }
        return statement.int64(0)
    }

    /// Binds `data`'s attribute values (by slot), its to-ones' foreign keys, then the
    /// companions' destination entity numbers from parameter `first`; returns the next parameter index.
    @discardableResult
    private func bindData(
        _ data: (values: [AttributeValue?], toOne: [ManagedObject?]), rows: EntityRowLayout,
        to statement: SQLiteStatement, from first: Int32, plan: SavePlan
    ) -> Int32 {
        var parameter = first
        for slot in rows.storedAttributes {
            statement.bind(data.values[slot], at: parameter, encoding: layout.values)
            parameter += 1
        }
        for slot in rows.foreignKeys {
            if let key = rowKey(of: data.toOne[slot], in: plan) {
                statement.bind(key, at: parameter)
            } else {
                statement.bindNull(at: parameter)
            }
            parameter += 1
        }
        for (position, slot) in rows.foreignKeys.enumerated() where rows.companionColumns[position] != nil {
            if let destination = data.toOne[slot], rowKey(of: destination, in: plan) != nil {
                statement.bind(layout.number(of: destination.entity), at: parameter)
            } else {
                statement.bindNull(at: parameter)
            }
            parameter += 1
        }
        return parameter
    }

    private func uniqueFailure(_ object: ManagedObject, _ error: SQLiteError) -> ValidationFailure {
        let constraint =
            object.entity.uniqueConstraints.first { keys in
                keys.allSatisfy { error.message.contains(".\($0)") }
            } ?? []
        let values = constraint.map { key in (try? object[key]).flatMap { $0.map { "\($0)" } } ?? "nil" }
        return ValidationFailure(
            entity: object.entity.name, objectID: object.objectID, key: constraint.joined(separator: ","),
            value: values.joined(separator: ","), rule: .uniqueConstraint(constraint))
    }

    private func writeDeletes(_ plan: SavePlan) throws {
        for object in plan.deleted {
            guard let key = object.objectID.primaryKey else { continue }
            let delete = try connection.cachedStatement(layout.rows(of: object.entity).deleteSQL)
            defer { delete.reset() }
            delete.bind(key, at: 1)
            try delete.execute()
            for relationship in object.entity.relationships {
                guard case .joinTable(let table, let source, _, _) = layout.storage(of: relationship) else { continue }
                let unlink = try connection.cachedStatement(
                    "DELETE FROM \(SQLiteIdentifier.quote(table)) WHERE \(source) = ?")
                defer { unlink.reset() }
                unlink.bind(key, at: 1)
                try unlink.execute()
            }
        }
    }

    private func writeJoinChanges(_ plan: SavePlan) throws {
        for (table, changes) in joinChanges.sorted(by: { $0.key < $1.key }) {
            guard let joinTable = layout.joinTable(named: table) else { continue }
            let quoted = SQLiteIdentifier.quote(table)
            let (first, second) = (joinTable.firstColumn, joinTable.secondColumn)
            try write(
                changes.pairsToDelete, with: "DELETE FROM \(quoted) WHERE \(first) = ? AND \(second) = ?", plan: plan)
            try write(
                changes.pairsToInsert, with: "INSERT OR IGNORE INTO \(quoted)(\(first), \(second)) VALUES (?, ?)",
                plan: plan)
        }
    }

    /// Runs `sql` once per pair whose both ends exist after the save, binding their row keys.
    private func write(_ pairs: [JoinTableChanges.Pair], with sql: String, plan: SavePlan) throws {
        let statement = try connection.cachedStatement(sql)
        for pair in pairs {
            guard let source = rowKey(of: pair.source, in: plan),
                let destination = rowKey(of: pair.destination, in: plan)
            else { continue }
            statement.bind(source, at: 1)
            statement.bind(destination, at: 2)
            try statement.execute()
        }
    }

    /// Writes the positions of every ordered to-many whose order changed.
    private func writePositions(_ plan: SavePlan) throws {
        for object in plan.inserted + plan.updated + plan.touched where !object.reorderedRelationships.isEmpty {
            guard let ownerKey = rowKey(of: object, in: plan) else { continue }
            for slot in object.reorderedRelationships.sorted() {
                let relationship = object.entity.relationships[slot]
                guard let state = object.toMany[slot], !state.isFault else { continue }
                let statement: SQLiteStatement
                switch layout.storage(of: relationship) {
                case .inverseForeignKey(_, let order?):
                    let table = SQLiteIdentifier.quote(layout.table(of: model.destination(of: relationship)))
                    statement = try connection.cachedStatement(
                        "UPDATE \(table) SET \(SQLiteIdentifier.quote(order)) = ? WHERE \(layout.keyColumn) = ?")
                case .joinTable(let table, let source, let target, let order?):
                    statement = try connection.cachedStatement(
                        "UPDATE \(SQLiteIdentifier.quote(table)) SET \(order) = ? WHERE \(target) = ? AND \(source) = ?"
                    )
                    statement.bind(ownerKey, at: 3)
                default:
                    continue
                }
                for (position, member) in state.members.enumerated() {
                    guard let memberKey = rowKey(of: member, in: plan) else { continue }
                    statement.bind(Int64(position), at: 1)
                    statement.bind(memberKey, at: 2)
                    try statement.step()
                    statement.reset()
                }
            }
        }
    }

    // MARK: - After the commit

    private func finishSave(_ plan: SavePlan) -> ChangeSet {
        var changes = ChangeSet()
        // Only a context with children keeps the pairs: they adopt the permanent IDs.
        var madePermanent: [ObjectID: ObjectID]? = nesting.childrenLedger == nil ? nil : [:]
        for object in plan.inserted {
            let identity = ObjectIdentifier(object)
            guard let key = plan.keys[identity] else { continue }
            let permanent = ObjectID(storeUUID: store.identifier, entityID: layout.number(of: object.entity), key: key)
            madePermanent?[object.objectID] = permanent
            reregister(object, as: permanent)
            object.isInserted = false
            if plan.merged.contains(identity) {
                changes.updated.insert(permanent)
                if mergePolicy == .storeWins { turnIntoFault(object) }
            } else {
                changes.inserted.insert(permanent)
            }
            object.rowVersion = plan.versions[identity] ?? object.rowVersion + 1
        }
        for object in plan.updated {
            let identity = ObjectIdentifier(object)
            if let version = plan.versions[identity] { object.rowVersion = version }
            if let stored = plan.storedData[identity] { take(stored, for: object) }
            changes.updated.insert(object.objectID)
        }
        for object in plan.deleted {
            changes.deleted.insert(object.objectID)
            unregister(object)
        }
        for object in insertedList where object.isInserted {
            unregister(object)  // inserted, then deleted before the save
        }
        for object in plan.inserted + plan.updated + plan.touched {
            object.reorderedRelationships = []
        }
        clearChangeLists()
        if let madePermanent { publishPermanentIDs(madePermanent) }
        return changes
    }

    /// Gives `object` the data a `.storeWins` save wrote for it. A destination it leaves or takes
    /// through a to-one becomes a fault, so that its side of the relationship is read again.
    private func take(_ stored: (values: [AttributeValue?], toOne: [ManagedObject?]), for object: ManagedObject) {
        object.values = stored.values
        for slot in object.toOne.indices where object.toOne[slot] !== stored.toOne[slot] {
            for destination in [object.toOne[slot], stored.toOne[slot]] {
                if let destination, destination !== object, !destination.isFault { turnIntoFault(destination) }
            }
            object.toOne[slot] = stored.toOne[slot]
        }
    }
}

/// What one save writes, and the keys and versions it assigns before they are made permanent.
struct SavePlan {
    let inserted: [ManagedObject]
    let updated: [ManagedObject]
    let deleted: [ManagedObject]
    /// Objects whose to-many members changed though their rows did not: their member counts are
    /// validated and their ordered positions may need writing.
    let touched: [ManagedObject]
    /// Row keys for inserted objects.
    var keys: [ObjectIdentifier: Int64] = [:]
    /// The indexes of the root entities whose tables get rows with new keys.
    var rootsWithNewKeys: [Int] = []
    /// Inserted objects merged into an existing row by the merge policy.
    var merged: Set<ObjectIdentifier> = []
    /// New row versions.
    var versions: [ObjectIdentifier: Int64] = [:]
    /// The attribute values and to-one destinations written, under `.storeWins`, for updated
    /// objects whose rows changed in the store since they were read: the stored values, and the
    /// stored destinations of the to-ones the objects did not change.
    var storedData: [ObjectIdentifier: (values: [AttributeValue?], toOne: [ManagedObject?])] = [:]

    init(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], touched: [ManagedObject]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.touched = touched
    }
}
