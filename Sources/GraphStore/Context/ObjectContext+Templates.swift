// Executing the model's stored fetch-request templates with substitution variables.

extension ObjectContext {
    /// The objects the model's template `name` fetches with `variables` substituted.
    ///
    /// ```swift
    /// let cheap = try context.fetch(template: "ItemsCheaperThan", variables: ["PRICE": 5])
    /// ```
    ///
    /// - Throws: what ``ObjectModel/fetchRequest(template:variables:)`` and ``fetch(_:)`` throw.
    public func fetch(template name: String, variables: [String: any PredicateArgument] = [:]) throws
        -> [ManagedObject]
    {
        try fetch(model.fetchRequest(template: name, variables: variables))
    }
}
