// A child context's save: validate the changed objects as a save to the store would, then push
// every insert, update, deletion and relationship change into the parent in one call, and, once
// the parent took them, forget them here as a save does.
// Invariants: all or nothing — when the parent refuses the push (a conflict under `.error`, an
// object it no longer has) nothing changed here or there; unique constraints are the store's
// business and are checked when the root context saves.

extension ObjectContext {
    /// Saves the pending changes into the parent context and returns what was pushed (nil when
    /// nothing was), by the IDs the objects have here.
    func saveToParent(via parent: any ParentContextLink) throws -> ChangeSet? {
        adoptPermanentIDs()
        guard hasChanges else { return nil }
        let plan = pendingSavePlan()
        try validate(plan)
        let changes = childChanges(of: plan)
        let policy = mergePolicy
        let kept = try ask(parent) { try $0.accept(changes, policy: policy) }
        return finishSaveToParent(plan, parentKept: Set(kept.map { permanentIDs[$0] ?? $0 }))
    }

    /// The push for `plan`: objects by ID with their data, join-table links and ordered members.
    private func childChanges(of plan: SavePlan) -> ChildChanges {
        var changes = ChildChanges()
        changes.inserted = plan.inserted.map { ChildChanges.Insert(id: $0.objectID, data: pushedData(of: $0)) }
        changes.updated = plan.updated.filter { !$0.isFault }.map { object in
            ChildChanges.Update(
                id: object.objectID, data: pushedData(of: object),
                read: object.snapshot.map {
                    ObjectData(values: $0.values, toOne: $0.toOne.map { $0?.objectID }, rowVersion: object.rowVersion)
                })
        }
        changes.deleted = plan.deleted.map(\.objectID)
        changes.links = joinLinks()
        for object in plan.inserted + plan.updated + plan.touched {
            for slot in object.reorderedRelationships.sorted() {
                guard let state = object.toMany[slot], !state.isFault else { continue }
                changes.orders.append(
                    ChildChanges.Order(
                        owner: object.objectID, relationship: object.entity.relationships[slot].name,
                        members: state.members.filter { !$0.isDeleted }.map(\.objectID)))
            }
        }
        return changes
    }

    /// `object`'s data to push: to-ones pointing at deleted objects are pushed as nil, as a save
    /// to the store writes them.
    private func pushedData(of object: ManagedObject) -> ObjectData {
        ObjectData(
            values: object.values, toOne: object.toOne.map { $0?.isDeleted == true ? nil : $0?.objectID },
            rowVersion: object.rowVersion)
    }

    /// The pending join-table pairs as links of the relationship one of their ends declares;
    /// pairs with an end inserted and deleted again (which the parent never sees) left out.
    private func joinLinks() -> [ChildChanges.Link] {
        var links: [ChildChanges.Link] = []
        for (table, changes) in joinChanges.sorted(by: { $0.key < $1.key }) {
            guard let joinTable = layout.joinTable(named: table) else { continue }
            for (pairs, added) in [(changes.pairsToInsert, true), (changes.pairsToDelete, false)] {
                for pair in pairs where !pair.source.isDiscarded && !pair.destination.isDiscarded {
                    guard let (owner, relationship, member) = declaredSide(of: pair, in: joinTable) else { continue }
                    links.append(
                        ChildChanges.Link(
                            owner: owner.objectID, relationship: relationship.name, member: member.objectID,
                            added: added))
                }
            }
        }
        return links
    }

    /// The end of a join-table pair whose entity declares a relationship kept in the table from
    /// its side, that relationship, and the other end.
    private func declaredSide(of pair: JoinTableChanges.Pair, in table: JoinTableLayout)
        -> (ManagedObject, ModelRelationship, ManagedObject)?
    {
        let sides = [
            (pair.source, pair.destination, table.firstColumn), (pair.destination, pair.source, table.secondColumn),
        ]
        for (owner, member, column) in sides {
            let declared = owner.entity.relationships.first { relationship in
                guard case .joinTable(table.name, let source, _, _) = layout.storage(of: relationship) else {
                    return false
                }
                return source == column
            }
            if let declared { return (owner, declared, member) }
        }
        return nil
    }

    /// After the parent took the push: the saved objects lose their change flags (inserted ones
    /// keep their temporary IDs until the root saves them), deleted ones are forgotten, and
    /// objects whose attribute changes the parent kept out (`.storeWins`) read its values again.
    private func finishSaveToParent(_ plan: SavePlan, parentKept: Set<ObjectID>) -> ChangeSet {
        let changes = ChangeSet(
            inserted: Set(plan.inserted.map(\.objectID)), updated: Set(plan.updated.map(\.objectID)),
            deleted: Set(plan.deleted.map(\.objectID)))
        for object in plan.inserted { object.isInserted = false }
        for object in plan.deleted { unregister(object) }
        for object in insertedList where object.isInserted {
            unregister(object)  // inserted, then deleted before the save
        }
        for object in plan.inserted + plan.updated + plan.touched {
            object.reorderedRelationships = []
        }
        clearChangeLists()
        for object in plan.updated where parentKept.contains(object.objectID) {
            turnIntoFault(object)
        }
        return changes
    }
}

extension ManagedObject {
    /// Whether the object was inserted and deleted again before any save: no other context ever sees it.
    fileprivate var isDiscarded: Bool { isInserted && isDeleted }
}
