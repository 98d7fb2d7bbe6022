// Typed objects: the protocol the types `seedkit generate` writes conform to (docs/CodeGeneration.md).
// A typed object is a thin value around one `ManagedObject`: it adds names and Swift types, never
// state, so two values around the same object are equal and it lives in the object's context.
// Invariant: `object.entity` is the type's entity or one of its sub-entities (checked by
// `init(_:)`; `init(unchecked:)` is for generated code, which knows it from the model).

/// A Swift type for one entity, wrapping a ``ManagedObject`` of that entity (or of a sub-entity).
///
/// `seedkit generate` writes one per entity; written by hand, a conformance needs the entity's
/// name, the object and an unchecked initializer:
///
/// ```swift
/// struct Unit: EntityObject {
///     static let entityName = "Unit"
///     let object: ManagedObject
///     init(unchecked object: ManagedObject) { self.object = object }
/// }
///
/// let kg = try Unit.insert(into: context)
/// let units = try Unit.fetch(in: context, sortedBy: [FetchSortDescriptor("name")])
/// ```
///
/// Like the object it wraps, a typed object belongs to its context's isolation domain: it is not
/// `Sendable`; pass ``objectID`` between contexts.
public protocol EntityObject: Hashable {
    /// The name of the entity in the model.
    static var entityName: String { get }
    /// The managed object this value gives typed access to.
    var object: ManagedObject { get }
    /// Wraps `object` without checking its entity (generated code knows it from the model).
    init(unchecked object: ManagedObject)
}

extension EntityObject {
    /// Wraps `object`, checking that it is of this type's entity or one of its sub-entities.
    ///
    /// - Throws: ``ObjectError`` (`.wrongDestination`) for an object of another entity, and
    ///   (`.detached`) for an object whose context is gone.
    public init(_ object: ManagedObject) throws {
        guard try Self.isKind(object) else {
            throw ObjectError(
                .wrongDestination(expected: Self.entityName, got: object.entity.name), entity: Self.entityName,
                objectID: object.objectID)
        }
        self.init(unchecked: object)
    }

    /// The object's identity, to pass to other contexts.
    public var objectID: ObjectID { object.objectID }

    /// The object as another entity's type — a sub-entity's or a parent's — or nil when it is
    /// not of that entity.
    ///
    /// ```swift
    /// if let home = location.as(LocationAtHome.self) { print(try home.storedIn ?? "") }
    /// ```
    public func `as`<Other: EntityObject>(_ type: Other.Type) -> Other? {
        guard (try? Other.isKind(object)) == true else { return nil }
        return Other(unchecked: object)
    }

    /// Inserts a new object of this entity into `context`, with the model's default values.
    ///
    /// - Throws: ``ObjectError`` for an abstract entity or a read-only store.
    public static func insert(into context: ObjectContext) throws -> Self {
        Self(unchecked: try context.insert(entityName))
    }

    /// Deletes the object from its context (the delete rules apply; saved at the next save).
    public func delete() throws {
        guard let context = object.context else {
            throw ObjectError(.detached, entity: object.entity.name, objectID: object.objectID)
        }
        try context.delete(object)
    }

    /// Typed objects are equal when they wrap the same managed object.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.object === rhs.object
    }

    /// Hashes the identity of the wrapped managed object.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
    }

    /// Whether `object`'s entity is this type's entity or one of its descendants.
    static func isKind(_ object: ManagedObject) throws -> Bool {
        guard let context = object.context else {
            throw ObjectError(.detached, entity: object.entity.name, objectID: object.objectID)
        }
        return object.entity.isKind(of: try context.entity(named: entityName))
    }
}
