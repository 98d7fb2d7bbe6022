// Executing fetch requests: SQL for what is stored (for a child context: what its parent holds,
// unsaved changes included), merged with the context's unsaved inserts, changes and deletions so
// that a fetch sees the context as it is now.
// Invariants: the store filters, sorts and limits whenever the context has no pending changes
// for the fetched entity; otherwise limits are applied after the merge, in memory, with the same
// predicate and sort semantics as the SQL translation.

extension ObjectContext {
    /// The objects matching `request`.
    ///
    /// ```swift
    /// let cheap = try context.fetch(FetchRequest(
    ///     entityName: "Item", predicate: try FetchPredicate(format: "price < %@", 5.0),
    ///     sortDescriptors: [FetchSortDescriptor("name")]))
    /// ```
    ///
    /// Unlike Core Data's untyped `fetch`, this method only ever returns objects, so the request's
    /// ``FetchRequest/resultType`` must be `.objects`: any other result type has its own typed
    /// method, and is rejected here rather than silently answered with objects.
    ///
    /// | `resultType`    | method                      |
    /// |-----------------|-----------------------------|
    /// | `.objects`      | `fetch(_:)`                 |
    /// | `.objectIDs`    | ``fetchObjectIDs(_:)``      |
    /// | `.count`        | ``count(for:)``             |
    /// | `.dictionaries` | ``fetchDictionaries(_:)``   |
    ///
    /// - Throws: ``FetchError`` for a request that does not fit the model, and
    ///   ``FetchError/unsupportedResultType(_:use:)`` (naming the result type and the method to
    ///   use) for a result type other than `.objects`.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        switch request.resultType {
        case .objects:
            break
        case .objectIDs:
            throw FetchError.unsupportedResultType(.objectIDs, use: "fetchObjectIDs(_:)")
        case .count:
            throw FetchError.unsupportedResultType(.count, use: "count(for:)")
        case .dictionaries:
            throw FetchError.unsupportedResultType(.dictionaries, use: "fetchDictionaries(_:)")
        }
        let results = try matchingObjects(request)
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(keyPaths: request.relationshipKeyPathsForPrefetching, of: results)
        }
        return results
    }

    /// The objects matching `request`, stored and pending, sorted and limited.
    func matchingObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = try self.entity(named: request.entityName)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity, request) : []
        if pending.isEmpty {
            return try storedObjects(request, entity: entity)
        }
        var unlimited = request
        unlimited.fetchLimit = nil
        unlimited.fetchOffset = 0
        // Pending objects are decided in memory, whatever their stored rows say.
        var seen = Set(pending.map(ObjectIdentifier.init))
        var results = try storedObjects(unlimited, entity: entity).filter {
            !$0.isDeleted && !seen.contains(ObjectIdentifier($0))
        }
        seen = []
        for object in pending where !object.isDeleted && seen.insert(ObjectIdentifier(object)).inserted {
            if try request.predicate.map({ try PredicateEvaluator.evaluate($0, on: object) }) ?? true {
                results.append(object)
            }
        }
        if !request.sortDescriptors.isEmpty {
            results = try sorted(results, by: request.sortDescriptors)
        }
        let start = min(request.fetchOffset, results.count)
        let end = request.fetchLimit.map { min(results.count, start + $0) } ?? results.count
        return Array(results[start..<end])
    }

    /// The IDs of the objects matching `request` (whatever its result type) — the counterpart of
    /// Core Data's `.managedObjectIDResultType`. When the context has no pending changes for the
    /// fetched entities, only the IDs are read: no object is registered.
    ///
    /// With ``FetchRequest/includesPendingChanges`` (the default), unsaved changes count as in
    /// ``fetch(_:)``: pending inserts that match appear with their temporary IDs, and pending
    /// deletions are left out.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        let entity = try self.entity(named: request.entityName)
        if request.includesPendingChanges && !pendingObjects(of: entity, request).isEmpty {
            return try matchingObjects(request).map(\.objectID)
        }
        if let parent = nesting.parent { return try objectIDsFromParent(request, via: parent) }
        let query = try FetchQueryBuilder(layout: layout, request: request).selectQuery(columns: identityColumns)
        return try run(query, objectID)
    }

    /// The number of objects matching `request`.
    public func count(for request: FetchRequest) throws -> Int {
        let entity = try self.entity(named: request.entityName)
        if request.includesPendingChanges && !pendingObjects(of: entity, request).isEmpty {
            return try matchingObjects(request).count
        }
        if let parent = nesting.parent { return try ask(parent) { try $0.count(for: request) } }
        let query = try FetchQueryBuilder(layout: layout, request: request).countQuery()
        return try run(query) { $0.int(0) }.first ?? 0
    }

    /// Registered objects of the fetched kinds with unsaved changes, their to-many
    /// relationships included (a predicate over them may now decide differently).
    private func pendingObjects(of entity: ModelEntity, _ request: FetchRequest) -> [ManagedObject] {
        let kinds = request.includesSubentities ? Set(entity.kindIndices) : [entity.index]
        return (insertedList + updatedList + deletedList + touchedList).filter {
            $0.hasChanges && kinds.contains($0.entity.index)
        }
    }

    private func storedObjects(_ request: FetchRequest, entity: ModelEntity) throws -> [ManagedObject] {
        if let parent = nesting.parent { return try objectsFromParent(request, entity: entity, via: parent) }
        let rowLayout = FetchRowLayout(entity: entity, layout: layout)
        let query = try FetchQueryBuilder(layout: layout, request: request).selectQuery(columns: rowLayout.columns)
        // With a batch size, only the first batch is loaded now; later objects stay faults.
        let loaded = request.fetchBatchSize.flatMap { $0 > 0 ? $0 : nil } ?? Int.max
        var row = 0
        return try run(query) { statement in
            defer { row += 1 }
            return object(
                inRow: statement, of: rowLayout, entity: entity,
                filling: !request.returnsObjectsAsFaults && row < loaded)
        }
    }

    func run<T>(_ query: SQLQuery, _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        try PersistentStore.sqlite(store.location.description) {
            try connection.rows(query, encoding: layout.values, row)
        }
    }

    /// `t0.pk, t0.ent`: the columns that make an object's ID, for ``objectID(_:)``.
    var identityColumns: [String] {
        ["t0." + layout.keyColumn, "t0." + layout.entityColumn]
    }

    /// The ID in a row whose first columns are ``identityColumns``.
    func objectID(_ statement: SQLiteStatement) -> ObjectID {
        ObjectID(storeUUID: store.identifier, entityID: statement.int64(1), key: statement.int64(0))
    }

    private func sorted(_ objects: [ManagedObject], by descriptors: [FetchSortDescriptor]) throws -> [ManagedObject] {
        var failure: (any Error)?
        let result = objects.sorted { lhs, rhs in
            guard failure == nil else { return false }
            do {
                for descriptor in descriptors {
                    let order = try descriptor.compare(lhs, rhs)
                    if order != 0 { return order < 0 }
                }
            } catch {
                failure = error
            }
            return false
        }
        if let failure { throw failure }
        return result
    }
}

extension ManagedObject: PredicateSubject {
    /// The object's ID, for comparisons with object constants.
    public var subjectObjectID: ObjectID { objectID }

    /// An attribute's value, a to-one's destination, or a to-many's members, for in-memory predicates.
    public func predicateValue(forKey key: String) throws -> PredicateOperand {
        if let attribute = entity.attribute(named: key) {
            return try value(at: attribute.index).map(PredicateOperand.value) ?? .null
        }
        guard let relationship = entity.relationship(named: key) else {
            throw ObjectError(.unknownKey, entity: entity.name, key: key, objectID: objectID)
        }
        if relationship.isToMany {
            return .objects(try relatedObjects(at: relationship.index))
        }
        return try related(at: relationship.index).map(PredicateOperand.object) ?? .null
    }
}
