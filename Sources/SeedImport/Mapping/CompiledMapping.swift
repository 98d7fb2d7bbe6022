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
    /// The field path (nil for a constant).
    let field: FieldPath?
    /// The constant value, already coerced, when the mapping gives `value:`.
    let constant: AttributeValue?
    /// Turns field values into attribute values.
    let coercer: ValueCoercer

    init(slot: Int, name: String, field: FieldPath?, constant: AttributeValue?, coercer: ValueCoercer) {
        self.slot = slot
        self.name = name
        self.field = field
        self.constant = constant
        self.coercer = coercer
    }
}

/// A lookup: the entity searched and the attributes compared (a unique key or a `match`), or
/// the run identity (`key: [object-id]`, PlanConventions.identityKey), which no attribute holds.
struct LookupID: Hashable {
    let entityIndex: Int
    let slots: [Int]

    /// The slot that stands for the run identity.
    static let identitySlot = -1

    /// Whether this looks up the run identity: only the run's own records, never stored rows.
    var isRunIdentity: Bool { slots == [Self.identitySlot] }

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
}

/// How a relationship's destinations are found.
enum RelationshipSource {
    /// Destination keys in the field, matched against `match` attributes of the destination.
    case reference(
        lookup: LookupID, coercers: [ValueCoercer], matchNames: [String], missing: MissingPolicy, split: KeySplit?)
    /// Nested records in the field, imported with their own mapping.
    case nested(CompiledMapping)
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
    /// The field path holding keys or nested records.
    let field: FieldPath
    /// Where destinations come from.
    let source: RelationshipSource
    /// Add to or replace the members of a to-many of an existing object.
    let members: MembersPolicy
    /// The destination lookup of a reference (for a nested relationship, its destination with
    /// no key slots: never looked up).
    let lookup: LookupID
    /// What a reference to a missing destination does (`.ignore` for a nested relationship).
    let missing: MissingPolicy

    init(
        id: String, number: Int, relationship: ModelRelationship, field: FieldPath, source: RelationshipSource,
        members: MembersPolicy
    ) {
        self.id = id
        self.number = number
        self.relationship = relationship
        self.field = field
        self.source = source
        self.members = members
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
    /// The key attributes (a subset of `attributes`, or the run identity alone), in key order.
    let keyAttributes: [CompiledAttribute]
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

    init(
        number: Int, entity: ModelEntity, keyLookup: LookupID?, keyAttributes: [CompiledAttribute],
        attributes: [CompiledAttribute], relationships: [CompiledRelationship], onConflict: ConflictPolicy,
        routes: EntityRoutes? = nil, keyIsUniqueConstraint: Bool = false
    ) {
        self.number = number
        self.entity = entity
        self.keyLookup = keyLookup
        self.keyAttributes = keyAttributes
        self.attributes = attributes
        self.relationships = relationships
        self.onConflict = onConflict
        self.routes = routes
        identityKey = keyAttributes.first { $0.slot == LookupID.identitySlot }
        self.keyIsUniqueConstraint = keyIsUniqueConstraint
        let keyPositions = keyAttributes.compactMap { key in attributes.firstIndex { $0 === key } }
        self.keyPositions = keyPositions
        keyFlags = attributes.indices.map { keyPositions.contains($0) }
    }

    /// Whether `position` of `attributes` holds a key attribute.
    func isKeyPosition(_ position: Int) -> Bool {
        keyFlags[position]
    }

    /// Every field path at the top level of this mapping's records (CSV readers resolve them to
    /// columns): attributes', a run identity key's, relationships'; with routes, the entity field
    /// and then each routed mapping's.
    var topLevelFields: [FieldPath] {
        if let routes { return [routes.field] + routes.ordered.flatMap(\.topLevelFields) }
        return attributes.compactMap(\.field) + [identityKey?.field].compactMap { $0 } + relationships.map(\.field)
    }

    /// A copy whose top-level field paths are replaced through `resolved` (same order as ``topLevelFields``).
    func resolving(_ resolved: [FieldPath]) -> CompiledMapping {
        var iterator = resolved.makeIterator()
        if let routes {
            return CompiledMapping(
                number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keyAttributes,
                attributes: attributes, relationships: relationships, onConflict: onConflict,
                routes: routes.resolving(&iterator))
        }
        func resolvingField(of attribute: CompiledAttribute) -> CompiledAttribute {
            attribute.field == nil
                ? attribute
                : CompiledAttribute(
                    slot: attribute.slot, name: attribute.name, field: iterator.next() ?? attribute.field,
                    constant: attribute.constant, coercer: attribute.coercer)
        }
        let attributes = self.attributes.map(resolvingField)
        let identity = identityKey.map { [resolvingField(of: $0)] } ?? []
        let relationships = self.relationships.map { relationship in
            CompiledRelationship(
                id: relationship.id, number: relationship.number, relationship: relationship.relationship,
                field: iterator.next() ?? relationship.field,
                source: relationship.source, members: relationship.members)
        }
        let keys = keyAttributes.compactMap { key in (attributes + identity).first { $0.slot == key.slot } }
        return CompiledMapping(
            number: number, entity: entity, keyLookup: keyLookup, keyAttributes: keys, attributes: attributes,
            relationships: relationships, onConflict: onConflict, keyIsUniqueConstraint: keyIsUniqueConstraint)
    }
}
