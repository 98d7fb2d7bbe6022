// Phase two of applying records: find or create each prepared object, set its attributes and
// relationships (inverses follow), create missing destinations, and set aside references that
// must wait for the deferred pass. Counts what happened per entity.
// Invariants: one object per key per run (the resolver maps keys to objects); an existing
// object is changed only in the attributes the mapping names; nothing here saves.
import GraphStore
import RecordReaders

/// Applies prepared records to the import's context.
final class BatchApplier {
    private let context: ObjectContext
    private let resolver: ObjectResolver
    /// References waiting for the deferred pass, with their owners (objects of this batch).
    private(set) var waiting: [(owner: ManagedObject, reference: PreparedReference, origin: PreparedPosition)] = []
    /// The record each object of this batch came from (its first record), for save errors.
    private(set) var origins: [ObjectIdentifier: PreparedPosition] = [:]
    /// Objects that existed before their record matched them.
    private(set) var matched: [ObjectIdentifier: ManagedObject] = [:]
    /// Whether the deferred pass is running (references must resolve now or never).
    var isFinalPass = false

    init(context: ObjectContext, resolver: ObjectResolver) {
        self.context = context
        self.resolver = resolver
    }

    /// Forgets the batch's bookkeeping (after its save).
    func endBatch() {
        waiting = []
        origins = [:]
        matched = [:]
    }

    /// Applies one prepared record and returns its object (nil when `keep` left it alone).
    @discardableResult
    func apply(_ prepared: PreparedObject) throws -> ManagedObject? {
        let mapping = prepared.mapping
        var object: ManagedObject
        if let key = prepared.key, let lookup = mapping.keyLookup, let existing = resolver.object(lookup, key) {
            // A record routed by `entityField` matches by its source entity's key: the object it
            // finds may be of another sub-entity.
            guard existing.entity.isKind(of: mapping.entity) else {
                throw EntityRoutes.mismatch(existing.entity, key: key, mapping: mapping, at: prepared.position)
            }
            object = existing
            // A destination created for a reference takes its own record's values, whatever the policy.
            if !resolver.fillPlaceholder(lookup, key) {
                if !existing.isInserted { matched[ObjectIdentifier(existing)] = existing }
                switch mapping.onConflict {
                case .keep:
                    return existing
                case .fail:
                    throw RecordError(
                        position: prepared.position, field: mapping.keyAttributes.first?.field?.text,
                        value: key.description,
                        message: "\(mapping.entity.name) with key \(key) already exists (onConflict: fail)")
                case .update:
                    break
                }
            }
        } else {
            object = try context.insert(mapping.entity)
            if let key = prepared.key, let lookup = mapping.keyLookup { resolver.register(object, lookup, key) }
        }
        if origins[ObjectIdentifier(object)] == nil { origins[ObjectIdentifier(object)] = prepared.origin }
        for (slot, value) in prepared.values {
            try object.setValue(value, at: slot)
        }
        for reference in prepared.references {
            try applyReference(reference, to: object, origin: prepared.origin)
        }
        for nested in prepared.nested {
            var members: [ManagedObject] = []
            for child in nested.objects {
                if let member = try apply(child) { members.append(member) }
            }
            try setDestinations(members, of: nested.mapping, on: object)
        }
        return object
    }

    /// Sets a reference's destinations now, or sets it aside for the deferred pass.
    func applyReference(_ reference: PreparedReference, to owner: ManagedObject, origin: PreparedPosition) throws {
        var destinations: [ManagedObject] = []
        var unresolved: [KeyValue] = []
        for key in reference.keys {
            if let found = resolver.object(reference.lookup, key) {
                destinations.append(found)
            } else if reference.missing == .create {
                destinations.append(try createDestination(reference, key))
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
                        message: "no \(context.model.entities[reference.lookup.entityIndex].name) with "
                            + "\(reference.mapping.relationship.name) key \(unresolved[0]) (missing: reject)")
                }
            } else {
                waiting.append((owner, reference, origin))
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

    private func createDestination(_ reference: PreparedReference, _ key: KeyValue) throws -> ManagedObject {
        let entity = context.model.entities[reference.lookup.entityIndex]
        let destination = try context.insert(entity)
        for (slot, part) in zip(reference.lookup.slots, key.parts) where slot != LookupID.identitySlot {
            try destination.setValue(part, at: slot)
        }
        resolver.register(destination, reference.lookup, key)
        resolver.markPlaceholder(reference.lookup, key)
        return destination
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
