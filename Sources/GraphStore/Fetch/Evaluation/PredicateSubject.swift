// What in-memory predicate evaluation needs from an object: its ID and its values by key.
// Contexts make their objects conform, so a fetch can see unsaved inserts and changes.

/// An object a predicate can be evaluated on (by ``PredicateEvaluator``) or sorted by
/// (``FetchSortDescriptor/compare(_:_:)``).
///
/// ```swift
/// struct Row: PredicateSubject {
///     var subjectObjectID: ObjectID
///     var values: [String: AttributeValue]
///     func predicateValue(forKey key: String) throws -> PredicateOperand {
///         values[key].map(PredicateOperand.value) ?? .null
///     }
/// }
/// try PredicateEvaluator.evaluate(.key("price") < 5, on: row)
/// ```
public protocol PredicateSubject {
    /// The object's ID: what `self` and to-one relationships compare by.
    var subjectObjectID: ObjectID { get }

    /// The value of one key (an attribute or relationship name, never a dotted path):
    /// `.value` or `.null` for an attribute, `.object` or `.null` for a to-one relationship,
    /// `.objects` for a to-many relationship. Throw for a key the object does not have.
    func predicateValue(forKey key: String) throws -> PredicateOperand
}

/// The value of a key of a ``PredicateSubject``.
public enum PredicateOperand {
    /// No value (a nil attribute or an empty to-one relationship).
    case null
    /// An attribute value.
    case value(AttributeValue)
    /// The destination of a to-one relationship.
    case object(any PredicateSubject)
    /// The destinations of a to-many relationship.
    case objects([any PredicateSubject])
}
