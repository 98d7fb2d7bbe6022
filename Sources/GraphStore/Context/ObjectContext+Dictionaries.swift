// Dictionary results: chosen attributes and aggregates read straight from the store, grouped,
// filtered and made distinct by SQL; no objects are registered.
// Invariant: results reflect the store, not the context's unsaved changes (as in Core Data).

extension ObjectContext {
    /// One dictionary per result row of `request.propertiesToFetch` (nil values left out).
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Person", sortDescriptors: [FetchSortDescriptor("organization.name")])
    /// request.resultType = .dictionaries
    /// request.propertiesToFetch = [.keyPath("organization.name"), .aggregate("meanAge", .average, of: "age")]
    /// request.propertiesToGroupBy = ["organization.name"]
    /// let rows = try context.fetchDictionaries(request)
    /// rows[0]["meanAge"]   // .double(39)
    /// ```
    ///
    /// - Throws: ``FetchError`` for a request without properties, an unknown or non-attribute
    ///   key path, a plain property that is not grouped by, or a HAVING predicate without grouping.
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: AttributeValue]] {
        let builder = try FetchQueryBuilder(layout: layout, request: request)
        let query = try builder.dictionaryQuery()
        let columns = builder.dictionaryPlan?.columns ?? []
        return try run(query) { statement in
            var row: [String: AttributeValue] = [:]
            for (index, column) in columns.enumerated() {
                row[column.name] = statement.attributeValue(
                    at: Int32(index), type: column.type,
                    encoding: column.attribute.map(layout.encoding(of:)) ?? layout.values)
            }
            return row
        }
    }
}
