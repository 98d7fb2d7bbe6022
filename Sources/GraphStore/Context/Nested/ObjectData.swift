// The data of objects as they cross between a parent context and its child: attribute values
// and to-one destinations by ID — never the objects themselves, which stay in their context.
// Invariants: `values` has one entry per attribute slot and `toOne` one per relationship slot
// (nil for to-many slots and empty to-ones) of the object's entity; the two contexts share one
// model, so slots mean the same on both sides.

/// One object's data as a context holds it.
struct ObjectData: Sendable {
    /// Attribute values by slot.
    let values: [AttributeValue?]
    /// To-one destinations by relationship slot.
    let toOne: [ObjectID?]
    /// The row version the context last read or wrote for the object.
    let rowVersion: Int64
}

/// An object a parent gives its child: its ID and, unless it is left a fault, its data.
struct ObjectState: Sendable {
    /// The object's ID in the parent.
    let id: ObjectID
    /// The object's data; nil when it is left a fault (the child fires it from the parent later).
    let data: ObjectData?
}
