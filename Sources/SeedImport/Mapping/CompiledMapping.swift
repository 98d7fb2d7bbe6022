// A record mapping compiled against the model and the source: attribute slots with their field
// paths and coercers, the key, and relationships (by reference or nested), ready to apply to
// millions of records without looking anything up by name.
// Invariant: everything a record needs is resolved here once; per-record work only evaluates
// precompiled paths and coercers.
import GraphStore
import RecordReaders

/// One attribute of a compiled mapping (a shared instance, so that reading it for each of a
/// million records costs no copy of its coercer).
final class CompiledAttribute: Sendable {
    /// The attribute's slot in objects of the entity.
    let slot: Int
    /// The attribute's name.
    let name: String
    /// The field paths, tried in turn until one is in the record (empty for a constant).
    let fields: [FieldPath]
    /// The first field path (nil for a constant).
    var field: FieldPath? { fields.first }
    /// The constant value, already coerced, when the mapping gives `value:`.
    let constant: AttributeValue?
    /// Turns field values into attribute values.
    let coercer: ValueCoercer

    init(slot: Int, name: String, fields: [FieldPath], constant: AttributeValue?, coercer: ValueCoercer) {
        self.slot = slot
        self.name = name
        self.fields = fields
        self.constant = constant
        self.coercer = coercer
    }
}

/// A lookup: the entity searched and the attributes compared (a unique key or a `match`).
struct LookupID: Hashable {
    let entityIndex: Int
    let slots: [Int]

    /// Hashes the entity and first slot only: lookups are hashed once per record and
    /// relationship, and an entity rarely has two keys starting with the same attribute.
    func hash(into hasher: inout Hasher) {
        hasher.combine(entityIndex)
        hasher.combine(slots.first ?? -1)
    }

    /// The same two numbers mixed without a `Hasher` (see ``KeyValue``).
    func _rawHashValue(seed: Int) -> Int {
        KeyMixing.mix(
            UInt64(UInt32(truncatingIfNeeded: entityIndex)) << 32
                | UInt64(UInt32(truncatingIfNeeded: slots.first ?? -1)), seed: seed)
    }
}

/// How a relationship's destinations are found.
enum RelationshipSource {
    /// Destination keys in the field, matched against `match` attributes of the destination.
    case reference(
        lookup: LookupID, coercers: [ValueCoercer], matchNames: [String], missing: MissingPolicy, split: String?)
    /// Nested records in the field, imported with their own mapping.
    case nested(CompiledMapping)
}

/// The records a reference field may hold instead of keys (a JSON object, or array of objects):
/// imported as records of the destination, matched by the reference's key (docs/PlanFormat.md,
/// "Conventions from the model").
struct DataNesting: Sendable {
    /// The mapping of each concrete entity a nested record may become.
    let mappings: [CompiledMapping]
    /// The mapping a record becomes when its data does not name one (nil: it must name one).
    let defaultMapping: CompiledMapping?
    /// The field naming a nested record's entity (the relationship's `type` userInfo), if any.
    let typeField: FieldPath?

    /// The mapping `record` becomes: the entity its type field names, else the default.
    func mapping(for record: SourceRecord) -> CompiledMapping? {
        guard let typeField, let name = record[typeField]?.string else { return defaultMapping }
        return mappings.first { $0.entity.name == name }
    }
}

/// One relationship of a compiled mapping (a shared instance: every prepared reference of every
/// record points to it rather than holding a copy).
final class CompiledRelationship: Sendable {
    /// The mapping's plan key path (`sources[0].relationships.unit`).
    let id: String
    /// Its number among the relationship mappings of the plan (``PlanMappings``).
    let number: Int
    /// The relationship (its slot is `relationship.index`).
    let relationship: ModelRelationship
    /// The field paths holding keys or nested records, tried in turn until one is in the record.
    let fields: [FieldPath]
    /// The first field path (for messages).
    var field: FieldPath { fields[0] }
    /// Where destinations come from.
    let source: RelationshipSource
    /// The mappings of records nested under this relationship: `nested:`'s, or those of data nesting.
    var nestedMappings: [CompiledMapping] {
        if case .nested(let nested) = source { return [nested] }
        return dataNesting?.mappings ?? []
    }
    /// Add to or replace the members of a to-many of an existing object.
    let members: MembersPolicy
    /// The destination lookup of a reference (for a nested relationship, its destination with
    /// no key slots: never looked up).
    let lookup: LookupID
    /// What a reference to a missing destination does (`.ignore` for a nested relationship).
    let missing: MissingPolicy
    /// For a reference: the records its field may hold instead of keys (nil: keys only).
    let dataNesting: DataNesting?

    init(
        id: String, number: Int, relationship: ModelRelationship, fields: [FieldPath], source: RelationshipSource,
        members: MembersPolicy, dataNesting: DataNesting? = nil
    ) {
        precondition(!fields.isEmpty, "a relationship mapping reads at least one field")
        self.id = id
        self.number = number
        self.relationship = relationship
        self.fields = fields
        self.source = source
        self.members = members
        self.dataNesting = dataNesting
        switch source {
        case .reference(let lookup, _, _, let missing, _):
            self.lookup = lookup
            self.missing = missing
        case .nested:
            lookup = LookupID(entityIndex: relationship.destinationIndex, slots: [])
            missing = .ignore
        }
    }
}

/// A mapping from records to objects of one entity.
final class CompiledMapping: Sendable {
    /// Its number among the mappings of the plan, nested ones included (``PlanMappings``).
    let number: Int
    /// The entity records become.
    let entity: ModelEntity
    /// The key lookup, when the mapping has a key.
    let keyLookup: LookupID?
    /// The key attributes (a subset of `attributes`), in key order.
    let keyAttributes: [CompiledAttribute]
    /// Whether a record without a key value is inserted rather than refused (a key from the
    /// model's `relatedByAttribute`, as MagicalRecord does).
    let keyIsOptional: Bool
    /// Every mapped attribute (key attributes included).
    let attributes: [CompiledAttribute]
    /// Mapped relationships.
    let relationships: [CompiledRelationship]
    /// What a record matching an existing object does.
    let onConflict: ConflictPolicy
    /// The positions of the key attributes in `attributes`, in key order.
    let keyPositions: [Int]
    /// Whether each position of `attributes` holds a key attribute.
    private let keyFlags: [Bool]

    init(
        number: Int, entity: ModelEntity, keyLookup: LookupID?, keyAttributes: [CompiledAttribute],
        keyIsOptional: Bool = false, attributes: [CompiledAttribute], relationships: [CompiledRelationship],
        onConflict: ConflictPolicy
    ) {
        self.number = number
        self.entity = entity
        self.keyLookup = keyLookup
        self.keyAttributes = keyAttributes
        self.keyIsOptional = keyIsOptional
        self.attributes = attributes
        self.relationships = relationships
        self.onConflict = onConflict
        let keyPositions = keyAttributes.compactMap { key in attributes.firstIndex { $0 === key } }
        self.keyPositions = keyPositions
        keyFlags = attributes.indices.map { keyPositions.contains($0) }
    }

    /// Whether `position` of `attributes` holds a key attribute.
    func isKeyPosition(_ position: Int) -> Bool {
        keyFlags[position]
    }

    /// Every field path at the top level of this mapping's records, fall-backs included (CSV
    /// readers resolve them to columns).
    var topLevelFields: [FieldPath] {
        attributes.flatMap(\.fields) + relationships.flatMap(\.fields)
    }

    /// A copy whose top-level field paths are replaced through `resolved` (same order as ``topLevelFields``).
    func resolving(_ resolved: [FieldPath]) -> CompiledMapping {
        var iterator = resolved.makeIterator()
        func next(_ fields: [FieldPath]) -> [FieldPath] { fields.map { iterator.next() ?? $0 } }
        let attributes = self.attributes.map { attribute in
            attribute.fields.isEmpty
                ? attribute
                : CompiledAttribute(
                    slot: attribute.slot, name: attribute.name, fields: next(attribute.fields),
                    constant: attribute.constant, coercer: attribute.coercer)
        }
        let relationships = self.relationships.map { relationship in
            CompiledRelationship(
                id: relationship.id, number: relationship.number, relationship: relationship.relationship,
                fields: next(relationship.fields), source: relationship.source, members: relationship.members,
                dataNesting: relationship.dataNesting)
        }
        let keys = keyAttributes.compactMap { key in attributes.first { $0.slot == key.slot } }
        return CompiledMapping(
            number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keys, keyIsOptional: keyIsOptional,
            attributes: attributes, relationships: relationships, onConflict: onConflict)
    }
}

extension SourceRecord {
    /// The value of the first of `fields` the record has.
    subscript(first fields: [FieldPath]) -> FieldValue? {
        for field in fields {
            if let value = self[field] { return value }
        }
        return nil
    }
}
