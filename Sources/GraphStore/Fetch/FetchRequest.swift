// A description of a fetch: which entity, which objects, in which order, how many, as what.
// A plain value: building one never touches a store; `FetchQueryBuilder` checks it against a model.

/// What to fetch from a store.
///
/// ```swift
/// var request = FetchRequest(
///     entityName: "Item",
///     predicate: .key("price") < 5 && .key("unit.name") == "kg",
///     sortDescriptors: [FetchSortDescriptor("name")])
/// request.fetchLimit = 20
/// request.fetchOffset = 40
/// ```
public struct FetchRequest: Sendable {
    /// The name of the entity to fetch.
    public var entityName: String
    /// Which objects to fetch; nil fetches all.
    public var predicate: FetchPredicate?
    /// The order of the results; ties (and a request without descriptors) follow primary keys.
    public var sortDescriptors: [FetchSortDescriptor]
    /// The most objects to return; nil for no limit (0 returns none).
    public var fetchLimit: Int?
    /// How many matching objects to skip first.
    public var fetchOffset: Int
    /// How many objects to load at a time when the results are read lazily; nil loads all at once.
    public var fetchBatchSize: Int?
    /// Whether objects of sub-entities are fetched too.
    public var includesSubentities: Bool
    /// What the fetch returns.
    public var resultType: FetchResultType
    /// Relationships whose destinations are loaded along with the fetched objects.
    public var relationshipKeyPathsForPrefetching: [String]
    /// Whether the fetching context's unsaved inserts, changes and deletions are taken into account.
    public var includesPendingChanges: Bool
    /// Whether fetched objects start as faults (their values loaded on first access).
    public var returnsObjectsAsFaults: Bool
    /// For dictionary results: the key paths and named aggregates each dictionary holds.
    public var propertiesToFetch: [FetchProperty]
    /// For dictionary results: the key paths whose values form the groups aggregates run over.
    public var propertiesToGroupBy: [String]
    /// For grouped dictionary results: which groups to keep, over group key paths and aggregate names.
    public var havingPredicate: FetchPredicate?
    /// For dictionary results: whether equal dictionaries appear once.
    public var returnsDistinctResults: Bool

    /// A request for `entityName` objects matching `predicate`, ordered by `sortDescriptors`.
    public init(entityName: String, predicate: FetchPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = nil
        self.fetchOffset = 0
        self.fetchBatchSize = nil
        self.includesSubentities = true
        self.resultType = .objects
        self.relationshipKeyPathsForPrefetching = []
        self.includesPendingChanges = true
        self.returnsObjectsAsFaults = false
        self.propertiesToFetch = []
        self.propertiesToGroupBy = []
        self.havingPredicate = nil
        self.returnsDistinctResults = false
    }
}
