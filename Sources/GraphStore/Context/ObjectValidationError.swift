// The error a save throws when objects break the model's rules: every failure, aggregated.

/// The rule an object broke.
public enum ValidationRule: Sendable, Hashable, CustomStringConvertible {
    /// A non-optional attribute or relationship is nil or empty.
    case required
    /// A number below the attribute's minimum.
    case minimum(Double)
    /// A number above the attribute's maximum.
    case maximum(Double)
    /// A string or binary value shorter than the minimum length.
    case minimumLength(Int)
    /// A string or binary value longer than the maximum length.
    case maximumLength(Int)
    /// A string that does not match the attribute's regular expression.
    case pattern(String)
    /// A date before the earliest allowed date.
    case earliestDate(String)
    /// A date after the latest allowed date.
    case latestDate(String)
    /// A to-many with fewer members than its minimum count.
    case minimumCount(Int)
    /// A to-many with more members than its maximum count.
    case maximumCount(Int)
    /// Another object already has these values for a unique constraint.
    case uniqueConstraint([String])
    /// A deny delete rule: the deleted object still has destinations through this relationship.
    case deleteDenied
    /// The row changed in the store since the object was read (row version mismatch).
    case rowVersionConflict
    /// A child context's save: the parent context changed or deleted the object since the child
    /// read it.
    case parentChanged

    /// The rule in words.
    public var description: String {
        switch self {
        case .required: "is required"
        case .minimum(let value): "is below the minimum \(value)"
        case .maximum(let value): "is above the maximum \(value)"
        case .minimumLength(let length): "is shorter than \(length)"
        case .maximumLength(let length): "is longer than \(length)"
        case .pattern(let pattern): "does not match /\(pattern)/"
        case .earliestDate(let date): "is before \(date)"
        case .latestDate(let date): "is after \(date)"
        case .minimumCount(let count): "has fewer than \(count) members"
        case .maximumCount(let count): "has more than \(count) members"
        case .uniqueConstraint(let keys): "duplicates another object's [" + keys.joined(separator: ", ") + "]"
        case .deleteDenied: "still has destinations (deny delete rule)"
        case .rowVersionConflict: "was changed in the store by someone else"
        case .parentChanged: "was changed or deleted in the parent context since this context read it"
        }
    }
}

/// One object breaking one rule.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The entity of the object.
    public var entity: String
    /// The object.
    public var objectID: ObjectID
    /// The attribute or relationship (nil for rules about the whole object).
    public var key: String?
    /// The offending value, as text.
    public var value: String?
    /// The rule broken.
    public var rule: ValidationRule

    /// `Item.price = -1 is below the minimum 0 (x-seedkit://…)`.
    public var description: String {
        let subject = key.map { "\(entity).\($0)" } ?? entity
        let shown = value.map { " = \($0)" } ?? ""
        return "\(subject)\(shown) \(rule) (\(objectID))"
    }
}

/// A save refused because objects break the model's rules; nothing was written.
///
/// ```swift
/// do { try context.save() }
/// catch let error as ValidationError { for failure in error.failures { print(failure) } }
/// ```
public struct ObjectValidationError: Error, Sendable, CustomStringConvertible {
    /// Every failure found, in object order.
    public var failures: [ValidationFailure]

    /// An error listing `failures`.
    public init(failures: [ValidationFailure]) {
        self.failures = failures
    }

    /// The count and the first failures.
    public var description: String {
        let shown = failures.prefix(5).map(\.description).joined(separator: "; ")
        let more = failures.count > 5 ? "; … \(failures.count - 5) more" : ""
        return "validation failed (\(failures.count) problem\(failures.count == 1 ? "" : "s")): \(shown)\(more)"
    }
}
