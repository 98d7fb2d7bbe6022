// A record turned into everything its object needs, before anything is changed: coerced key,
// attribute values, reference keys and nested objects. Preparing first means a bad value
// rejects the whole record without leaving half of it in the context.
import GraphStore
import RecordReaders

/// The references of one relationship of one record (three stored properties: a million
/// records copy and free them on the hot path).
struct PreparedReference {
    /// The relationship mapping.
    let mapping: CompiledRelationship
    /// The keys, in source order (one for a to-one; empty to unset or clear).
    let keys: [KeyValue]
    /// Where the field is, for errors.
    let origin: PreparedPosition

    /// Where the field is.
    var position: SourcePosition { origin.resolved }

    /// The destination lookup.
    var lookup: LookupID { mapping.lookup }
    /// What a missing destination does.
    var missing: MissingPolicy { mapping.missing }
    /// The field, for errors.
    var field: String { mapping.field.text }
}

/// The nested objects of one relationship of one record.
struct PreparedNested {
    /// The relationship mapping.
    let mapping: CompiledRelationship
    /// The nested objects, in source order.
    let objects: [PreparedObject]
}

/// A key of a lookup.
struct KeyOfLookup: Hashable {
    let lookup: LookupID
    let key: KeyValue
}

/// One record, ready to apply.
struct PreparedObject {
    /// The mapping it follows.
    let mapping: CompiledMapping
    /// Its key (nil when the mapping has none).
    let key: KeyValue?
    /// Attribute values by slot; a nil value clears the attribute.
    let values: [(slot: Int, value: AttributeValue?)]
    /// Relationships by reference.
    let references: [PreparedReference]
    /// Nested relationships.
    let nested: [PreparedNested]
    /// Where the record starts.
    let origin: PreparedPosition

    /// Where the record starts.
    var position: SourcePosition { origin.resolved }

    /// The keys of this object and its nested objects.
    func collectKeys(into keys: inout [KeyOfLookup]) {
        if let key, let lookup = mapping.keyLookup { keys.append(KeyOfLookup(lookup: lookup, key: key)) }
        for nested in nested {
            for object in nested.objects { object.collectKeys(into: &keys) }
        }
    }

    /// Every lookup this object and its nested objects need, with the keys wanted.
    func collectLookups(into wanted: inout [LookupID: Set<KeyValue>]) {
        if let key, let lookup = mapping.keyLookup { wanted[lookup, default: []].insert(key) }
        for reference in references where !reference.keys.isEmpty {
            wanted[reference.lookup, default: []].formUnion(reference.keys)
        }
        for nested in nested {
            for object in nested.objects { object.collectLookups(into: &wanted) }
        }
    }
}
