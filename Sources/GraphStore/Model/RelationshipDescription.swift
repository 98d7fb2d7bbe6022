// The declaration of one relationship of an entity, and what happens to it when its owner is deleted.

/// What deleting an object does to the objects its relationship points at.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// Remove the deleted object from the destinations' inverse relationship.
    case nullify
    /// Delete the destinations too.
    case cascade
    /// Refuse the delete (the save fails) while the relationship has destinations.
    case deny
    /// Do nothing; the destinations keep pointing at the deleted object until the caller fixes them.
    case noAction
}

/// A relationship from an entity to a destination entity.
///
/// ```swift
/// let items = RelationshipDescription(
///     name: "items", destination: "Item", inverse: "lists",
///     isToMany: true, isOrdered: true)
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name, unique among the entity's properties (inherited ones included).
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination, if there is one.
    public var inverse: String?
    /// Whether the relationship holds many destinations (a set, or an ordered collection).
    public var isToMany: Bool
    /// For to-many relationships: whether the destinations keep an order.
    public var isOrdered: Bool
    /// Whether the relationship may be empty when saved.
    public var isOptional: Bool
    /// For to-many relationships: the fewest destinations allowed at save (0 = no minimum). On a
    /// to-one it is only what the declaration says (older Xcode models write 1), which Core Data's
    /// version hash covers; a to-one is checked at save through ``isOptional``.
    public var minCount: Int
    /// For to-many relationships: the most destinations allowed at save (0 = no maximum).
    public var maxCount: Int
    /// What deleting the owner does to the destinations.
    public var deleteRule: DeleteRule
    /// Whether the relationship lives in memory only and is never stored.
    public var isTransient: Bool
    /// Free-form annotations (`relatedByAttribute`, …); they never affect the store or the hash.
    public var userInfo: [String: String]
    /// The relationship's name in an earlier model version, when it was renamed (Xcode's Renaming
    /// ID); never part of a hash.
    public var renamingIdentifier: String?
    /// A string that changes the version hashes without changing the schema (Xcode's Version Hash
    /// Modifier); when nil, the hashes are what they were without one.
    public var hashModifier: String?
    /// Core Data's read-only flag; part of Core Data's version hash only.
    public var isReadOnly = false

    /// Declares a relationship; a to-one, optional, nullify relationship unless told otherwise.
    public init(
        name: String, destination: String, inverse: String? = nil,
        isToMany: Bool = false, isOrdered: Bool = false, isOptional: Bool = true,
        minCount: Int = 0, maxCount: Int = 0, deleteRule: DeleteRule = .nullify,
        isTransient: Bool = false, userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.isTransient = isTransient
        self.userInfo = userInfo
    }
}
