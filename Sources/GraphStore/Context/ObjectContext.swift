// A context: the scratchpad where objects are inserted, fetched, changed and deleted, then saved
// to the store in one transaction — or, for a child context, into its parent context.
// Invariants: one object per row per context (uniquing through `registered`); the context and its
// objects are not Sendable — they stay in the isolation domain that owns the context
// (`BackgroundContext`'s executor or the main actor); only `ObjectID`s and values cross, between
// contexts and between a child and its parent alike.
import Foundation

/// A working context over a ``PersistentStore``.
///
/// Use it inside ``BackgroundContext/perform(_:)`` or on the main actor through
/// ``PersistentContainer/viewContext``:
///
/// ```swift
/// try await background.perform { context in
///     let unit = try context.insert("Unit")
///     try unit.set("name", "kg")
///     try context.save()
/// }
/// ```
public final class ObjectContext {
    /// The store this context reads and writes.
    public let store: PersistentStore
    /// The model of the store.
    public var model: ObjectModel { store.model }
    /// How conflicts at save are resolved.
    public var mergePolicy: MergePolicy = .error
    /// A name for diagnostics.
    public var name: String?

    let connection: SQLiteConnection
    /// The store's layout: every table, column and entity number the context's SQL names.
    let layout: StoreLayout
    var registered: [ObjectID: ManagedObject] = [:]
    var insertedList: [ManagedObject] = []
    var updatedList: [ManagedObject] = []
    var deletedList: [ManagedObject] = []
    /// Objects whose to-many relationships changed without a change to their own row.
    var touchedList: [ManagedObject] = []
    var joinChanges: [String: JoinTableChanges] = [:]
    /// Temporary IDs of objects saved since the last reset, so old IDs still resolve.
    var permanentIDs: [ObjectID: ObjectID] = [:]
    /// Whether this context saves into a parent context, and what it shares with its family.
    var nesting: ContextNesting

    /// A context with its own connection to `store`.
    public convenience init(store: PersistentStore) throws {
        try self.init(store: store, nesting: ContextNesting())
    }

    /// A context over `store` with its own connection, placed by `nesting` (a root context or a child).
    init(store: PersistentStore, nesting: ContextNesting) throws {
        self.store = store
        self.connection = try store.makeConnection()
        try SQLFunctions.register(on: connection)
        self.layout = store.layout
        self.nesting = nesting
    }

    deinit {
        for object in registered.values {
            object.detach()
        }
    }

    // MARK: - Change state

    /// Whether anything was inserted, updated or deleted since the last save.
    public var hasChanges: Bool {
        insertedList.contains { $0.isInserted } || updatedList.contains { $0.isUpdated }
            || deletedList.contains { $0.isDeleted } || joinChanges.values.contains { !$0.isEmpty }
            || touchedList.contains { !$0.reorderedRelationships.isEmpty }
    }

    /// Objects inserted and not yet saved.
    public var insertedObjects: [ManagedObject] { insertedList.filter(\.isInserted) }
    /// Objects changed and not yet saved.
    public var updatedObjects: [ManagedObject] { updatedList.filter(\.isUpdated) }
    /// Objects deleted and not yet saved.
    public var deletedObjects: [ManagedObject] { deletedList.filter(\.isDeleted) }
    /// Every object the context holds.
    public var registeredObjects: [ManagedObject] { Array(registered.values) }

    // MARK: - Inserting and resolving

    /// Inserts a new object of `entityName`, with the attributes' default values.
    public func insert(_ entityName: String) throws -> ManagedObject {
        try insert(entity(named: entityName))
    }

    /// Inserts a new object of `entity`, with the attributes' default values.
    public func insert(_ entity: ModelEntity) throws -> ManagedObject {
        guard !entity.isAbstract else { throw ObjectError(.abstractEntity, entity: entity.name) }
        guard !store.isReadOnly else { throw ObjectError(.readOnly, entity: entity.name) }
        return insertObject(
            of: entity, id: ObjectID.temporary(storeUUID: store.identifier, entityID: layout.number(of: entity)))
    }

    /// Registers a new inserted object of `entity` under the temporary ID `id`, with the
    /// attributes' default values.
    func insertObject(of entity: ModelEntity, id: ObjectID) -> ManagedObject {
        let object = ManagedObject(entity: entity, objectID: id, context: self, isFault: false)
        object.values = entity.attributes.map(\.declaration.defaultValue)
        object.toOneLoaded = Array(repeating: true, count: entity.relationships.count)
        for relationship in entity.relationships where relationship.isToMany {
            object.toMany[relationship.index] = ToManyState(loaded: [])
        }
        object.isInserted = true
        registered[id] = object
        insertedList.append(object)
        return object
    }

    /// The entity called `name`, or an error naming it.
    public func entity(named name: String) throws -> ModelEntity {
        guard let entity = model.entity(named: name) else { throw ObjectError(.unknownKey, entity: name) }
        return entity
    }

    /// The object for `id`: the registered one, or a fault that loads when first used
    /// (it is not checked against the store; see ``existingObject(with:)``).
    ///
    /// In a child context, `id` may also be a temporary ID of an object its parent (or an
    /// ancestor) holds unsaved; an object saved since then is found by its old temporary ID too.
    public func object(with id: ObjectID) throws -> ManagedObject {
        if hasParent { adoptPermanentIDs() }
        let id = permanentIDs[id] ?? id
        if let object = registered[id] { return object }
        guard id.storeUUID == store.identifier, !id.isTemporary || hasParent,
            let entity = layout.entity(number: id.entityID)
        else {
            throw ObjectError(.foreignID, entity: layout.entity(number: id.entityID)?.name ?? "?", objectID: id)
        }
        return registeredObject(entity: entity, key: id.key)
    }

    /// The object for `id`, loaded from the store; throws when no such object exists.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = try object(with: id)
        if object.isFault { try fire(object) }
        if object.isDeleted { throw ObjectError(.notFound, entity: object.entity.name, objectID: id) }
        return object
    }

    /// The registered object for a row, or a new fault for it.
    func registeredObject(entity: ModelEntity, key: Int64) -> ManagedObject {
        let id = ObjectID(storeUUID: store.identifier, entityID: layout.number(of: entity), key: key)
        if let object = registered[id] { return object }
        let object = ManagedObject(entity: entity, objectID: id, context: self, isFault: true)
        registered[id] = object
        return object
    }

    // MARK: - Changing

    /// Records that `object` is about to change: keeps its saved state and marks it updated.
    func willChange(_ object: ManagedObject) {
        guard !object.isInserted else { return }
        if object.snapshot == nil {
            object.snapshot = (object.values, object.toOne)
        }
        if !object.isUpdated {
            object.isUpdated = true
            updatedList.append(object)
        }
    }

    /// Records that a to-many relationship of `object` changed (its own row did not).
    func touch(_ object: ManagedObject) {
        guard !object.isInserted, !object.isTouched else { return }
        object.isTouched = true
        touchedList.append(object)
    }

    /// Deletes `object`, applying its relationships' delete rules (cascade deletes the
    /// destinations, nullify unlinks them, deny is checked at save, no action leaves them).
    public func delete(_ object: ManagedObject) throws {
        guard object.context === self else {
            throw ObjectError(.otherContext, entity: object.entity.name, objectID: object.objectID)
        }
        guard !object.isDeleted else { return }
        if object.isFault { try fire(object) }
        object.isDeleted = true
        deletedList.append(object)
        for relationship in object.entity.relationships {
            switch relationship.deleteRule {
            case .cascade:
                for destination in try destinations(of: object, relationship) where !destination.isDeleted {
                    try delete(destination)
                }
                try unlinkInverses(of: object, relationship)
            case .nullify:
                try unlinkInverses(of: object, relationship)
            case .deny, .noAction:
                break
            }
        }
    }

    /// Every destination of `relationship` from `object` (loading as needed).
    func destinations(of object: ManagedObject, _ relationship: ModelRelationship) throws -> [ManagedObject] {
        if relationship.isToMany {
            return try toManyState(of: object, relationship, load: true).members
        }
        return try toOneValue(of: object, relationship).map { [$0] } ?? []
    }

    // MARK: - Undoing and forgetting

    /// Discards every unsaved change: inserted objects are dropped, changed and deleted objects
    /// return to their saved state.
    public func rollback() {
        for object in insertedList where object.isInserted {
            unregister(object)
        }
        // Both ends of every changed relationship are updated or touched, so faulting those
        // objects also discards every in-memory relationship change.
        for object in updatedList + deletedList + touchedList where object.context === self {
            turnIntoFault(object)
        }
        clearChangeLists()
    }

    /// Forgets every object: all registered objects are released (and detached), and unsaved
    /// changes are discarded. Memory held by the context is freed.
    public func reset() {
        for object in registered.values {
            object.detach()
        }
        registered = [:]
        permanentIDs = [:]
        clearChangeLists()
    }

    /// Refreshes `object` from the store, like Core Data's `refresh(_:mergeChanges:)`.
    ///
    /// - Without `mergeChanges`, the object becomes a fault again and every unsaved change of its
    ///   own is discarded: attribute and to-one changes, to-many changes (pending members, new
    ///   order, join-table pairs) and a pending deletion. Its next use reads the stored row. The
    ///   other ends of discarded relationship changes are not refreshed: refresh them too, or
    ///   use ``rollback()``, to drop both sides.
    /// - With `mergeChanges`, an object without changes becomes a fault; a changed object reloads
    ///   its stored values (and row version) and keeps its unsaved attribute, to-one and to-many
    ///   changes on top of them.
    ///
    /// Inserted objects have nothing stored and are left as they are.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        guard object.context === self, !object.isInserted else { return }
        object.fetchedValues = [:]
        guard mergeChanges, object.hasChanges else {
            discardChanges(of: object)
            turnIntoFault(object)
            return
        }
        guard !object.isFault else { return }  // only to-many changes are pending: nothing to reload
        guard let saved = object.snapshot else {
            // Deleted or with to-many changes only: the row reloads, the to-many changes stay.
            object.isFault = true
            try fire(object)
            return
        }
        let pending = object.values.indices.filter { object.values[$0] != saved.values[$0] }.map {
            ($0, object.values[$0])
        }
        let toOnes = object.toOne
        let toOneChanged = object.toOne.indices.filter { object.toOne[$0] !== saved.toOne[$0] }
        object.isFault = true
        try fire(object)
        object.snapshot = (object.values, object.toOne)
        for (index, value) in pending { object.values[index] = value }
        for index in toOneChanged { object.toOne[index] = toOnes[index] }
    }

    /// Forgets every pending change of `object` itself: its change flags, its places in the
    /// change lists and the join-table pairs it is an end of. Its storage is left to the caller.
    func discardChanges(of object: ManagedObject) {
        guard object.hasChanges else { return }
        if !joinChanges.isEmpty {
            for table in Array(joinChanges.keys) {
                joinChanges[table]?.removePairs(involving: object)
            }
        }
        if object.isUpdated { updatedList.removeAll { $0 === object } }
        if object.isDeleted { deletedList.removeAll { $0 === object } }
        if object.isTouched { touchedList.removeAll { $0 === object } }
        object.isUpdated = false
        object.isDeleted = false
        object.isTouched = false
        object.snapshot = nil
        object.reorderedRelationships = []
    }

    func turnIntoFault(_ object: ManagedObject) {
        object.isFault = true
        object.isUpdated = false
        object.isDeleted = false
        object.clearStorage()
    }

    func unregister(_ object: ManagedObject) {
        registered.removeValue(forKey: object.objectID)
        object.detach()
        object.isInserted = false
    }

    func clearChangeLists() {
        for object in insertedList { object.isInserted = false }
        for object in updatedList { object.isUpdated = false; object.snapshot = nil }
        for object in deletedList { object.isDeleted = false }
        for object in touchedList { object.isTouched = false }
        insertedList = []
        updatedList = []
        deletedList = []
        touchedList = []
        joinChanges = [:]
    }
}
