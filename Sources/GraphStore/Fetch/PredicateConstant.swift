// The constants of predicates: nil, an attribute value, or an object (by its ID).

/// A constant operand of a predicate.
///
/// ```swift
/// let five = PredicateConstant.value(.integer(5))
/// let unit = PredicateConstant.object(unitID)    // compares with to-one relationships and `self`
/// let none = PredicateConstant.null
/// ```
public enum PredicateConstant: Sendable, Hashable {
    /// `nil` / `NULL`.
    case null
    /// An attribute value.
    case value(AttributeValue)
    /// An object, compared by identity with to-one relationships and `self`.
    case object(ObjectID)
}
