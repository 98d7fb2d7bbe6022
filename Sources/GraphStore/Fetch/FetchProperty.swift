// One column of a dictionary fetch: an attribute key path (through to-ones) or a named aggregate.

/// What a dictionary fetch returns per row, under a name.
///
/// ```swift
/// var request = FetchRequest(entityName: "Person", sortDescriptors: [FetchSortDescriptor("organization.name")])
/// request.resultType = .dictionaries
/// request.propertiesToFetch = [.keyPath("organization.name"), .aggregate("headcount", .count, of: "self")]
/// request.propertiesToGroupBy = ["organization.name"]
/// request.havingPredicate = .key("headcount") > 1
/// try context.fetchDictionaries(request)
/// // [["organization.name": "Acme", "headcount": 4], ["organization.name": "Zenith", "headcount": 4]]
/// ```
public enum FetchProperty: Sendable, Hashable {
    /// An attribute, by key path through to-one relationships; its key in the result is the key path.
    case keyPath(String)
    /// `function` over the attribute at `keyPath` (`"self"` counts objects), under `name`.
    case aggregate(name: String, function: AggregateFunction, keyPath: String)

    /// `function` of `keyPath` named `name`.
    public static func aggregate(_ name: String, _ function: AggregateFunction, of keyPath: String) -> FetchProperty {
        .aggregate(name: name, function: function, keyPath: keyPath)
    }

    /// The key of the property in each result dictionary.
    public var name: String {
        switch self {
        case .keyPath(let keyPath): keyPath
        case .aggregate(let name, _, _): name
        }
    }
}
