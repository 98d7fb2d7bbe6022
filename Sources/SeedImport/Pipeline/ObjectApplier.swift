// The object path's batch builder: finds or creates each prepared record's object, sets its
// attributes and relationships (inverses follow), creates missing destinations, and sets aside
// references that must wait for after the load — all in the import's context, for the commit
// step to save.
// Invariants: one object per key per run (the lookup maps keys to objects); an existing object
// is changed only in the attributes the mapping names; nothing here saves. What a batch leaves
// for its commit (waiting references, record positions, matched objects, destinations created
// and filled) is returned in ``AppliedObjects``, never kept here. A destination created for a
// reference is filled by its own record whatever the conflict policy: the commit notes it in
// the staging tables until then.
import GraphStore
import RecordReaders

/// What applying a batch's records left in the context for its commit.
struct AppliedObjects {
    /// A reference waiting for the deferred pass, with its owner (an object of this batch).
    struct Waiting {
        let owner: ManagedObject
        let reference: PreparedReference
        let origin: PreparedPosition
    }

    /// References waiting for the deferred pass.
    var waiting: [Waiting] = []
    /// The record each object of this batch came from (its first record), for save errors.
    var origins: [ObjectIdentifier: PreparedPosition] = [:]
    /// Objects that existed before their record matched them.
    var matched: [ObjectIdentifier: ManagedObject] = [:]
    /// Destinations this batch created for references and no record of it filled.
    var created: Set<KeyOfLookup> = []
    /// Destinations of earlier batches a record of this batch filled.
    var filled: Set<KeyOfLookup> = []
    /// Relationships records of this batch set anew on rows of earlier batches: what those rows
    /// staged for them is dropped (the later record wins).
    var overridden: [(relationship: ModelRelationship, owner: RowReference)] = []
    /// Objects this batch wrote a key into first, whose repetition fails (PlanMappings
    /// `notesFirstWriters`), with their records.
    var firstWriters: [(object: ManagedObject, key: KeyOfLookup, position: PreparedPosition)] = []
}

/// Applies prepared records to the import's context.
struct ObjectApplier {
    let target: ImportTarget
    let lookup: ObjectLookup
    let keys: KeyIndex
    let staging: StagedReferences
    /// Whether the deferred pass is running (references must resolve now or never).
    var isFinalPass = false

    /// Applies one prepared record and returns its object (nil when `keep` left it alone); an
    /// existing object it matches counts as matched unless `countsMatch` is false.
    @discardableResult
    func apply(_ prepared: PreparedObject, into applied: inout AppliedObjects, countsMatch: Bool = true) throws
        -> ManagedObject?
    {
        let mapping = prepared.mapping
        var object: ManagedObject
        var matchedExisting = false
        if let key = prepared.key, let keyLookup = mapping.keyLookup, let existing = lookup.object(keyLookup, key) {
            // A record routed by `entityField` matches by its source entity's key: the object it
            // finds may be of another sub-entity.
            guard existing.entity.isKind(of: mapping.entity) else {
                throw EntityRoutes.mismatch(existing.entity, key: key, mapping: mapping, at: prepared.position)
            }
            object = existing
            matchedExisting = true
            // A destination created for a reference takes its own record's values, whatever the policy.
            if try !fillsPlaceholder(existing, keyLookup, key, in: &applied) {
                if !existing.isInserted && countsMatch { applied.matched[ObjectIdentifier(existing)] = existing }
                switch mapping.onConflict {
                case .keep:
                    return existing
                case .fail:
                    let first = try firstWriter(of: existing, KeyOfLookup(lookup: keyLookup, key: key), in: applied)
                    throw RecordError(
                        position: prepared.position, field: mapping.keyAttributes.first?.field?.text,
                        value: key.description,
                        message: "\(mapping.entity.name) with key \(key) already exists ("
                            + (mapping.keyIsUniqueConstraint
                                ? "the entity's unique constraint; the source has no key, so it only inserts"
                                : "onConflict: fail") + ")"
                            + (first.map { "; first written by the record at \($0)" } ?? ""))
                case .update:
                    break
                }
            } else if staging.mappings.notesFirstWriters[mapping.number] {
                applied.firstWriters.append((existing, KeyOfLookup(lookup: keyLookup, key: key), prepared.origin))
            }
        } else {
            object = try target.context.insert(mapping.entity)
            if let key = prepared.key, let keyLookup = mapping.keyLookup {
                lookup.register(object, keyLookup, key)
                if staging.mappings.notesFirstWriters[mapping.number] {
                    applied.firstWriters.append((object, KeyOfLookup(lookup: keyLookup, key: key), prepared.origin))
                }
            }
        }
        if applied.origins[ObjectIdentifier(object)] == nil {
            applied.origins[ObjectIdentifier(object)] = prepared.origin
        }
        if matchedExisting { override(prepared.references, of: object, in: &applied) }
        for (slot, value) in prepared.values {
            try object.setValue(value, at: slot)
        }
        for reference in prepared.references {
            try applyReference(reference, to: object, origin: prepared.origin, into: &applied)
        }
        for nested in prepared.nested {
            var members: [ManagedObject] = []
            for child in nested.objects {
                if let member = try apply(child, into: &applied) { members.append(member) }
            }
            try setDestinations(members, of: nested.mapping, on: object, replacing: nested.empties ? true : nil)
        }
        return object
    }

    /// Sets a reference's destinations now, or sets it aside for the deferred pass.
    func applyReference(
        _ reference: PreparedReference, to owner: ManagedObject, origin: PreparedPosition,
        into applied: inout AppliedObjects
    ) throws {
        var destinations: [ManagedObject] = []
        var unresolved: [KeyValue] = []
        for key in reference.keys {
            if let found = lookup.object(reference.lookup, key) {
                destinations.append(found)
            } else if reference.missing == .create && !lookup.mayMiss(reference.lookup, key) {
                destinations.append(try createDestination(reference, key, into: &applied))
            } else {
                unresolved.append(key)
            }
        }
        guard unresolved.isEmpty else {
            if isFinalPass {
                if reference.missing == .reject {
                    throw RecordError(
                        position: reference.position, field: reference.field,
                        value: unresolved.map(\.description).joined(separator: ", "),
                        message: reference.mapping.noDestination(unresolved[0], model: target.context.model))
                }
            } else {
                applied.waiting.append(AppliedObjects.Waiting(owner: owner, reference: reference, origin: origin))
                if !reference.mapping.relationship.isOrdered {
                    try setDestinations(destinations, of: reference.mapping, on: owner, replacing: false)
                }
                return
            }
            try setDestinations(destinations, of: reference.mapping, on: owner)
            return
        }
        try setDestinations(destinations, of: reference.mapping, on: owner)
    }

    /// Drops what `object` still waits for in the relationships `references` set anew (a
    /// to-one, or members replaced): the later record wins.
    private func override(_ references: [PreparedReference], of object: ManagedObject, in applied: inout AppliedObjects)
    {
        let replaced = references.filter { !$0.mapping.relationship.isToMany || $0.mapping.members == .replace }
            .map(\.mapping.relationship)
        guard !replaced.isEmpty else { return }
        applied.waiting.removeAll { item in
            item.owner === object && replaced.contains { $0 === item.reference.mapping.relationship }
        }
        guard !object.isInserted else { return }
        let owner = RowReference(entityID: object.objectID.entityID, key: object.objectID.key)
        for relationship in replaced { applied.overridden.append((relationship, owner)) }
    }

    private func createDestination(_ reference: PreparedReference, _ key: KeyValue, into applied: inout AppliedObjects)
        throws -> ManagedObject
    {
        let entity = target.context.model.entities[reference.lookup.entityIndex]
        let destination = try target.context.insert(entity)
        for (slot, part) in zip(reference.lookup.slots, key.parts) where slot != LookupID.identitySlot {
            try destination.setValue(part, at: slot)
        }
        lookup.register(destination, reference.lookup, key)
        applied.created.insert(KeyOfLookup(lookup: reference.lookup, key: key))
        return destination
    }

    /// Whether `object`, found by `key`, is a destination the run created for a reference that
    /// no record has filled yet; from now on it counts as filled.
    /// Where the record that first wrote `key` into `object` during this run is (nil: the
    /// object was in the store before the run, or no record of a failing key wrote it).
    private func firstWriter(of object: ManagedObject, _ key: KeyOfLookup, in applied: AppliedObjects) throws
        -> SourcePosition?
    {
        let position: SourcePosition?
        if let item = applied.firstWriters.first(where: { $0.object === object }) {
            position = item.position.resolved
        } else if object.isInserted {
            position = applied.origins[ObjectIdentifier(object)]?.resolved
        } else if target.isOwnRow(
            object.objectID.key, in: target.store.layout.table(of: object.entity))
        {
            position = try target.context.readRows { try staging.firstWriter(of: key, on: $0) }
        } else {
            position = nil
        }
        // Without the record's path: a position read back from the store has none.
        return position.map {
            SourcePosition(
                file: $0.file, line: $0.line, column: $0.column, byteOffset: $0.byteOffset,
                recordNumber: $0.recordNumber)
        }
    }

    private func fillsPlaceholder(
        _ object: ManagedObject, _ keyLookup: LookupID, _ key: KeyValue, in applied: inout AppliedObjects
    ) throws -> Bool {
        if keys.fillPlaceholder(keyLookup, key) { return true }
        let created = KeyOfLookup(lookup: keyLookup, key: key)
        if applied.created.remove(created) != nil { return true }
        guard !object.isInserted, !applied.filled.contains(created),
            target.isOwnRow(object.objectID.key, in: target.store.layout.table(of: object.entity))
        else { return false }
        let isCreated = try target.context.readRows { try staging.isCreated(created, on: $0) }
        if isCreated { applied.filled.insert(created) }
        return isCreated
    }

    private func setDestinations(
        _ destinations: [ManagedObject], of mapping: CompiledRelationship, on owner: ManagedObject,
        replacing: Bool? = nil
    ) throws {
        let relationship = mapping.relationship
        if !relationship.isToMany {
            try owner.setRelated(at: relationship.index, to: destinations.first)
            return
        }
        if replacing ?? (mapping.members == .replace) {
            try owner.setRelatedObjects(relationship.name, to: destinations)
        } else {
            for destination in destinations {
                try owner.add(destination, toRelationshipAt: relationship.index)
            }
        }
    }
}
