// A record mapping compiled against the model and the source: attribute slots with their field
// paths and coercers, the key, and relationships (by reference or nested), ready to apply to
// millions of records without looking anything up by name — or, with `entityField`, the routes
// to one such mapping per entity a record may name (EntityRoutes).
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

/// A lookup: the entity searched and the attributes compared (a unique key or a `match`), or
/// the run identity (`key: [object-id]`, PlanConventions.identityKey), which no attribute holds.
/// A key or match may also name to-one relationships (`key: [order, product]`): each compares
/// its destination's key, `through` it (the parts of a key are the attributes', then each
/// relationship's destination key parts, in order).
struct LookupID: Hashable, Sendable {
    let entityIndex: Int
    let slots: [Int]
    /// The to-one relationships whose destinations' keys complete the key, after `slots`.
    let through: [KeyThrough]

    init(entityIndex: Int, slots: [Int], through: [KeyThrough] = []) {
        self.entityIndex = entityIndex
        self.slots = slots
        self.through = through
    }

    /// The slot that stands for the run identity.
    static let identitySlot = -1

    /// Whether this looks up the run identity: only the run's own records, never stored rows.
    var isRunIdentity: Bool { slots == [Self.identitySlot] }

    /// Whether the lookup compares nothing (a nested relationship's destination: never looked up).
    var isEmpty: Bool { slots.isEmpty && through.isEmpty }

    /// Whether some part of the key is a destination's key, through a relationship.
    var goesThrough: Bool { !through.isEmpty }

    /// The number of parts of its keys.
    var partCount: Int { slots.count + through.reduce(0) { $0 + $1.lookup.partCount } }

    /// The attribute each part of its keys compares, in part order (a part through a
    /// relationship: the destination's attribute).
    func partAttributes(in model: ObjectModel) -> [ModelAttribute] {
        let entity = model.entities[entityIndex]
        return slots.map { entity.attributes[$0] } + through.flatMap { $0.lookup.partAttributes(in: model) }
    }

    /// The key path of each part of its keys from the searched entity (`sku`, `order.orderID`).
    func partKeyPaths(in model: ObjectModel) -> [String] {
        let entity = model.entities[entityIndex]
        return slots.map { entity.attributes[$0].name }
            + through.flatMap { step in
                step.lookup.partKeyPaths(in: model).map { entity.relationships[step.relationship].name + "." + $0 }
            }
    }

    /// The value of each part of its keys on `object` (nil where a relationship it goes
    /// through is unset).
    func parts(of object: ManagedObject) throws -> [AttributeValue]? {
        var parts: [AttributeValue] = []
        for slot in slots { parts.append(try object.value(at: slot) ?? .string("")) }
        for step in through {
            guard let destination = try object.related(at: step.relationship),
                let destinationParts = try step.lookup.parts(of: destination)
            else { return nil }
            parts += destinationParts
        }
        return parts
    }

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

/// A to-one relationship part of a key or match: its destination is compared by `lookup`.
struct KeyThrough: Hashable, Sendable {
    /// The relationship's index among the searched entity's relationships.
    let relationship: Int
    /// How its destination is compared (the destination's key).
    let lookup: LookupID
}

/// How a text field lists several keys.
enum KeySplit: Sendable {
    /// Keys between separators (`a;b;c`).
    case separator([UInt8])
    /// Each key between a prefix and a suffix, anything between them skipped (`<a><b>`).
    case pattern(prefix: [UInt8], suffix: [UInt8])

    /// The split a relationship mapping asks for (nil for none, or for a pattern without its one `*`).
    init?(_ mapping: RelationshipMapping) {
        if let pattern = mapping.splitPattern {
            let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            self = .pattern(prefix: Array(parts[0].utf8), suffix: Array(parts[1].utf8))
        } else if let separator = mapping.split, !separator.isEmpty {
            self = .separator(Array(separator.utf8))
        } else {
            return nil
        }
    }

    /// The split as a plan writes it: the separator, or `PREFIX*SUFFIX`.
    var planText: String {
        switch self {
        case .separator(let bytes): String(decoding: bytes, as: UTF8.self)
        case .pattern(let prefix, let suffix):
            String(decoding: prefix, as: UTF8.self) + "*" + String(decoding: suffix, as: UTF8.self)
        }
    }
}

/// How a relationship's destinations are found.
enum RelationshipSource {
    /// Destination keys in the field, matched against `match` attributes of the destination.
    case reference(
        lookup: LookupID, coercers: [ValueCoercer], matchNames: [String], missing: MissingPolicy, split: KeySplit?)
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
    /// For a reference: how its field's values become keys (nil for a nested relationship).
    let keyReading: KeyReading?

    /// Why a reference to `key` is refused when no destination has it (`missing: reject`):
    /// `no Customer with customerID = "ALFKI" for relationship customer (missing: reject)`.
    func noDestination(_ key: KeyValue, model: ObjectModel) -> String {
        let names =
            lookup.isRunIdentity ? [PlanConventions.identityKey] : MappingCompiler.partFields(of: lookup, model: model)
        let terms = zip(names, key.parts).map { name, value in
            if case .string(let text) = value { return "\(name) = \"\(text)\"" }
            return "\(name) = \(value)"
        }
        return "no \(model.entities[lookup.entityIndex].name) with \(terms.joined(separator: ", ")) "
            + "for relationship \(relationship.name) (missing: reject)"
    }

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
        case .reference(let lookup, let coercers, let matchNames, let missing, let split):
            self.lookup = lookup
            self.missing = missing
            keyReading = KeyReading(coercers: coercers, matchNames: matchNames, split: split)
        case .nested:
            lookup = LookupID(entityIndex: relationship.destinationIndex, slots: [])
            missing = .ignore
            keyReading = nil
        }
    }
}

/// How a reference field's values become destination keys: a coercer per key part (the
/// attributes `matchNames` names), and how one text holds several keys. A class, so that
/// preparing a record hands it on with one reference count.
final class KeyReading: Sendable {
    let coercers: [ValueCoercer]
    let matchNames: [String]
    let split: KeySplit?

    init(coercers: [ValueCoercer], matchNames: [String], split: KeySplit?) {
        self.coercers = coercers
        self.matchNames = matchNames
        self.split = split
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
    /// The key attributes (a subset of `attributes`, or the run identity alone), in key order.
    let keyAttributes: [CompiledAttribute]
    /// The positions in `relationships` of the to-one relationships the key also names, in key
    /// order: their destinations' keys follow the attributes' values in each record's key.
    let keyRelationships: [Int]
    /// Whether a record without a key value is inserted rather than refused (a key from the
    /// model's `relatedByAttribute`, as MagicalRecord does).
    let keyIsOptional: Bool
    /// Every mapped attribute (key attributes included).
    let attributes: [CompiledAttribute]
    /// Mapped relationships.
    let relationships: [CompiledRelationship]
    /// What a record matching an existing object does.
    let onConflict: ConflictPolicy
    /// With `entityField`: the mapping of each entity a record may name, which prepares it
    /// instead of this one (which then maps nothing itself).
    let routes: EntityRoutes?
    /// The key attribute standing for the run identity (`key: [object-id]`), which maps to no
    /// attribute (it is in `keyAttributes`, not in `attributes`).
    let identityKey: CompiledAttribute?
    /// Whether the key is not the plan's but the entity's unique constraint, guarding a keyless
    /// mapping (which always inserts) against duplicates: a record repeating one is refused
    /// (`onConflict` is `fail`), and a record with a null in it has no key.
    let keyIsUniqueConstraint: Bool
    /// The positions of the key attributes in `attributes`, in key order (none for a run identity).
    let keyPositions: [Int]
    /// Whether each position of `attributes` holds a key attribute.
    private let keyFlags: [Bool]
    /// Whether records of this mapping may hold nested records (a `nested:` relationship, or a
    /// reference whose field may hold records instead of keys).
    let nestsRecords: Bool
    /// The field paths of the attributes, the run identity and the relationships, in that order,
    /// looked up together in each top-level record.
    let fieldLookup: FieldLookup
    /// Where each attribute's, the run identity's and each relationship's paths start in `fieldLookup`.
    let attributeFields: [Int]
    let identityFields: Int
    let relationshipFields: [Int]

    init(
        number: Int, entity: ModelEntity, keyLookup: LookupID?, keyAttributes: [CompiledAttribute],
        keyRelationships: [Int] = [], keyIsOptional: Bool = false, attributes: [CompiledAttribute],
        relationships: [CompiledRelationship], onConflict: ConflictPolicy, routes: EntityRoutes? = nil,
        keyIsUniqueConstraint: Bool = false
    ) {
        self.number = number
        self.entity = entity
        self.keyLookup = keyLookup
        self.keyAttributes = keyAttributes
        self.keyRelationships = keyRelationships
        self.keyIsOptional = keyIsOptional
        self.attributes = attributes
        self.relationships = relationships
        self.onConflict = onConflict
        self.routes = routes
        identityKey = keyAttributes.first { $0.slot == LookupID.identitySlot }
        self.keyIsUniqueConstraint = keyIsUniqueConstraint
        let keyPositions = keyAttributes.compactMap { key in attributes.firstIndex { $0 === key } }
        self.keyPositions = keyPositions
        keyFlags = attributes.indices.map { keyPositions.contains($0) }
        nestsRecords = relationships.contains { !$0.nestedMappings.isEmpty }
        var paths: [FieldPath] = []
        attributeFields = attributes.map { attribute in
            defer { paths += attribute.fields }
            return paths.count
        }
        identityFields = paths.count
        paths += identityKey?.fields ?? []
        relationshipFields = relationships.map { relationship in
            defer { paths += relationship.fields }
            return paths.count
        }
        fieldLookup = FieldLookup(paths)
    }

    /// The names of the key's attributes and relationships, in key order (for messages).
    var keyNames: [String] {
        keyAttributes.map(\.name) + keyRelationships.map { relationships[$0].relationship.name }
    }

    /// Whether `position` of `attributes` holds a key attribute.
    func isKeyPosition(_ position: Int) -> Bool {
        keyFlags[position]
    }

    /// Every field path at the top level of this mapping's records, fall-backs included (CSV
    /// readers resolve them to columns): attributes', a run identity key's, relationships'; with
    /// routes, the entity field and then each routed mapping's.
    var topLevelFields: [FieldPath] {
        if let routes { return [routes.field] + routes.ordered.flatMap(\.topLevelFields) }
        return attributes.flatMap(\.fields) + (identityKey?.fields ?? []) + relationships.flatMap(\.fields)
    }

    /// A copy whose top-level field paths are replaced through `resolved` (same order as ``topLevelFields``).
    func resolving(_ resolved: [FieldPath]) -> CompiledMapping {
        var iterator = resolved.makeIterator()
        if let routes {
            return CompiledMapping(
                number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keyAttributes,
                keyIsOptional: keyIsOptional, attributes: attributes, relationships: relationships,
                onConflict: onConflict, routes: routes.resolving(&iterator))
        }
        func next(_ fields: [FieldPath]) -> [FieldPath] { fields.map { iterator.next() ?? $0 } }
        func resolvingFields(of attribute: CompiledAttribute) -> CompiledAttribute {
            attribute.fields.isEmpty
                ? attribute
                : CompiledAttribute(
                    slot: attribute.slot, name: attribute.name, fields: next(attribute.fields),
                    constant: attribute.constant, coercer: attribute.coercer)
        }
        let attributes = self.attributes.map(resolvingFields)
        let identity = identityKey.map { [resolvingFields(of: $0)] } ?? []
        let relationships = self.relationships.map { relationship in
            CompiledRelationship(
                id: relationship.id, number: relationship.number, relationship: relationship.relationship,
                fields: next(relationship.fields), source: relationship.source, members: relationship.members,
                dataNesting: relationship.dataNesting)
        }
        let keys = keyAttributes.compactMap { key in (attributes + identity).first { $0.slot == key.slot } }
        return CompiledMapping(
            number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keys,
            keyRelationships: keyRelationships, keyIsOptional: keyIsOptional, attributes: attributes,
            relationships: relationships, onConflict: onConflict, keyIsUniqueConstraint: keyIsUniqueConstraint)
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
