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

/// The keys of a reference of a new row that wait for the set-based pass after the load.
struct PendingDeferral {
    /// The owner.
    let owner: RowReference
    /// The reference.
    let reference: PreparedReference
    /// The keys that wait (every key of an ordered relationship), with their places in the reference.
    let keys: [(ordinal: Int, key: KeyValue)]
}

/// A rule a new row breaks, as a save would report it.
struct RuleViolation: Error {
    /// The attribute.
    let attribute: String
    /// Its value, as text.
    let value: String?
    /// `Entity.attribute rule`.
    let message: String
}

/// Everything one batch writes.
struct RowBatch {
    /// New rows, in creation order.
    var rows: [PendingRow] = []
    /// The position in `rows` of each destination created for a reference (a record may fill it).
    var placeholders: [RowReference: Int] = [:]
    /// Links of to-many relationships.
    var links: [PendingLink] = []
    /// Keys for the set-based pass after the load.
    var deferrals: [PendingDeferral] = []
}
