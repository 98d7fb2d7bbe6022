// A parent context takes a child's save: first it finds every object the push names and decides
// every conflict (an object this context changed or deleted since the child read it) by the
// child's merge policy; then it applies the push through its own API — new objects under the
// child's temporary IDs, attribute values, to-ones, join-table links, member order, deletions
// with their delete rules — so inverses, change tracking and its own save work as for its own edits.
// Invariants: a push that fails (a conflict under `.error`, a reference to an object this
// context no longer has) changes nothing here; the objects stay changed here until this context
// saves or discards them.

extension ObjectContext {
    /// An updated object to apply: all of its data, or — when `.storeWins` keeps this context's
    /// values over a conflict — only the to-ones the child changed.
    private struct AcceptedUpdate {
        let object: ManagedObject
        let update: ChildChanges.Update
        /// Whether the child's attribute values are taken.
        let takesAttributes: Bool
        /// The to-one slots to set as the child has them.
        let toOneSlots: [Int]
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
        var toOnes: [(ManagedObject, [ObjectID?], slots: [Int])] = []
        for insert in changes.inserted {
            guard let entity = layout.entity(number: insert.id.entityID) else { continue }
            // A push retried after a failure may find its object here already.
            let object = registered[insert.id] ?? insertObject(of: entity, id: insert.id)
            object.values = insert.data.values
            toOnes.append((object, insert.data.toOne, Self.toOneSlots(of: entity)))
        }
        for accepted in accepted {
            if accepted.takesAttributes { setValues(accepted.update.data.values, of: accepted.object) }
            toOnes.append((accepted.object, accepted.update.data.toOne, accepted.toOneSlots))
        }
        for (object, destinations, slots) in toOnes {
            try link(object, to: destinations, slots: slots)
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
                accepted.append(
                    AcceptedUpdate(
                        object: object, update: update, takesAttributes: true,
                        toOneSlots: Self.toOneSlots(of: object.entity)))
            } else if policy == .error {
                let entity = layout.entity(number: update.id.entityID)?.name ?? "?"
                failures.append(ValidationFailure(entity: entity, objectID: update.id, rule: .parentChanged))
            } else {
                // `.storeWins` keeps this context's values; and no policy brings back an object
                // deleted here.
                kept.append(update.id)
                if let object {
                    // Only the to-ones the child changed; the parent's other to-ones stay.
                    let changedByChild = Self.toOneSlots(of: object.entity).filter { slot in
                        update.read.map { !sameObject(update.data.toOne[slot], $0.toOne[slot]) } ?? true
                    }
                    accepted.append(
                        AcceptedUpdate(
                            object: object, update: update, takesAttributes: false, toOneSlots: changedByChild))
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

    /// Whether two IDs name the same object here (a temporary ID and the permanent one it became
    /// do); an ID this context cannot resolve (an object the push inserts, one inserted and
    /// dropped here) names no other ID's object.
    private func sameObject(_ first: ObjectID?, _ second: ObjectID?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        if first == second { return true }
        guard let one = try? object(with: first), let other = try? object(with: second) else { return false }
        return one === other
    }

    /// Throws unless every object the push links to (other than those it inserts) exists here:
    /// new to-one destinations, both ends of added links, owners of ordered members.
    private func requireDestinations(of changes: ChildChanges, accepted: [AcceptedUpdate]) throws {
        var ids = changes.inserted.flatMap { $0.data.toOne.compactMap { $0 } }
        for accepted in accepted {
            let now = visibleData(of: accepted.object).toOne
            ids += accepted.toOneSlots.compactMap { slot in
                let pushed = accepted.update.data.toOne[slot]
                return sameObject(pushed, now[slot]) ? nil : pushed
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

    /// The slots of `entity`'s to-one relationships.
    private static func toOneSlots(of entity: ModelEntity) -> [Int] {
        entity.relationships.filter { !$0.isToMany }.map(\.index)
    }

    /// Points the to-ones of `object` in `slots` at the destinations `destinations` names, by
    /// slot (inverses follow).
    private func link(_ object: ManagedObject, to destinations: [ObjectID?], slots: [Int]) throws {
        for slot in slots {
            let relationship = object.entity.relationships[slot]
            let destination = try destinations[slot].map { try self.object(with: $0) }
            if try toOneValue(of: object, relationship) !== destination {
                try setToOne(object, relationship, to: destination)
            }
        }
    }
}
