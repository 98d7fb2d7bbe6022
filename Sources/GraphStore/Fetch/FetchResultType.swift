// What a fetch returns.

/// The kind of result a ``FetchRequest`` produces.
///
/// ```swift
/// var request = FetchRequest(entityName: "Item")
/// request.resultType = .count
/// ```
public enum FetchResultType: Sendable, Hashable {
    /// Objects registered in the fetching context.
    case objects
    /// The objects' IDs only.
    case objectIDs
    /// The number of matching objects.
    case count
    /// One dictionary per row of ``FetchRequest/propertiesToFetch`` (grouped, distinct),
    /// through ``ObjectContext/fetchDictionaries(_:)``.
    case dictionaries
}
