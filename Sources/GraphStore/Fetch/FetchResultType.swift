// What a fetch returns.

/// The kind of result a ``FetchRequest`` produces.
///
/// ```swift
/// var request = FetchRequest(entityName: "Item")
/// request.resultType = .count
/// ```
public enum FetchResultType: Sendable, Hashable {
    /// Objects registered in the fetching context, through ``ObjectContext/fetch(_:)``.
    case objects
    /// The objects' IDs only, through ``ObjectContext/fetchObjectIDs(_:)``.
    case objectIDs
    /// The number of matching objects, through ``ObjectContext/count(for:)``.
    case count
    /// One dictionary per row of ``FetchRequest/propertiesToFetch`` (grouped, distinct),
    /// through ``ObjectContext/fetchDictionaries(_:)``.
    case dictionaries
}

extension FetchResultType: CustomStringConvertible {
    /// The case as written in Swift: `.objects`, `.objectIDs`, `.count` or `.dictionaries`.
    public var description: String {
        switch self {
        case .objects: ".objects"
        case .objectIDs: ".objectIDs"
        case .count: ".count"
        case .dictionaries: ".dictionaries"
        }
    }
}
