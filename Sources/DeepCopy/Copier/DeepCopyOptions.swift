// What a deep copy copies and how it merges into the target (docs/Architecture.md "Deep copy").
import GraphStore

/// What a copied object does when its key matches an object already in the target.
public enum CopyConflictPolicy: String, Sendable, CaseIterable {
    /// Overwrite the target object's attributes with the source's; its ordered to-manys take the
    /// source's order (the members only the target has after it, in their old order).
    case update
    /// Keep the target object as it is (relationships still gain missing members, appended in
    /// source order to ordered ones).
    case keep
    /// Stop the copy (nothing of it remains).
    case fail
}

/// Options of a deep copy.
///
/// ```swift
/// var options = DeepCopyOptions()
/// options.entities = ["Item", "Unit"]
/// options.onConflict = .keep
/// ```
public struct DeepCopyOptions: Sendable {
    /// The entities to copy (with their sub-entities); nil copies every entity.
    public var entities: [String]?
    /// The key that matches objects per entity; default: the entity's first unique constraint.
    /// Entities without a key are copied once each through an identity map.
    public var keys: [String: [String]] = [:]
    /// A predicate per entity (applying to its sub-entities too): only matching objects are
    /// copied. Links from copied objects to objects left out stay unset, unless the
    /// relationship brings its destinations along (``relationships``).
    public var predicates: [String: FetchPredicate] = [:]
    /// What the copy does with each relationship's links, keyed `"Entity.relationship"` (the
    /// entity that declares it); a relationship not named is ``RelationshipCopy/follow``ed:
    /// linked to the destinations copied anyway, its link unset where the destination is left
    /// out. ``RelationshipCopy/cut`` never writes the link; ``RelationshipCopy/bringAlong``
    /// copies the destinations it reaches from copied objects too, whatever ``entities`` and
    /// ``predicates`` say, transitively.
    ///
    /// ```swift
    /// options.entities = ["List"]
    /// options.relationships = ["List.items": .bringAlong, "Item.tags": .cut]
    /// ```
    public var relationships: [String: RelationshipCopy] = [:]
    /// What a matching object does.
    public var onConflict: CopyConflictPolicy = .update
    /// The target's record of where its objects came from, used and kept by the copy (nil: none).
    /// With a lineage, objects are matched first through the record (then by key), each matched
    /// object's properties take the source's values as ``CopyLineage/policy`` says (instead of
    /// ``onConflict``, which then only stops a copy with `fail`), and the record is written with
    /// the copy's last batch.
    public var lineage: CopyLineage?
    /// Source rows per committed batch: each batch is one transaction of set-based SQL. Objects
    /// of entities with a predicate are evaluated at most 5,000 at a time.
    public var batchSize = 50_000
    /// Metadata written in the same transaction as the copy's last batch (nil values remove a
    /// key): a marker such as `seed.version` is then set exactly when the copy is complete.
    public var completionMetadata: [String: String?] = [:]
    /// Called after every saved batch with the counts so far (on the copying thread).
    public var progress: (@Sendable (CopyReport) -> Void)?
    /// Called after every saved batch with where the copy stands: the entity being written, the
    /// rows gone through and to go, the counts so far (on the copying thread), and once more
    /// when the copy is complete. Setting it costs a count of the rows to copy before the first batch.
    ///
    /// ```swift
    /// options.batchProgress = { step in print("\(step.entity): \(Int(step.fraction * 100))%") }
    /// ```
    public var batchProgress: (@Sendable (CopyProgress) -> Void)?

    /// Copy everything, updating matches.
    public init() {}
}
