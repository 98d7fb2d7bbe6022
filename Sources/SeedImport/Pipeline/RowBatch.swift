// One batch of the row path, built in memory before anything is written: new rows with their
// values and to-one columns, the links of their to-many relationships, and the references
// that wait for the deferred pass.
// Invariant: rows have their final keys already (a store the run created holds no other
// rows, so keys are handed out in order by the run).
import GraphStore
import RecordReaders

/// A new row of the batch.
struct PendingRow {
    /// Its entity (the concrete one).
    let entity: ModelEntity
    /// Its key.
    let row: RowReference
    /// Attribute values by slot (defaults where the record gives none).
    var values: [AttributeValue?]
    /// The key of each to-one's destination, by relationship slot (nil: unset).
    var toOne: [Int64?]
}

/// The members a to-many relationship of a new row links to, in source order.
struct PendingLink {
    /// The relationship, on the owner's side.
    let relationship: ModelRelationship
    /// The owner's key.
    let owner: Int64
    /// The members' keys, in order.
    let members: [Int64]
}

/// A reference waiting for the deferred pass, owned by a new row.
struct PendingDeferral {
    /// The owner.
    let owner: RowReference
    /// The reference.
    let reference: PreparedReference
    /// Where its record starts.
    let origin: PreparedPosition
}

/// Everything one batch writes.
struct RowBatch {
    /// New rows, in creation order.
    var rows: [PendingRow] = []
    /// The position in `rows` of each destination created for a reference (a record may fill it).
    var placeholders: [RowReference: Int] = [:]
    /// Links of to-many relationships.
    var links: [PendingLink] = []
    /// References for the deferred pass.
    var deferrals: [PendingDeferral] = []
}
