// What a child context's save pushes into its parent: new objects, changed objects with what the
// child had read of them, deletions, join-table links added or removed, and the order of ordered
// to-many relationships — all by ID, so the push crosses to the parent's isolation domain.
// Invariants: links name a relationship declared by their owner's entity; order lists hold the
// members in the child's final order.

/// A child context's unsaved changes, as its save hands them to its parent.
struct ChildChanges: Sendable {
    /// An object the child inserted, with its temporary ID.
    struct Insert: Sendable {
        let id: ObjectID
        let data: ObjectData
    }

    /// An object the child changed.
    struct Update: Sendable {
        let id: ObjectID
        /// The object's data in the child now.
        let data: ObjectData
        /// What the child had read of it before its first change (nil when only its to-many
        /// relationships changed): the parent compares it with what it holds now.
        let read: ObjectData?
    }

    /// A member added to or removed from a to-many relationship kept in a join table.
    struct Link: Sendable {
        let owner: ObjectID
        let relationship: String
        let member: ObjectID
        let added: Bool
    }

    /// The members of an ordered to-many relationship, in the child's order.
    struct Order: Sendable {
        let owner: ObjectID
        let relationship: String
        let members: [ObjectID]
    }

    var inserted: [Insert] = []
    var updated: [Update] = []
    var deleted: [ObjectID] = []
    var links: [Link] = []
    var orders: [Order] = []
}
