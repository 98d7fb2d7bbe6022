// One source of a plan: a file, how to read it, the entity its records become, the key that
// matches existing objects, and the attribute and relationship mappings.
import RecordReaders

/// One file to import and how.
///
/// ```swift
/// var items = SourcePlan(file: "items.csv", entity: "Item", key: ["sku"])
/// items.attributes = ["price": AttributeMapping(field: "price")]
/// items.relationships = ["unit": RelationshipMapping(field: "unit", match: ["name"], missing: .create)]
/// ```
public struct SourcePlan: Sendable, Hashable {
    /// The file, relative to the plan's folder.
    public var file: String
    /// The format; from the file's extension when nil.
    public var format: RecordFormat?
    /// CSV/TSV options.
    public var csv: CSVPlanOptions?
    /// Which records to read: a JSON path (`items[*]`) or an XML element path (`catalog/item`).
    public var records: String?
    /// The mapping of the records (attributes, relationships, key, conflict policy).
    public var mapping: RecordMapping

    /// A source reading `file` into `entity` objects matched by `key`.
    public init(
        file: String, format: RecordFormat? = nil, entity: String, key: [String]? = nil,
        onConflict: ConflictPolicy = .update
    ) {
        self.file = file
        self.format = format
        self.mapping = RecordMapping(entity: entity, key: key, onConflict: onConflict)
    }

    /// The entity each record becomes (the mapping's).
    public var entity: String {
        get { mapping.entity }
        set { mapping.entity = newValue }
    }

    /// The unique key.
    public var key: [String]? {
        get { mapping.key }
        set { mapping.key = newValue }
    }

    /// Attribute mappings; nil maps every field to the attribute of the same name (docs/PlanFormat.md).
    public var attributes: [String: AttributeMapping]? {
        get { mapping.attributes }
        set { mapping.attributes = newValue }
    }

    /// Relationship mappings.
    public var relationships: [String: RelationshipMapping] {
        get { mapping.relationships }
        set { mapping.relationships = newValue }
    }

    /// The field naming each record's entity (``RecordMapping/entityField``).
    public var entityField: String? {
        get { mapping.entityField }
        set { mapping.entityField = newValue }
    }
}

/// CSV/TSV options of a source.
public struct CSVPlanOptions: Sendable, Hashable {
    /// The field delimiter (one character; `,` for CSV, tab for TSV).
    public var delimiter: String?
    /// The quote character, or "" for none.
    public var quote: String?
    /// Whether the first row names the columns (default true).
    public var header: Bool?
    /// Whether rows may have fewer or more fields than the header.
    public var allowRagged: Bool?
    /// Whether a quote inside an unquoted field is an error (default false: it is a character).
    public var strict: Bool?

    /// Options with every value at its default.
    public init(
        delimiter: String? = nil, quote: String? = nil, header: Bool? = nil, allowRagged: Bool? = nil,
        strict: Bool? = nil
    ) {
        self.delimiter = delimiter
        self.quote = quote
        self.header = header
        self.allowRagged = allowRagged
        self.strict = strict
    }
}

/// How records become objects of one entity: shared by sources and nested mappings.
public struct RecordMapping: Sendable, Hashable {
    /// Whether the mapping, its relationships or its nested mappings key or match by the run
    /// identity (``PlanConventions/identityKey``).
    public var usesRunIdentities: Bool {
        PlanConventions.isIdentity(key)
            || relationships.values.contains { relationship in
                PlanConventions.isIdentity(relationship.match) || relationship.nested?.mapping.usesRunIdentities == true
            }
    }

    /// The entity.
    public var entity: String
    /// The unique key (attributes); nil means always insert.
    public var key: [String]?
    /// What a record matching an existing object does.
    public var onConflict: ConflictPolicy
    /// Attribute mappings; nil maps fields to attributes of the same name.
    public var attributes: [String: AttributeMapping]?
    /// Relationship mappings.
    public var relationships: [String: RelationshipMapping]
    /// The field naming the entity each record becomes: ``entity`` or one of its sub-entities
    /// (not abstract); nil makes every record an ``entity``. With it, ``entity`` may be abstract,
    /// and attributes and relationships may be those of its sub-entities (each record sets those
    /// its own entity has).
    public var entityField: String?

    /// A mapping for `entity` (or, with `entityField`, the sub-entity each record names).
    public init(
        entity: String, key: [String]? = nil, onConflict: ConflictPolicy = .update,
        attributes: [String: AttributeMapping]? = nil, relationships: [String: RelationshipMapping] = [:],
        entityField: String? = nil
    ) {
        self.entity = entity
        self.key = key
        self.onConflict = onConflict
        self.attributes = attributes
        self.relationships = relationships
        self.entityField = entityField
    }
}
