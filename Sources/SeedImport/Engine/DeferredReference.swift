// A reference that could not be resolved when its record was applied (a forward or self
// reference, or a missing destination whose policy is reject or ignore). The deferred pass
// resolves it after every record of the run exists.
import GraphStore
import RecordReaders

/// A reference waiting for the deferred pass.
struct DeferredReference {
    /// The object whose relationship is waiting (permanent once its batch is saved).
    var owner: ObjectID
    /// The reference, with its keys in source order.
    let reference: PreparedReference
    /// Where the record is, for errors.
    let recordPosition: SourcePosition
}
