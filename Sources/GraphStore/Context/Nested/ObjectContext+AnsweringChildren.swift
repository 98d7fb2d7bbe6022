// A parent context answers its children: the data of objects, the members of to-many
// relationships, and fetches — as it holds them now, unsaved changes included, loading from its
// store (or its own parent) in batches where it must.
// Invariants: objects deleted here are invisible to children (no data, left out of members, and
// to-ones pointing at them read as nil); answers carry IDs and values only.

extension ObjectContext {
    /// The data of the objects `ids` (nil for one this context does not know, that is missing from
    /// the store or deleted here), loading faults in one batch.
    func dataForChild(of ids: [ObjectID]) throws -> [ObjectData?] {
        try load(ids.compactMap { try? object(with: $0) })
        return try ids.map { id in try liveObject(id).map(visibleData) }
    }

    /// The members of the to-many `relationship` (by name) of each owner in `owners` (nil for an
    /// owner without it), loading those not yet loaded in one batch; deleted members left out.
    func membersForChild(of owners: [ObjectID], relationship name: String) throws -> [[ObjectID]?] {
        let objects = owners.map { try? object(with: $0) }
        try prefetch(name, of: objects.compactMap { $0 })
        return try objects.map { owner in
            guard let owner, !owner.isDeleted, let relationship = owner.entity.relationship(named: name),
                relationship.isToMany
            else { return nil }
            return try toManyState(of: owner, relationship, load: true).members.filter { !$0.isDeleted }.map(
                \.objectID)
        }
    }

    /// The objects matching `request` here (pending changes included, prefetching done), with
    /// their data unless they are faults or the request wants faults.
    func fetchForChild(_ request: FetchRequest) throws -> [ObjectState] {
        let objects = try matchingObjects(request)
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(keyPaths: request.relationshipKeyPathsForPrefetching, of: objects)
        }
        return objects.map { object in
            ObjectState(
                id: object.objectID,
                data: object.isFault || request.returnsObjectsAsFaults ? nil : visibleData(of: object))
        }
    }

    /// The object `id` names, loaded; nil when this context does not know it, its row is missing
    /// or it is deleted here.
    func liveObject(_ id: ObjectID) throws -> ManagedObject? {
        guard let object = try? object(with: id) else { return nil }
        do {
            try fire(object)
        } catch let error as ObjectError where error.kind == .notFound {
            return nil
        }
        return object.isDeleted ? nil : object
    }

    /// The data of the loaded `object` as a child sees it: to-ones pointing at deleted objects read as nil.
    func visibleData(of object: ManagedObject) -> ObjectData {
        ObjectData(
            values: object.values, toOne: object.toOne.map { $0?.isDeleted == true ? nil : $0?.objectID },
            rowVersion: object.rowVersion)
    }
}
