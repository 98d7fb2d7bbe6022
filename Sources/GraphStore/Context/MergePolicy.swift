// What a save does when an inserted or updated object collides with a stored row on a unique
// constraint, or when a row changed underneath an updated object (row version mismatch).

/// How a context resolves conflicts at save.
///
/// ```swift
/// context.mergePolicy = .objectWins   // in-memory values overwrite the stored row
/// ```
public enum MergePolicy: Sendable, Hashable {
    /// Fail the save with a validation error naming the conflict (the default).
    case error
    /// The in-memory object wins: it takes over the stored row and writes its values over it.
    case objectWins
    /// The store wins: the object becomes the stored row and its attribute changes are dropped.
    case storeWins
}
