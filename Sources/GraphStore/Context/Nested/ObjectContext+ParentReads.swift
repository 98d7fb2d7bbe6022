// A child context reads through its parent: a fault fills with the parent's data for the
// object, a to-many fault with the parent's members, a fetch runs in the parent (which sees
// its own unsaved changes, and asks its own parent in turn) and comes back as IDs with data.
// Invariants: the child never reads the store for objects; objects are registered here by the
// parent's IDs (old temporary IDs map to the permanent ones the child adopted); data from the
// parent fills only faults, so the child's own unsaved changes are never overwritten.

extension ObjectContext {
    /// Fills the fault `object` with its data in the parent.
    func fireFromParent(_ object: ManagedObject, via parent: any ParentContextLink) throws {
        let id = object.objectID
        let found = try ask(parent) { try $0.dataForChild(of: [id]) }
        guard object.isFault else { return }
        guard let data = found.first ?? nil else {
            throw ObjectError(.notFound, entity: object.entity.name, objectID: object.objectID)
        }
        fill(object, with: data)
    }

    /// Fills every fault among `objects` with its data in the parent, in one request.
    func loadFromParent(_ objects: [ManagedObject], via parent: any ParentContextLink) throws {
        let faults = objects.filter { $0.isFault && $0.context === self }
        guard !faults.isEmpty else { return }
        let ids = faults.map(\.objectID)
        let found = try ask(parent) { try $0.dataForChild(of: ids) }
        for (object, data) in zip(faults, found) where object.isFault {
            if let data { fill(object, with: data) }
        }
    }

    /// The members of `owner`'s to-many `relationship` in the parent.
    func membersFromParent(
        of owner: ManagedObject, _ relationship: ModelRelationship, via parent: any ParentContextLink
    ) throws -> [ManagedObject] {
        let (id, name) = (owner.objectID, relationship.name)
        let members = try ask(parent) { try $0.membersForChild(of: [id], relationship: name) }
        let destination = model.destination(of: relationship)
        return (members.first.flatMap { $0 } ?? []).map { registeredObject(for: $0, kindOf: destination) }
    }

    /// Loads `relationship` of every owner whose collection is still a fault from the parent
    /// (and, when `fillingRows`, the members' data), one request each; returns every owner's members.
    func prefetchMembersFromParent(
        _ relationship: ModelRelationship, of owners: [ManagedObject], fillingRows: Bool,
        via parent: any ParentContextLink
    ) throws -> [ManagedObject] {
        let pending = owners.filter { owner in
            owner.context === self && (owner.toMany[relationship.index]?.isFault ?? !owner.isInserted)
        }
        if !pending.isEmpty {
            let (ids, name) = (pending.map(\.objectID), relationship.name)
            let members = try ask(parent) { try $0.membersForChild(of: ids, relationship: name) }
            let destination = model.destination(of: relationship)
            for (owner, memberIDs) in zip(pending, members) {
                let state = try toManyState(of: owner, relationship, load: false)
                if state.isFault {
                    state.load(stored: (memberIDs ?? []).map { registeredObject(for: $0, kindOf: destination) })
                }
            }
        }
        let members = try owners.flatMap { try $0.relatedObjects(at: relationship.index) }
        if fillingRows { try loadFromParent(members, via: parent) }
        return members
    }

    /// The objects the parent finds for `request` (its unsaved changes included), registered here.
    func objectsFromParent(_ request: FetchRequest, entity: ModelEntity, via parent: any ParentContextLink) throws
        -> [ManagedObject]
    {
        let states = try ask(parent) { try $0.fetchForChild(request) }
        return states.map { state in
            let object = registeredObject(for: state.id, kindOf: entity)
            if object.isFault, !request.returnsObjectsAsFaults, let data = state.data {
                fill(object, with: data)
            }
            return object
        }
    }

    /// The IDs of the objects the parent finds for `request`, as this context knows them.
    func objectIDsFromParent(_ request: FetchRequest, via parent: any ParentContextLink) throws -> [ObjectID] {
        try ask(parent) { try $0.fetchObjectIDs(request) }.map { permanentIDs[$0] ?? $0 }
    }

    /// The registered object for an ID the parent gave, or a new fault for it (of the entity
    /// the ID names; `entity` stands in for a number the layout does not know).
    func registeredObject(for id: ObjectID, kindOf entity: ModelEntity) -> ManagedObject {
        let id = permanentIDs[id] ?? id
        return registeredObject(entity: layout.entity(number: id.entityID) ?? entity, key: id.key)
    }

    /// Fills the fault `object` with data from the parent.
    private func fill(_ object: ManagedObject, with data: ObjectData) {
        object.values = data.values
        for relationship in object.entity.relationships where !relationship.isToMany {
            let destination = model.destination(of: relationship)
            object.toOne[relationship.index] = data.toOne[relationship.index].map {
                registeredObject(for: $0, kindOf: destination)
            }
            object.toOneLoaded[relationship.index] = true
        }
        object.rowVersion = data.rowVersion
        object.isFault = false
    }
}
