// Relationship changes with both ends kept in sync: to-one, to-many and ordered to-many, with
// the inverse updated on the other object, previous partners unlinked, and join-table pairs recorded.
// Invariants: after any public mutation, `a.r` contains/points to `b` iff `b.inverse(r)` contains/points
// to `a` (for loaded collections; faults record the pending change); both ends are marked updated.

extension ObjectContext {
    /// Sets the to-one `relationship` of `object` to `newValue`, updating inverses.
    func setToOne(_ object: ManagedObject, _ relationship: ModelRelationship, to newValue: ManagedObject?) throws {
        if let newValue { try checkDestination(newValue, of: relationship, from: object) }
        let old = try toOneValue(of: object, relationship)
        if old === newValue { return }
        willChange(object, relationship)
        object.toOne[relationship.index] = newValue
        guard let inverse = model.inverse(of: relationship) else { return }
        if let old { try detach(object, fromInverse: inverse, of: old) }
        if let newValue { try attach(object, toInverse: inverse, of: newValue, relationship: relationship) }
    }

    /// Adds `member` to the to-many `relationship` of `object` (at `index` for ordered ones).
    func addToMany(_ object: ManagedObject, _ relationship: ModelRelationship, _ member: ManagedObject, at index: Int?)
        throws
    {
        try checkDestination(member, of: relationship, from: object)
        let state = try toManyState(of: object, relationship, load: relationship.isOrdered)
        if let index, !(0...state.members.count).contains(index) {
            throw ObjectError(.indexOutOfBounds(index), entity: object.entity.name, key: relationship.name)
        }
        if state.contains(member) {
            if let index, relationship.isOrdered, let current = state.members.firstIndex(where: { $0 === member }) {
                try move(object, relationship, from: current, to: min(index, state.members.count - 1))
            }
            return
        }
        willChange(object, relationship)
        state.add(member, at: index)
        if relationship.isOrdered { object.reorderedRelationships.insert(relationship.index) }
        recordJoin(relationship, owner: object, member: member, added: true)
        guard let inverse = model.inverse(of: relationship) else { return }
        if inverse.isToMany {
            try addMemberOnly(object, to: member, inverse)
        } else {
            let previous = try toOneValue(of: member, inverse)
            if previous === object { return }
            if let previous {
                try removeMemberOnly(member, from: previous, relationship)
            }
            willChange(member, inverse)
            member.toOne[inverse.index] = object
        }
    }

    /// Removes `member` from the to-many `relationship` of `object`.
    func removeFromToMany(_ object: ManagedObject, _ relationship: ModelRelationship, _ member: ManagedObject) throws {
        let state = try toManyState(of: object, relationship, load: relationship.isOrdered)
        guard state.remove(member) else { return }
        willChange(object, relationship)
        if relationship.isOrdered { object.reorderedRelationships.insert(relationship.index) }
        recordJoin(relationship, owner: object, member: member, added: false)
        guard let inverse = model.inverse(of: relationship) else { return }
        if inverse.isToMany {
            try removeMemberOnly(object, from: member, inverse)
        } else if try toOneValue(of: member, inverse) === object {
            willChange(member, inverse)
            member.toOne[inverse.index] = nil
        }
    }

    /// Moves a member of an ordered relationship from one position to another.
    func move(_ object: ManagedObject, _ relationship: ModelRelationship, from source: Int, to destination: Int) throws
    {
        let state = try toManyState(of: object, relationship, load: true)
        for index in [source, destination] where !state.members.indices.contains(index) {
            throw ObjectError(.indexOutOfBounds(index), entity: object.entity.name, key: relationship.name)
        }
        guard source != destination else { return }
        willChange(object, relationship)
        state.move(from: source, to: destination)
        object.reorderedRelationships.insert(relationship.index)
    }

    /// Puts `leading` (members of the ordered `relationship` of `object`) first, in that order;
    /// the other members follow in their present order.
    func arrange(_ object: ManagedObject, _ relationship: ModelRelationship, leading: [ManagedObject]) throws {
        let state = try toManyState(of: object, relationship, load: true)
        let first = leading.filter { state.contains($0) }
        let chosen = Set(first.map(ObjectIdentifier.init))
        let arranged = first + state.members.filter { !chosen.contains(ObjectIdentifier($0)) }
        guard !arranged.elementsEqual(state.members, by: ===) else { return }
        willChange(object, relationship)
        state.arrange(arranged)
        object.reorderedRelationships.insert(relationship.index)
    }

    /// Makes the to-many `relationship` of `object` exactly `members` (in that order when ordered).
    /// Every member is checked first, so a member that cannot belong changes nothing.
    func setToMany(_ object: ManagedObject, _ relationship: ModelRelationship, _ members: [ManagedObject]) throws {
        for member in members { try checkDestination(member, of: relationship, from: object) }
        let state = try toManyState(of: object, relationship, load: true)
        let wanted = Set(members.map(ObjectIdentifier.init))
        for member in state.members where !wanted.contains(ObjectIdentifier(member)) {
            try removeFromToMany(object, relationship, member)
        }
        for (position, member) in members.enumerated() {
            try addToMany(object, relationship, member, at: relationship.isOrdered ? position : nil)
        }
    }

    /// Unlinks every destination of `relationship` from `object` (used by nullify and cascade).
    func unlinkInverses(of object: ManagedObject, _ relationship: ModelRelationship) throws {
        if relationship.isToMany {
            for member in try toManyState(of: object, relationship, load: true).members {
                try removeFromToMany(object, relationship, member)
            }
        } else {
            try setToOne(object, relationship, to: nil)
        }
    }

    // MARK: - One-sided updates of the other end

    /// `object` now points at `target` through `relationship`; make `target`'s `inverse` agree.
    private func attach(
        _ object: ManagedObject, toInverse inverse: ModelRelationship, of target: ManagedObject,
        relationship: ModelRelationship
    ) throws {
        if inverse.isToMany {
            try addMemberOnly(object, to: target, inverse)
            return
        }
        let previous = try toOneValue(of: target, inverse)
        if previous === object { return }
        willChange(target, inverse)
        target.toOne[inverse.index] = object
        if let previous, try toOneValue(of: previous, relationship) === target {
            willChange(previous, relationship)
            previous.toOne[relationship.index] = nil
        }
    }

    /// `object` no longer points at `target`; make `target`'s `inverse` agree.
    private func detach(_ object: ManagedObject, fromInverse inverse: ModelRelationship, of target: ManagedObject)
        throws
    {
        if inverse.isToMany {
            try removeMemberOnly(object, from: target, inverse)
        } else if try toOneValue(of: target, inverse) === object {
            willChange(target, inverse)
            target.toOne[inverse.index] = nil
        }
    }

    private func addMemberOnly(_ member: ManagedObject, to owner: ManagedObject, _ relationship: ModelRelationship)
        throws
    {
        let state = try toManyState(of: owner, relationship, load: relationship.isOrdered)
        guard !state.contains(member) else { return }
        willChange(owner, relationship)
        state.add(member)
        if relationship.isOrdered { owner.reorderedRelationships.insert(relationship.index) }
    }

    private func removeMemberOnly(_ member: ManagedObject, from owner: ManagedObject, _ relationship: ModelRelationship)
        throws
    {
        let state = try toManyState(of: owner, relationship, load: relationship.isOrdered)
        guard state.remove(member) else { return }
        willChange(owner, relationship)
        if relationship.isOrdered { owner.reorderedRelationships.insert(relationship.index) }
    }

    /// Records that `relationship` of `object` is about to change: a to-one changes the
    /// object's row (it becomes updated); a to-many lives elsewhere (the other side's column or a
    /// join table), so the object is only touched — remembered for rollback and positions.
    private func willChange(_ object: ManagedObject, _ relationship: ModelRelationship) {
        if case .foreignKey = layout.storage(of: relationship) {
            willChange(object)
        } else {
            touch(object)
        }
    }

    private func recordJoin(_ relationship: ModelRelationship, owner: ManagedObject, member: ManagedObject, added: Bool)
    {
        guard case .joinTable(let table, let sourceColumn, _, _) = layout.storage(of: relationship),
            let joinTable = layout.joinTable(named: table)
        else { return }
        // Pairs are kept in the table's column order: (first column's row, second column's row).
        let (source, destination) = sourceColumn == joinTable.firstColumn ? (owner, member) : (member, owner)
        // Mutated in place: copying the changes out and back would copy their arrays every time.
        if added {
            joinChanges[table, default: JoinTableChanges()].add(source: source, destination: destination)
        } else {
            joinChanges[table, default: JoinTableChanges()].remove(source: source, destination: destination)
        }
    }

    private func checkDestination(
        _ destination: ManagedObject, of relationship: ModelRelationship, from object: ManagedObject
    ) throws {
        guard destination.context === self, object.context === self else {
            throw ObjectError(.otherContext, entity: object.entity.name, key: relationship.name)
        }
        let expected = model.destination(of: relationship)
        guard destination.entity.isKind(of: expected) else {
            throw ObjectError(
                .wrongDestination(expected: expected.name, got: destination.entity.name),
                entity: object.entity.name, key: relationship.name)
        }
    }
}
