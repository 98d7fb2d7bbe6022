// Why a fetch request or predicate cannot be run: the errors of building fetch SQL and of
// evaluating predicates in memory. Messages name the entity and key path the way a user wrote them.

/// A fetch request, predicate or sort descriptor that does not fit the model or its values.
///
/// ```swift
/// do {
///     _ = try FetchQueryBuilder(model: model, request: FetchRequest(entityName: "Item", predicate: .key("foo") == 1))
/// } catch let error as FetchError {
///     print(error)   // unknown key path "Item.foo"
/// }
/// ```
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No entity has this name.
    case unknownEntity(String)
    /// The key path does not name attributes and relationships of the entity (`"Item.foo"`).
    case unknownKeyPath(entity: String, keyPath: String)
    /// The key path goes through (or ends at) a to-many relationship where a single value is needed.
    case toManyKeyPath(entity: String, keyPath: String, relationship: String)
    /// The key path names something the store does not keep (a transient property) or that
    /// cannot be used here (a relationship as a sort key).
    case unsupportedKeyPath(entity: String, keyPath: String, reason: String)
    /// A value of the wrong kind for what it is compared with (a string compared with a Date attribute).
    case typeMismatch(keyPath: String, expected: String, found: String)
    /// A comparison that cannot be evaluated, such as `BETWEEN` without two bounds.
    case invalidComparison(String)
    /// A `$VARIABLE` left in a predicate that is being evaluated or substituted without a value.
    case unsubstitutedVariable(String)
    /// A request setting out of range, such as a negative fetch offset.
    case invalidRequest(String)
    /// The model has no fetch-request template of this name.
    case unknownTemplate(String)
    /// The request's result type is not what the method called returns; `use` names the method
    /// that does (``ObjectContext/fetch(_:)`` with `.objectIDs` → `fetchObjectIDs(_:)`).
    case unsupportedResultType(FetchResultType, use: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unknownEntity(let name):
            "unknown entity \"\(name)\""
        case .unknownKeyPath(let entity, let keyPath):
            "unknown key path \"\(entity).\(keyPath)\""
        case .toManyKeyPath(let entity, let keyPath, let relationship):
            "key path \"\(entity).\(keyPath)\" goes through the to-many relationship \"\(relationship)\" "
                + "where a single value is required"
        case .unsupportedKeyPath(let entity, let keyPath, let reason):
            "key path \"\(entity).\(keyPath)\" cannot be used: \(reason)"
        case .typeMismatch(let keyPath, let expected, let found):
            "type mismatch: \(keyPath) is compared with \(found), expected \(expected)"
        case .invalidComparison(let reason):
            "invalid comparison: \(reason)"
        case .unsubstitutedVariable(let name):
            "no value for the variable $\(name)"
        case .invalidRequest(let reason):
            "invalid fetch request: \(reason)"
        case .unknownTemplate(let name):
            "no fetch request template \"\(name)\" in the model"
        case .unsupportedResultType(let type, let method):
            "a request whose result type is \(type) is not run here: use \(method)"
        }
    }
}
