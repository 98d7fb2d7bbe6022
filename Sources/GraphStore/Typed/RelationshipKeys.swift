// Typed keys for relationships: the destination's Swift type travels with the name, so generated
// accessors hand out typed objects and predicates compare against typed objects or reach the
// destination's attributes (`Item.Keys.unit.appending(Unit.Keys.name) == "kg"`).

/// A to-one relationship of `Root` whose destination is a `Destination`.
///
/// ```swift
/// let inKilograms = try Item.fetch(in: context, where: Item.Keys.unit == kg)
/// let byUnitName = try Item.fetch(in: context, where: Item.Keys.unit.appending(Unit.Keys.name) == "kg")
/// ```
public struct ToOneKey<Root, Destination: EntityObject>: Sendable {
    /// The relationship's name, or a dotted key path through to-one relationships.
    public let keyPath: String

    /// The key for the to-one relationship (or dotted key path) `keyPath`.
    public init(_ keyPath: String) {
        self.keyPath = keyPath
    }

    /// The untyped key: `.key(keyPath)`.
    public var predicateKey: PredicateKey { PredicateKey(keyPath) }

    /// The key path from `Root` through this relationship to the destination's attribute `key`.
    public func appending<V>(_ key: AttributeKey<Destination, V>) -> AttributeKey<Root, V> {
        AttributeKey(keyPath + "." + key.keyPath)
    }

    /// The key path from `Root` through this relationship and the destination's to-one `key`.
    public func appending<Next>(_ key: ToOneKey<Destination, Next>) -> ToOneKey<Root, Next> {
        ToOneKey<Root, Next>(keyPath + "." + key.keyPath)
    }

    /// `relationship == object`: the destination is `object` (`== nil`: there is none).
    public static func == (lhs: Self, rhs: Destination?) -> FetchPredicate {
        lhs.predicateKey == rhs?.objectID
    }

    /// `relationship != object`.
    public static func != (lhs: Self, rhs: Destination?) -> FetchPredicate {
        lhs.predicateKey != rhs?.objectID
    }

    /// The destination in `object`, or nil.
    ///
    /// - Throws: ``ObjectError`` when `object` has no such to-one relationship or its context is gone.
    public func destination(in object: ManagedObject) throws -> Destination? {
        try object.related(keyPath).map(Destination.init(unchecked:))
    }

    /// The destination of a required to-one relationship in `object`.
    ///
    /// - Throws: ``MissingValueError`` when there is none; otherwise as ``destination(in:)``.
    public func requiredDestination(in object: ManagedObject) throws -> Destination {
        guard let destination = try destination(in: object) else {
            throw MissingValueError(entity: object.entity.name, key: keyPath, objectID: object.objectID)
        }
        return destination
    }

    /// Links `object` to `destination` (nil unlinks it); the inverse follows.
    public func set(_ destination: Destination?, in object: ManagedObject) throws {
        try object.setRelated(keyPath, to: destination?.object)
    }
}

/// A to-many relationship of `Root` whose members are `Destination`s (ordered or not).
///
/// ```swift
/// let fruit = try Item.fetch(in: context, where: Item.Keys.tags.any(Tag.Keys.name) == "fruit")
/// let onList = try Item.fetch(in: context, where: Item.Keys.lists.contains(weekly))
/// ```
public struct ToManyKey<Root, Destination: EntityObject>: Sendable {
    /// The relationship's name.
    public let keyPath: String

    /// The key for the to-many relationship `keyPath`.
    public init(_ keyPath: String) {
        self.keyPath = keyPath
    }

    /// `ANY relationship == object`: `object` is a member.
    public func contains(_ object: Destination) -> FetchPredicate {
        PredicateKey.any(keyPath) == object.objectID
    }

    /// `relationship.@count`: the number of members.
    public var count: CollectionValueKey<Root, Int> {
        CollectionValueKey(PredicateKey(keyPath).count)
    }

    /// `ANY relationship.key`: at least one member's value satisfies the comparison.
    public func any<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, V> {
        CollectionValueKey(.any(keyPath + "." + key.keyPath))
    }

    /// `ALL relationship.key`: every member's value satisfies the comparison (true for none).
    public func all<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, V> {
        CollectionValueKey(.all(keyPath + "." + key.keyPath))
    }

    /// `NONE relationship.key`: no member's value satisfies the comparison (true for none).
    public func none<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, V> {
        CollectionValueKey(.none(keyPath + "." + key.keyPath))
    }

    /// `relationship.@sum.key`: the sum of the members' values.
    public func sum<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, V> {
        CollectionValueKey(PredicateKey(keyPath).sum(key.keyPath))
    }

    /// `relationship.@avg.key`: the mean of the members' values, as a Double.
    public func average<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, Double> {
        CollectionValueKey(PredicateKey(keyPath).average(key.keyPath))
    }

    /// `relationship.@min.key`: the smallest of the members' values.
    public func minimum<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, V> {
        CollectionValueKey(PredicateKey(keyPath).minimum(key.keyPath))
    }

    /// `relationship.@max.key`: the largest of the members' values.
    public func maximum<V>(_ key: AttributeKey<Destination, V>) -> CollectionValueKey<Root, V> {
        CollectionValueKey(PredicateKey(keyPath).maximum(key.keyPath))
    }

    /// The members in `object` (in order when the relationship is ordered).
    ///
    /// - Throws: ``ObjectError`` when `object` has no such to-many relationship or its context is gone.
    public func members(in object: ManagedObject) throws -> [Destination] {
        try object.relatedObjects(keyPath).map(Destination.init(unchecked:))
    }

    /// Adds `member` (at the end of an ordered relationship); the inverse follows.
    public func add(_ member: Destination, in object: ManagedObject) throws {
        try object.add(member.object, to: keyPath)
    }

    /// Removes `member`; the inverse follows.
    public func remove(_ member: Destination, in object: ManagedObject) throws {
        try object.remove(member.object, from: keyPath)
    }

    /// Makes the relationship hold exactly `members` (in that order when it is ordered).
    public func set<Members: Sequence<Destination>>(_ members: Members, in object: ManagedObject) throws {
        try object.setRelatedObjects(keyPath, to: members.map(\.object))
    }

    /// Inserts `member` at `position` of an ordered relationship (moving it if it is a member).
    public func insert(_ member: Destination, at position: Int, in object: ManagedObject) throws {
        try object.insert(member.object, at: position, into: keyPath)
    }

    /// Moves the member at `source` to `destination` in an ordered relationship.
    public func move(from source: Int, to destination: Int, in object: ManagedObject) throws {
        try object.moveRelated(in: keyPath, from: source, to: destination)
    }
}
