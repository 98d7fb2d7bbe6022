// How one relationship gets its destinations: by reference to destination keys, or nested
// records imported as destination objects.

/// What a reference to a destination that does not exist does.
public enum MissingPolicy: String, Sendable, Hashable, CaseIterable {
    /// Insert a destination holding just its key.
    case create
    /// Make the record an error (decided after the deferred pass, so forward references work).
    case reject
    /// Leave the relationship unset.
    case ignore
}

/// How a to-many relationship of an existing object is updated.
public enum MembersPolicy: String, Sendable, Hashable, CaseIterable {
    /// Add the source's members to the existing ones.
    case add
    /// Make the relationship exactly the source's members.
    case replace
}

/// The source of one relationship's destinations.
///
/// In a plan file: `unit: {field: unit, match: name, missing: create}`,
/// `tags: {field: tags, split: ";", match: name}`, or
/// `location: {field: location, nested: {entity: Location, key: [aisle], attributes: {...}}}`.
public struct RelationshipMapping: Sendable, Hashable {
    /// The field holding the destination key(s) or the nested record(s); nil reads the
    /// conventional fields (the relationship's `mappedKeyName`, else its name: ``PlanConventions``).
    public var field: String?
    /// The destination attribute(s) the field's values match (by reference).
    public var match: [String]?
    /// What a reference to a missing destination does.
    public var missing: MissingPolicy
    /// For text fields holding several keys: the separator.
    public var split: String?
    /// For text fields listing keys each between a prefix and a suffix (`<a><b>`): the pattern,
    /// `PREFIX*SUFFIX` (`<*>`), `*` standing for each key.
    public var splitPattern: String?
    /// Texts that mean "no destination" (e.g. `["NULL", ""]`): a field, or a split part,
    /// holding one is no reference, as an absent or empty field is.
    public var nullTokens: [String]?
    /// For to-many relationships of existing objects: add to or replace the members.
    public var members: MembersPolicy
    /// Nested records imported as destination objects.
    public var nested: NestedMapping?

    /// A by-reference mapping from `field` (nil: the conventional field) matching `match`.
    public init(
        field: String? = nil, match: [String]? = nil, missing: MissingPolicy = .create, split: String? = nil,
        members: MembersPolicy = .add, nested: NestedMapping? = nil
    ) {
        self.field = field
        self.match = match
        self.missing = missing
        self.split = split
        self.members = members
        self.nested = nested
    }
}

/// A nested mapping: records inside a field imported as objects of another entity, recursively.
public final class NestedMapping: Sendable, Hashable {
    /// The mapping of the nested records.
    public let mapping: RecordMapping

    /// A nested mapping using `mapping`.
    public init(_ mapping: RecordMapping) {
        self.mapping = mapping
    }

    /// Nested mappings are equal when their record mappings are.
    public static func == (lhs: NestedMapping, rhs: NestedMapping) -> Bool {
        lhs.mapping == rhs.mapping
    }

    /// Hashes the record mapping.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mapping)
    }
}
