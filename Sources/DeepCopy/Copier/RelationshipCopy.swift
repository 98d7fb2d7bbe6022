// What a copy does with one relationship's links (DeepCopyOptions.relationships, docs/Architecture.md "Deep copy"):
// follow them to what is copied anyway, cut them, or bring their destinations along.

/// What a deep copy does with the links of one relationship, chosen per relationship in
/// ``DeepCopyOptions/relationships``.
///
/// ```swift
/// var options = DeepCopyOptions()
/// options.entities = ["List"]
/// options.relationships = ["List.items": .bringAlong, "Item.unit": .bringAlong, "Item.tags": .cut]
/// ```
public enum RelationshipCopy: String, Sendable, CaseIterable {
    /// The default: a copied object is linked to the destinations the copy copies anyway (their
    /// entity is copied and their predicate admits them); a link to a destination left out
    /// stays unset.
    case follow
    /// The link is never written (the relationship and its inverse are one link, so cutting
    /// either side cuts both): copied objects get no such link, and objects matched in the
    /// target keep the links they had.
    case cut
    /// The destinations the relationship reaches from copied objects are copied too, and
    /// linked, even when a predicate on their entity left them out or their entity was not
    /// asked for; and so on from them (the copy closes over the graph through every
    /// relationship that brings its destinations along), in bounded memory.
    case bringAlong = "bring-along"
}
