// Batch updates: one UPDATE over the rows a predicate selects, in one transaction, bumping each
// row's version, followed by a change set for other contexts.
// Invariants: the rows updated are exactly those selected (the same query picks both, inside
// the transaction); values are checked against the attributes' types before anything is
// written; this context merges the change set itself, and the store publishes it to observers.

extension ObjectContext {
    /// Writes `request.values` into every matching object's row with SQL.
    ///
    /// ```swift
    /// let result = try context.execute(BatchUpdateRequest(
    ///     entityName: "Person", predicate: try FetchPredicate(format: "manager.name == 'Cal'"),
    ///     values: ["age": .integer(30)]))
    /// viewContext.merge(result.changes)
    /// ```
    ///
    /// - Throws: ``FetchError`` for an unknown entity, attribute or key path, a value that does
    ///   not fit its attribute (or nil for a required one); ``StoreError`` for a read-only store
    ///   or a SQLite failure; ``ObjectError`` (`.childContext`) in a child context, whose changes
    ///   go to its parent. Nothing is written when it throws.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try requireStoreContext("run a batch update")
        let entity = try self.entity(named: request.entityName)
        guard !store.isReadOnly else { throw StoreError(.readOnly, path: store.location.description) }
        var assignments: [String] = []
        var bindings: [AttributeValue?] = []
        for (name, value) in request.values.sorted(by: { $0.key < $1.key }) {
            let attribute = try batchAttribute(name, of: entity, value: value)
            assignments.append("\(SQLiteIdentifier.quote(layout.column(of: attribute))) = ?")
            bindings.append(value)
        }
        guard !assignments.isEmpty else { throw FetchError.invalidRequest("a batch update needs values") }
        let selection = try FetchQueryBuilder(layout: layout, request: request.fetchRequest)
            .selectQuery(columns: identityColumns, applyingLimit: false)
        let (pk, opt) = (layout.keyColumn, layout.versionColumn)
        var update = SQLQuery(
            "UPDATE \(SQLiteIdentifier.quote(layout.table(of: entity))) SET " + assignments.joined(separator: ", ")
                + ", \(opt) = \(opt) + 1 WHERE \(pk) IN (SELECT \(pk) FROM (", bindings)
        update.append(selection)
        update.append("))")
        let ids = try inBatchTransaction {
            let ids = try connection.rows(selection, encoding: layout.values, objectID)
            try connection.execute(update, encoding: layout.values)
            return ids
        }
        let changes = ChangeSet(updated: Set(ids))
        finishBatch(changes)
        return BatchResult(objectIDs: ids, changes: changes)
    }

    /// The stored attribute `name` of `entity`, checked against the value it is to be given.
    private func batchAttribute(_ name: String, of entity: ModelEntity, value: AttributeValue?) throws -> ModelAttribute
    {
        guard let attribute = entity.attribute(named: name) else {
            throw FetchError.unknownKeyPath(entity: entity.name, keyPath: name)
        }
        guard !attribute.isTransient else {
            throw FetchError.unsupportedKeyPath(entity: entity.name, keyPath: name, reason: "it is transient")
        }
        guard let value else {
            guard attribute.declaration.isOptional else {
                throw FetchError.typeMismatch(keyPath: name, expected: "a value (required attribute)", found: "nil")
            }
            return attribute
        }
        guard value.matches(attribute.type) else {
            throw FetchError.typeMismatch(keyPath: name, expected: attribute.type.rawValue, found: value.kindName)
        }
        if case .integer(let integer) = value, let range = attribute.type.integerRange, !range.contains(integer) {
            throw FetchError.typeMismatch(
                keyPath: name, expected: "a value in \(range)", found: "\(integer)")
        }
        return attribute
    }

    /// Runs `body` in an immediate transaction (a savepoint inside one already open), turning
    /// SQLite errors into ``StoreError``s.
    func inBatchTransaction<T>(_ body: () throws -> T) throws -> T {
        try PersistentStore.sqlite(store.location.description) {
            connection.isInTransaction
                ? try connection.savepoint(layout.reservedName("batch"), body)
                : try connection.transaction(.immediate, body)
        }
    }

    /// Brings this context up to date with a batch it ran and tells the store's observers.
    func finishBatch(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        merge(changes)
        store.saves.publish(changes)
    }
}
