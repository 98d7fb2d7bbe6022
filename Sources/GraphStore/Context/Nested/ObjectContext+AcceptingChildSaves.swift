// A parent context takes a child's save: first it finds every object the push names and decides
// every conflict (an object this context changed or deleted since the child read it) by the
// child's merge policy; then it applies the push through its own API — new objects under the
// child's temporary IDs, attribute values, to-ones, join-table links, member order, deletions
// with their delete rules — so inverses, change tracking and its own save work as for its own edits.
// Invariants: a push that fails (a conflict under `.error`, a reference to an object this
// context no longer has) changes nothing here; the objects stay changed here until this context
// saves or discards them.

extension ObjectContext {
    /// An updated object to apply, and whether its attribute values are taken (`.storeWins`
    /// keeps this context's values over a conflict, yet takes the relationship changes).
    private struct AcceptedUpdate {
        let object: ManagedObject
        let update: ChildChanges.Update
        let takesAttributes: Bool
    }

    /// Applies a child's save, deciding conflicts by `policy` (the child's merge policy); returns
    /// the IDs (as the child sent them) of updated objects whose attribute values stayed as they
    /// are here, so that the child reads them again.
    ///
    /// - Throws: ``ObjectValidationError`` (`.parentChanged`) for conflicts under `.error`;
    ///   ``ObjectError`` (`.notFound`) for a reference to an object this context no longer has.
    func accept(_ changes: ChildChanges, policy: MergePolicy) throws -> [ObjectID] {
        let (accepted, kept) = try decide(changes.updated, policy: policy)
        try requireDestinations(of: changes, accepted: accepted)
        var toOnes: [(ManagedObject, [ObjectID?])] = []
        for insert in changes.inserted {
            guard let entity = layout.entity(number: insert.id.entityID) else { continue }
            // A push retried after a failure may find its object here already.
            let object = registered[insert.id] ?? insertObject(of: entity, id: insert.id)
            object.values = insert.data.values
            toOnes.append((object, insert.data.toOne))
        }
        for accepted in accepted {
            if accepted.takesAttributes { setValues(accepted.update.data.values, of: accepted.object) }
            toOnes.append((accepted.object, accepted.update.data.toOne))
        }
        for (object, destinations) in toOnes {
            try link(object, toOnes: destinations)
        }
        for link in changes.links {
            guard let owner = try liveObject(link.owner), let member = try liveObject(link.member),
                let relationship = owner.entity.relationship(named: link.relationship)
            else { continue }
            if link.added {
                try addToMany(owner, relationship, member, at: nil)
            } else {
                try removeFromToMany(owner, relationship, member)
            }
        }
        for order in changes.orders {
            guard let owner = try liveObject(order.owner),
                let relationship = owner.entity.relationship(named: order.relationship)
            else { continue }
            try arrange(owner, relationship, leading: order.members.compactMap { try liveObject($0) })
        }
        for id in changes.deleted {
            if let object = try liveObject(id) { try delete(object) }
        }
        return kept
    }

    /// Sorts the updates into those to apply and those kept out, by `policy`; throws every
    /// conflict at once under `.error`.
    private func decide(_ updates: [ChildChanges.Update], policy: MergePolicy) throws
        -> (accepted: [AcceptedUpdate], kept: [ObjectID])
    {
        try load(updates.compactMap { try? object(with: $0.id) })
        var accepted: [AcceptedUpdate] = []
        var kept: [ObjectID] = []
        var failures: [ValidationFailure] = []
        for update in updates {
            let object = try liveObject(update.id)
            let changedHere = object.map { object in update.read.map { !holds(object, $0) } ?? false } ?? true
            if let object, !changedHere || policy == .objectWins {
                accepted.append(AcceptedUpdate(object: object, update: update, takesAttributes: true))
            } else if policy == .error {
                let entity = layout.entity(number: update.id.entityID)?.name ?? "?"
                failures.append(ValidationFailure(entity: entity, objectID: update.id, rule: .parentChanged))
            } else {
                // `.storeWins` keeps this context's values; and no policy brings back an object
                // deleted here.
                kept.append(update.id)
                if let object {
                    accepted.append(AcceptedUpdate(object: object, update: update, takesAttributes: false))
                }
            }
        }
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
        return (accepted, kept)
    }

    /// Whether `object` still holds what a child read of it: the same attribute values and the
    /// same to-one destinations.
    private func holds(_ object: ManagedObject, _ read: ObjectData) -> Bool {
        guard object.values == read.values else { return false }
        let now = visibleData(of: object).toOne
        return object.entity.relationships.allSatisfy { relationship in
            relationship.isToMany || sameObject(now[relationship.index], read.toOne[relationship.index])
        }
    }

    /// Whether two IDs name the same object here (a temporary ID and the permanent one it became do).
    private func sameObject(_ first: ObjectID?, _ second: ObjectID?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        return first == second || (try? object(with: first)) === (try? object(with: second))
    }

    /// Throws unless every object the push links to (other than those it inserts) exists here:
    /// new to-one destinations, both ends of added links, owners of ordered members.
    private func requireDestinations(of changes: ChildChanges, accepted: [AcceptedUpdate]) throws {
        var ids = changes.inserted.flatMap { $0.data.toOne.compactMap { $0 } }
        for accepted in accepted {
            let now = visibleData(of: accepted.object).toOne
            ids += zip(accepted.update.data.toOne, now).compactMap { pushed, current in
                sameObject(pushed, current) ? nil : pushed
            }
        }
        ids += changes.links.filter(\.added).flatMap { [$0.owner, $0.member] }
        ids += changes.orders.map(\.owner)
        let inserting = Set(changes.inserted.map(\.id))
        let needed = ids.filter { !inserting.contains($0) }
        try load(needed.compactMap { try? object(with: $0) })
        for id in needed where try liveObject(id) == nil {
            throw ObjectError(.notFound, entity: layout.entity(number: id.entityID)?.name ?? "?", objectID: id)
        }
    }

    /// Sets the attribute values of `object` that differ from `values`.
    private func setValues(_ values: [AttributeValue?], of object: ManagedObject) {
        for (index, value) in values.enumerated() where object.values[index] != value {
            willChange(object)
            object.values[index] = value
        }
    }

    /// Points each to-one of `object` at the destination `destinations` names (inverses follow).
    private func link(_ object: ManagedObject, toOnes destinations: [ObjectID?]) throws {
        for relationship in object.entity.relationships where !relationship.isToMany {
            let destination = try destinations[relationship.index].map { try self.object(with: $0) }
            if try toOneValue(of: object, relationship) !== destination {
                try setToOne(object, relationship, to: destination)
            }
        }
    }
}
