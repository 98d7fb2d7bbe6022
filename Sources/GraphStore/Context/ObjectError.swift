// Errors from using objects and contexts: unknown keys, wrong value types, detached objects,
// missing objects. Each names the entity, the key and the value involved.

/// A misuse of an object or context, named precisely.
///
/// ```swift
/// do { try item.set("price", "cheap") }
/// catch let error as ObjectError { print(error) }  // Item.price: expected double, got string "cheap"
/// ```
public struct ObjectError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The entity has no property of that name (or not of the kind asked for).
        case unknownKey
        /// The value's type does not fit the attribute; holds the value's description.
        case typeMismatch(expected: String, got: String)
        /// An integer outside the range of its attribute type.
        case outOfRange(String)
        /// The object's context was reset or released.
        case detached
        /// No object with the ID exists in the store.
        case notFound
        /// The ID belongs to another store or entity, or is temporary in another context.
        case foreignID
        /// The object is of the wrong entity for the relationship.
        case wrongDestination(expected: String, got: String)
        /// An abstract entity cannot be instantiated.
        case abstractEntity
        /// An ordered-relationship index outside the collection.
        case indexOutOfBounds(Int)
        /// The store is open read-only.
        case readOnly
        /// An object from another context was used.
        case otherContext
        /// A set-based write was asked of a context holding unsaved changes.
        case unsavedChanges
        /// A child context was asked for something only a context of the store does (the
        /// operation is named): its changes go to its parent, not to the store.
        case childContext(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The entity involved.
    public var entity: String
    /// The key involved, if any.
    public var key: String?
    /// The object involved, if any.
    public var objectID: ObjectID?

    /// An error of `kind` about `entity.key` (of `objectID`).
    public init(_ kind: Kind, entity: String, key: String? = nil, objectID: ObjectID? = nil) {
        self.kind = kind
        self.entity = entity
        self.key = key
        self.objectID = objectID
    }

    /// `Entity.key: reason`.
    public var description: String {
        let subject = key.map { "\(entity).\($0)" } ?? entity
        let reason: String
        switch kind {
        case .unknownKey: reason = "no such property"
        case .typeMismatch(let expected, let got): reason = "expected \(expected), got \(got)"
        case .outOfRange(let value): reason = "\(value) is out of range"
        case .detached: reason = "the object's context was reset or released"
        case .notFound: reason = "no such object in the store" + (objectID.map { " (\($0))" } ?? "")
        case .foreignID: reason = "the ID belongs to another store or context" + (objectID.map { " (\($0))" } ?? "")
        case .wrongDestination(let expected, let got): reason = "expected a \(expected) object, got a \(got)"
        case .abstractEntity: reason = "the entity is abstract and cannot be instantiated"
        case .indexOutOfBounds(let index): reason = "index \(index) is out of bounds"
        case .readOnly: reason = "the store is open read-only"
        case .otherContext: reason = "the object belongs to another context"
        case .unsavedChanges: reason = "the context has unsaved changes; save them before writing rows"
        case .childContext(let operation):
            reason =
                "a child context cannot \(operation); its changes go to its parent, so do it in a context of the store"
        }
        return "\(subject): \(reason)"
    }
}
