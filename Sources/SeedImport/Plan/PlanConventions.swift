// The model conventions of docs/PlanFormat.md, so a model alone can drive an import: which field feeds
// each attribute when a plan says nothing (or only options), and which destination attribute a
// relationship's values match when the plan gives no `match:`.
// Invariants: explicit plan settings always win over conventions; conventions only read the
// model (never the data), so the validator and the importer resolve them identically.
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
    /// The attribute `userInfo` key naming the field an attribute is read from.
    public static let mappedKeyName = "mappedKeyName"
    /// The relationship (or destination entity) `userInfo` key naming the destination attribute
    /// that references match.
    public static let relatedByAttribute = "relatedByAttribute"
    /// The identity column `seedkit export` writes for objects without a unique key: each
    /// object's ID, which relationships to it hold. As a source's whole `key` (read from the
    /// field of this name) or a relationship's whole `match`, it names no attribute: it
    /// identifies the run's own records, so references between exported files resolve, but it
    /// is not stored (a second run inserts such records again, as a source without a key does).
    /// No property can have this name (property names are letters, digits and underscores).
    public static let identityKey = "object-id"

    /// The field an attribute is read from when the plan names none: its `mappedKeyName`, else its name.
    public static func field(for attribute: ModelAttribute) -> String {
        attribute.declaration.userInfo[mappedKeyName] ?? attribute.name
    }

    /// The attribute mappings an import of `entity` records uses.
    ///
    /// - With no `attributes:` (nil), every stored (non-transient) attribute, read from
    ///   ``field(for:)``.
    /// - Otherwise exactly the attributes given; one given with neither `field` nor `value`
    ///   (`price: {trim: true}`, or `price:`) reads from ``field(for:)``.
    public static func effectiveAttributes(of mapping: RecordMapping, entity: ModelEntity) -> [String: AttributeMapping]
    {
        guard let attributes = mapping.attributes else {
            let stored = entity.attributes.filter { !$0.isTransient }
            return Dictionary(uniqueKeysWithValues: stored.map { ($0.name, AttributeMapping(field: field(for: $0))) })
        }
        return attributes.reduce(into: [:]) { result, entry in
            var attribute = entry.value
            if attribute.field == nil, attribute.value == nil {
                attribute.field = entity.attribute(named: entry.key).map(field(for:)) ?? entry.key
            }
            result[entry.key] = attribute
        }
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

    /// The destination attributes that `relationship`'s references match: the mapping's `match`,
    /// else the relationship's `relatedByAttribute`, else the destination entity's (or an
    /// ancestor's) `relatedByAttribute`, else the destination's only single-attribute unique constraint.
    ///
    /// - Throws: ``PlanError`` ("give match:") when none of these decides.
    public static func effectiveMatch(
        for relationship: ModelRelationship, mapping: RelationshipMapping?, model: ObjectModel
    ) throws(PlanError) -> [String] {
        if let match = mapping?.match { return match }
        return try conventionalMatch(for: relationship, model: model).attributes
    }

    /// The conventional match of `relationship` and where it comes from (for messages).
    static func conventionalMatch(
        for relationship: ModelRelationship, model: ObjectModel
    ) throws(PlanError) -> (attributes: [String], origin: String) {
        if let name = relationship.declaration.userInfo[relatedByAttribute] {
            return ([name], "the relationship's \(relatedByAttribute)")
        }
        let destination = model.destination(of: relationship)
        var entity: ModelEntity? = destination
        while let current = entity {
            if let name = current.userInfo[relatedByAttribute] {
                return ([name], "\(current.name)'s \(relatedByAttribute)")
            }
            entity = current.parentIndex.map { model.entities[$0] }
        }
        let singles = Set(destination.uniqueConstraints.filter { $0.count == 1 }.flatMap { $0 })
        if singles.count == 1, let name = singles.first {
            return ([name], "\(destination.name)'s unique constraint")
        }
        let constraints = singles.isEmpty ? "no single-attribute unique constraint" : "several unique attributes"
        throw PlanError(
            keyPath: "relationships.\(relationship.name)",
            message: "cannot tell which attribute of \(destination.name) '\(relationship.name)' matches "
                + "(no \(relatedByAttribute) in the model, \(constraints)): give match:")
    }
}
