// A prepared record as the object path takes it: its key, attribute values, reference keys and
// nested objects as attribute values and `KeyValue`s, made from a prepared batch's flat entry
// (`PreparedBatch.object`) only for records that go through objects. Preparing first means a
// bad value rejects the whole record without leaving half of it in the context.
import GraphStore
import RecordReaders

/// The references of one relationship of one record.
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
    /// Whether they replace the members whatever the members policy (JSON null: none).
    let empties: Bool
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

extension PreparedBatch {
    /// The entry at `index` as the object path takes it; positions are in `file`, and `record`
    /// is the top-level record the entry came from (nil for a nested entry).
    func object(_ index: Int32, mappings: PlanMappings, file: String, record: SourceRecord?) -> PreparedObject {
        let entry = entries[Int(index)]
        let mapping = mappings.mappings[Int(entry.mapping)]
        var values: [(slot: Int, value: AttributeValue?)] = []
        for (position, attribute) in mapping.attributes.enumerated() {
            let value = self.values[Int(entry.values) + position]
            if value.kind != .absent { values.append((attribute.slot, attributeValue(value, constants: []))) }
        }
        let references = self.references[Int(entry.firstReference)..<Int(entry.firstReference + entry.referenceCount)]
            .map { flat in
                PreparedReference(
                    mapping: mappings.relationships[Int(flat.relationship)],
                    keys: keys[Int(flat.firstKey)..<Int(flat.firstKey + flat.keyCount)].map(keyValue),
                    origin: .known(flat.place.position(in: file)))
            }
        let nested = groups[Int(entry.firstGroup)..<Int(entry.firstGroup + entry.groupCount)].map { group in
            PreparedNested(
                mapping: mappings.relationships[Int(group.relationship)],
                objects: children[Int(group.firstChild)..<Int(group.firstChild + group.childCount)].map {
                    object($0, mappings: mappings, file: file, record: nil)
                }, empties: group.empties)
        }
        return PreparedObject(
            mapping: mapping, key: entry.key >= 0 ? keyValue(keys[Int(entry.key)]) : nil, values: values,
            references: references, nested: nested,
            origin: record.map(PreparedPosition.record) ?? .known(entry.place.position(in: file)))
    }
}
