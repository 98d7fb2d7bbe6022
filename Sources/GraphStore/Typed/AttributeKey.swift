// Typed keys for attributes: the name of an attribute with its entity's type and its value's Swift
// type, so generated code reads and writes values without stringly-typed calls and predicates and
// sort descriptors are checked by the compiler (`Item.Keys.price < 5`, not `Item.Keys.price < "5"`).

/// A key that builds predicates comparing values of type `Value`, for objects of `Root`.
///
/// ``AttributeKey`` (an attribute, or a key path through to-one relationships) and
/// ``CollectionValueKey`` (a quantified or aggregated key path through a to-many) conform; the
/// comparisons they share are in `TypedPredicateKey+Comparisons.swift`.
public protocol TypedPredicateKey<Root, Value>: Sendable {
    /// The entity type the key starts from.
    associatedtype Root
    /// The Swift type of the values the key reaches.
    associatedtype Value
    /// The untyped key the comparisons are built on.
    var predicateKey: PredicateKey { get }
}

/// An attribute of `Root` holding `Value`s, or a key path through to-one relationships ending at
/// one (made with ``ToOneKey``'s `appending`).
///
/// ```swift
/// let cheap = try Item.fetch(in: context, where: Item.Keys.price < 5, sortedBy: [Item.Keys.name.ascending])
/// ```
public struct AttributeKey<Root, Value>: TypedPredicateKey {
    /// The attribute's name, or a dotted key path (`unit.name`).
    public let keyPath: String

    /// The key for the attribute (or dotted key path) `keyPath`.
    public init(_ keyPath: String) {
        self.keyPath = keyPath
    }

    /// The untyped key: `.key(keyPath)`.
    public var predicateKey: PredicateKey { PredicateKey(keyPath) }

    /// Sorts by this key, smallest first.
    public var ascending: FetchSortDescriptor { FetchSortDescriptor(keyPath) }

    /// Sorts by this key, largest first.
    public var descending: FetchSortDescriptor { FetchSortDescriptor(keyPath, ascending: false) }

    /// Sorts by this key in the given direction, folding strings as `options` say.
    public func sorted(ascending: Bool = true, options: StringComparisonOptions) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath, ascending: ascending, options: options)
    }
}

extension AttributeKey where Value: AttributeConvertible {
    /// The attribute's value in `object` (nil when it has none).
    ///
    /// - Throws: ``ObjectError`` when the object has no such attribute, holds a value of another
    ///   type, or its context is gone.
    public func value(in object: ManagedObject) throws -> Value? {
        try object.get(keyPath, as: Value.self)
    }

    /// The value of a required attribute in `object`.
    ///
    /// - Throws: ``MissingValueError`` when it holds nil (an object inserted without it and
    ///   without a default value); otherwise as ``value(in:)``.
    public func requiredValue(in object: ManagedObject) throws -> Value {
        guard let value = try value(in: object) else {
            throw MissingValueError(entity: object.entity.name, key: keyPath, objectID: object.objectID)
        }
        return value
    }

    /// Sets the attribute in `object`; nil clears it.
    ///
    /// - Throws: ``ObjectError`` when the object has no such attribute, the value does not fit
    ///   it, or its context is gone.
    public func set(_ value: Value?, in object: ManagedObject) throws {
        try object.set(keyPath, value)
    }
}

/// A key for predicates over the members of a to-many relationship of `Root`: a member's value
/// quantified with `ANY`, `ALL` or `NONE`, or an aggregate (`@count`, `@sum`, `@avg`, `@min`,
/// `@max`). Made by ``ToManyKey``; it compares like any ``TypedPredicateKey``.
///
/// ```swift
/// let fruit = try Item.fetch(in: context, where: Item.Keys.tags.any(Tag.Keys.name) == "fruit")
/// let tagged = try Item.fetch(in: context, where: Item.Keys.tags.count >= 2)
/// ```
public struct CollectionValueKey<Root, Value>: TypedPredicateKey {
    /// The untyped key (its expression and quantifier).
    public let predicateKey: PredicateKey

    /// The key for `predicateKey`, whose values are of type `Value`.
    public init(_ predicateKey: PredicateKey) {
        self.predicateKey = predicateKey
    }
}
