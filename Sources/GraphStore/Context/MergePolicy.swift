// What a save does when it meets a change it did not make: an inserted object colliding with a
// stored row on a unique constraint, a row changed underneath an updated object (row version
// mismatch), or — for a child context's save — an object its parent changed or deleted since the
// child read it. The policy of the context that saves decides.

/// How a context resolves conflicts at save.
///
/// ```swift
/// context.mergePolicy = .objectWins   // in-memory values overwrite the stored row
/// ```
///
/// | conflict | `.error` | `.objectWins` | `.storeWins` |
/// |---|---|---|---|
/// | unique constraint | the save fails | the object takes over the stored row | the object becomes the stored row |
/// | row changed by another context | the save fails | the object's values are written | the stored attribute values stay; the to-ones the object changed are written, the others stay as stored |
/// | a child's object changed in its parent | the save fails | the child's values and relationships are taken | the parent's attribute values stay; the relationships the child changed are taken, the others stay as the parent has them |
///
/// A save that fails names each conflict in its ``ObjectValidationError``
/// (``ValidationRule/uniqueConstraint(_:)``, ``ValidationRule/rowVersionConflict``,
/// ``ValidationRule/parentChanged``) and changes nothing.
public enum MergePolicy: Sendable, Hashable {
    /// Fail the save with a validation error naming every conflict (the default).
    case error
    /// The in-memory object wins: its values (and relationships) are written over the stored row
    /// or over the parent's object.
    case objectWins
    /// The store (or, for a child context, the parent) wins: its attribute values stay and the
    /// object takes them; the relationships the object changed are still saved, the others stay
    /// as the store (or the parent) has them.
    case storeWins
}
