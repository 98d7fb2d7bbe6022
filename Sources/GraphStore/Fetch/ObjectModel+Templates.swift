// Fetch requests made from the model's stored templates (`FetchRequestTemplate`): the template's
// predicate format is parsed and its `$VARIABLES` substituted.
// Invariant: a request made from a template holds no variables (a missing value is an error).

extension ObjectModel {
    /// The fetch request of the template called `name`, with `variables` substituted.
    ///
    /// ```swift
    /// let request = try model.fetchRequest(template: "ItemsCheaperThan", variables: ["PRICE": 5])
    /// ```
    ///
    /// - Throws: ``FetchError/unknownTemplate(_:)``, ``PredicateSyntaxError`` for a template whose
    ///   predicate does not parse, ``FetchError/unsubstitutedVariable(_:)`` for a variable
    ///   without a value.
    public func fetchRequest(template name: String, variables: [String: any PredicateArgument] = [:]) throws
        -> FetchRequest
    {
        guard let template = fetchRequestTemplate(named: name) else { throw FetchError.unknownTemplate(name) }
        let predicate = try FetchPredicate(format: template.predicateFormat).substituting(variables)
        return FetchRequest(entityName: template.entity, predicate: predicate)
    }
}
