// The error of reading a required attribute or to-one relationship of a typed object while it
// holds nil: an object inserted without the value and without a default, not saved yet.

/// Reading a required attribute or relationship that holds nil.
///
/// ```swift
/// let item = try Item.insert(into: context)
/// _ = try item.sku   // MissingValueError: Item.sku: no value (required, not set yet)
/// ```
public struct MissingValueError: Error, Sendable, CustomStringConvertible {
    /// The object's entity.
    public var entity: String
    /// The attribute or relationship read.
    public var key: String
    /// The object read.
    public var objectID: ObjectID

    /// The error for reading `entity.key` of `objectID`.
    public init(entity: String, key: String, objectID: ObjectID) {
        self.entity = entity
        self.key = key
        self.objectID = objectID
    }

    /// `Item.sku: no value (required, not set yet)`.
    public var description: String {
        "\(entity).\(key): no value (required, not set yet)"
    }
}
