// The model conventions of docs/PlanFormat.md ("Conventions from the model"), in the style of
// MagicalRecord and the Core Data importer books, so a model alone can drive an import: which
// fields feed each attribute and relationship when a plan says nothing (or only options), which
// attribute is an entity's import key, which destination attribute a relationship's values match,
// and how a date attribute's text is written.
// Invariants: explicit plan settings always win over the model's userInfo, which wins over the
// defaults; conventions only read the model (never the data), so the validator, the importer and
// `seedkit plan explain` resolve them identically.
import GraphStore

/// Resolves what a plan leaves to the model's conventions.
///
/// ```swift
/// // Item.sku has userInfo mappedKeyName: item_sku; Item.unit has relatedByAttribute: name
/// let mapping = RecordMapping(entity: "Item")                       // no attributes: given
/// let item = model.entity(named: "Item")!
/// PlanConventions.effectiveAttributes(of: mapping, entity: item)["sku"]?.field   // "item_sku"
/// try PlanConventions.effectiveMatch(for: item.relationship(named: "unit")!, mapping: nil, model: model)  // ["name"]
/// ```
public enum PlanConventions {
    /// The attribute or relationship `userInfo` key naming the field (a key path) it is read
    /// from; `mappedKeyName.1` … `mappedKeyName.9` name the fields tried in turn when the first
    /// is absent from a record.
    public static let mappedKeyName = "mappedKeyName"
    /// The relationship (or destination entity) `userInfo` key naming the destination attribute
    /// that references match; on an entity, also its import key.
    public static let relatedByAttribute = "relatedByAttribute"
    /// The identity column `seedkit export` writes for objects without a unique key: each
    /// object's ID, which relationships to it hold. As a source's whole `key` (read from the
    /// field of this name) or a relationship's whole `match`, it names no attribute: it
    /// identifies the run's own records, so references between exported files resolve, but it
    /// is not stored (a second run inserts such records again, as a source without a key does).
    /// No property can have this name (property names are letters, digits and underscores).
    public static let identityKey = "object-id"
    /// The relationship `userInfo` key naming the field of a nested record that holds its entity's
    /// name (a concrete sub-entity of the destination).
    public static let relationshipType = "type"
    /// The date attribute `userInfo` key giving its text's pattern (Unicode date patterns, as
    /// Apple's date formatter reads them), or `UnixTime` for seconds since 1970.
    public static let dateFormat = "dateFormat"
    /// The `dateFormat` value meaning seconds since 1970.
    public static let unixTime = "UnixTime"
    /// The date pattern MagicalRecord reads when a date attribute's userInfo gives none; tried
    /// after ISO 8601 text.
    public static let defaultDatePattern = "yyyy-MM-dd'T'HH:mm:ssz"

    /// The fields a property is read from when the plan names none, in the order they are tried:
    /// its `mappedKeyName` (else its name), then `mappedKeyName.1` … `mappedKeyName.9` up to the
    /// first that is not given.
    public static func fields(userInfo: [String: String], name: String) -> [String] {
        var fields = [userInfo[mappedKeyName] ?? name]
        for index in 1...9 {
            guard let next = userInfo["\(mappedKeyName).\(index)"] else { break }
            fields.append(next)
        }
        return fields
    }

    /// The field an attribute is read from when the plan names none: its `mappedKeyName`, else its name.
    public static func field(for attribute: ModelAttribute) -> String {
        fields(userInfo: attribute.declaration.userInfo, name: attribute.name)[0]
    }

    /// The fields an attribute is read from, in the order tried: the plan's `field` (none for a
    /// constant `value`), else ``fields(userInfo:name:)`` of the attribute.
    public static func fields(for attribute: ModelAttribute, mapping: AttributeMapping?) -> [String] {
        if let field = mapping?.field { return [field] }
        if mapping?.value != nil { return [] }
        return fields(userInfo: attribute.declaration.userInfo, name: attribute.name)
    }

    /// The fields a relationship's keys or nested records are read from, in the order tried: the
    /// mapping's `field`, else ``fields(userInfo:name:)`` of the relationship.
    public static func fields(for relationship: ModelRelationship, mapping: RelationshipMapping?) -> [String] {
        if let field = mapping?.field { return [field] }
        return fields(userInfo: relationship.declaration.userInfo, name: relationship.name)
    }

    /// The attribute mappings an import of `entity` records uses.
    ///
    /// - With no `attributes:` (nil), every stored (non-transient) attribute, read from
    ///   ``fields(userInfo:name:)``.
    /// - Otherwise exactly the attributes given; one given with neither `field` nor `value`
    ///   (`price: {trim: true}`, or `price:`) reads from the same fields.
    /// - A date attribute without `date:` takes its `dateFormat` userInfo.
    public static func effectiveAttributes(of mapping: RecordMapping, entity: ModelEntity) -> [String: AttributeMapping]
    {
        let given =
            mapping.attributes
            ?? Dictionary(
                uniqueKeysWithValues: entity.attributes.filter { !$0.isTransient }.map { ($0.name, AttributeMapping()) }
            )
        return given.reduce(into: [:]) { result, entry in
            var attribute = entry.value
            if let modelAttribute = entity.attribute(named: entry.key) {
                attribute = completed(attribute, of: modelAttribute)
            } else if attribute.field == nil, attribute.value == nil {
                attribute.field = entry.key
            }
            result[entry.key] = attribute
        }
    }

    /// `mapping` completed by the model: the conventional field when it gives neither `field` nor
    /// `value`, and a date attribute's `dateFormat` userInfo when it gives no `date:`.
    public static func completed(_ mapping: AttributeMapping, of attribute: ModelAttribute) -> AttributeMapping {
        var mapping = mapping
        let userInfo = attribute.declaration.userInfo
        if mapping.field == nil, mapping.value == nil {
            mapping.field = fields(userInfo: userInfo, name: attribute.name)[0]
        }
        if attribute.type == .date, mapping.dateFormat == nil, let format = userInfo[dateFormat] {
            mapping.dateFormat = format == unixTime ? "epoch" : format
        }
        return mapping
    }

    /// ``effectiveAttributes(of:entity:)`` for the mapping's entity in `model`.
    ///
    /// - Throws: ``PlanError`` when the model has no such entity.
    public static func effectiveAttributes(
        of mapping: RecordMapping, model: ObjectModel
    ) throws(PlanError) -> [String: AttributeMapping] {
        guard let entity = model.entity(named: mapping.entity) else {
            throw PlanError(keyPath: "entity", message: "unknown entity '\(mapping.entity)'")
        }
        return effectiveAttributes(of: mapping, entity: entity)
    }

    /// Whether `names` (a key or a match) is the run identity ``identityKey``.
    public static func isIdentity(_ names: [String]?) -> Bool {
        names == [identityKey]
    }

    /// The entities records of `mapping` (whose entity is `entity`) become: `entity`, or with
    /// `entityField` each concrete entity among `entity` and its sub-entities, in model order.
    public static func recordEntities(of mapping: RecordMapping, entity: ModelEntity, model: ObjectModel)
        -> [ModelEntity]
    {
        guard mapping.entityField != nil else { return [entity] }
        return entity.kindIndices.map { model.entities[$0] }.filter { !$0.isAbstract }
    }

    /// The import key of `mapping`'s records: the plan's `key`, else ``conventionalKey(of:model:)``.
    public static func effectiveKey(of mapping: RecordMapping, entity: ModelEntity, model: ObjectModel) -> [String]? {
        mapping.key ?? conventionalKey(of: entity, model: model).map { [$0] }
    }

    /// The key the model gives `entity` (MagicalRecord's primary attribute): the
    /// `relatedByAttribute` of the entity (or its nearest ancestor that has one), else its
    /// attribute ``defaultIdentifier(of:)`` (`personID` for `Person`), when that is an attribute
    /// of the entity that can identify objects. Records without a value for it are inserted.
    public static func conventionalKey(of entity: ModelEntity, model: ObjectModel) -> String? {
        let name = declaredKey(of: entity, model: model)?.name ?? defaultIdentifier(of: entity)
        guard let attribute = entity.attribute(named: name), identifies(attribute) else { return nil }
        return name
    }

    /// The `relatedByAttribute` given on `entity` or its nearest ancestor, and that entity's name.
    static func declaredKey(of entity: ModelEntity, model: ObjectModel) -> (name: String, entity: String)? {
        var current: ModelEntity? = entity
        while let candidate = current {
            if let name = candidate.userInfo[relatedByAttribute] { return (name, candidate.name) }
            current = candidate.parentIndex.map { model.entities[$0] }
        }
        return nil
    }

    /// Whether `attribute` can identify objects (be a key or a match): stored, neither binary nor transformable.
    static func identifies(_ attribute: ModelAttribute) -> Bool {
        !attribute.isTransient && attribute.type != .binary && attribute.type != .transformable
    }

    /// The destination attributes that `relationship`'s references match: the mapping's `match`,
    /// else the relationship's `relatedByAttribute`, else the destination entity's (or an
    /// ancestor's) `relatedByAttribute`, else the destination's attribute `<destination>ID` (lower
    /// camel case: `unitID` for `Unit`), else the destination's only single-attribute unique constraint.
    ///
    /// - Throws: ``PlanError`` ("give match:") when none of these decides.
    public static func effectiveMatch(
        for relationship: ModelRelationship, mapping: RelationshipMapping?, model: ObjectModel
    ) throws(PlanError) -> [String] {
        if let match = mapping?.match { return match }
        return try conventionalMatch(for: relationship, model: model).attributes
    }

    /// The destination attributes compared where a key or a match names the to-one
    /// `relationship` of `entity` as a part of it, but no mapping of that record says how its
    /// destination is matched (a relationship `match: [order, product]` naming relationships of
    /// the destination): the `match` of the first of `sources` whose records are `entity`
    /// objects (or its ancestor's) and map `relationship` by reference, else the model's
    /// convention (``effectiveMatch(for:mapping:model:)``).
    ///
    /// - Throws: ``PlanError`` when neither decides.
    public static func keyMatch(
        for relationship: ModelRelationship, of entity: ModelEntity, sources: [RecordMapping], model: ObjectModel
    ) throws(PlanError) -> [String] {
        let given = sources.lazy.compactMap { source -> RelationshipMapping? in
            guard let owner = model.entity(named: source.entity), entity.isKind(of: owner),
                let mapping = source.relationships[relationship.name], mapping.nested == nil
            else { return nil }
            return mapping
        }.first
        return try effectiveMatch(for: relationship, mapping: given, model: model)
    }

    /// The conventional match of `relationship` and where it comes from (for messages).
    static func conventionalMatch(
        for relationship: ModelRelationship, model: ObjectModel
    ) throws(PlanError) -> (attributes: [String], origin: String) {
        if let name = relationship.declaration.userInfo[relatedByAttribute] {
            return ([name], "the relationship's \(relatedByAttribute)")
        }
        let destination = model.destination(of: relationship)
        if let (name, entity) = declaredKey(of: destination, model: model) {
            return ([name], "\(entity)'s \(relatedByAttribute)")
        }
        let identifier = defaultIdentifier(of: destination)
        if destination.attribute(named: identifier) != nil {
            return ([identifier], identifier)
        }
        let singles = Set(destination.uniqueConstraints.filter { $0.count == 1 }.flatMap { $0 })
        if singles.count == 1, let name = singles.first {
            return ([name], "\(destination.name)'s unique constraint")
        }
        let constraints = singles.isEmpty ? "no single-attribute unique constraint" : "several unique attributes"
        throw PlanError(
            keyPath: "relationships.\(relationship.name)",
            message: "cannot tell which attribute of \(destination.name) '\(relationship.name)' matches "
                + "(no \(relatedByAttribute) in the model, no \(identifier), \(constraints)): give match:")
    }

    /// MagicalRecord's default identifier attribute of `entity`: its name in lower camel case
    /// followed by `ID` (`unitID`, `lineItemID`).
    public static func defaultIdentifier(of entity: ModelEntity) -> String {
        entity.name.prefix(1).lowercased() + entity.name.dropFirst() + "ID"
    }

    /// The conventional match of `relationship` when it names attributes of the destination that
    /// can identify objects, else nil (a relationship mapped by convention is then left out).
    static func usableMatch(for relationship: ModelRelationship, model: ObjectModel) -> [String]? {
        let destination = model.destination(of: relationship)
        guard let match = try? conventionalMatch(for: relationship, model: model).attributes,
            match.allSatisfy({ destination.attribute(named: $0).map(identifies) ?? false })
        else { return nil }
        return match
    }
}
