// A fetched property: a named, stored fetch evaluated per object (Core Data's fetched
// properties). Kept as data like templates; it never shapes the store, so it is not in any hash.

/// A declared fetched property: the objects of `entity` matching `predicateFormat`, in which
/// `$FETCH_SOURCE` is the object the property is read on.
///
/// ```swift
/// ModelBuilder("Org").entity("Person") { person in
///     person.fetchedProperty("olderColleagues", "Person",
///                            predicate: "organization == $FETCH_SOURCE.organization AND age > $FETCH_SOURCE.age")
/// }
/// ```
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name, unique among the entity's properties.
    public var name: String
    /// The entity whose objects it fetches.
    public var entity: String
    /// The predicate in format-string syntax.
    public var predicateFormat: String

    /// A fetched property called `name` of `entity` objects matching `predicateFormat`.
    public init(name: String, entity: String, predicateFormat: String) {
        self.name = name
        self.entity = entity
        self.predicateFormat = predicateFormat
    }
}
