// An object in a context: compact per-slot storage of attribute values and relationships,
// faulting, change flags, typed access.
// Invariants: an object belongs to exactly one context and never leaves it (it is not Sendable);
// while `isFault`, `values` is empty and relationships are unloaded; `values.count` equals the
// entity's attribute count once loaded; `snapshot` holds the last saved state while changed.
import Foundation

/// A managed object: one row of an entity, living in one ``ObjectContext``.
///
/// ```swift
/// let item = try context.insert("Item")
/// try item.set("name", "Apples")
/// try item.set("price", 2.49)
/// try item.setRelated("unit", to: kilogram)
/// let name: String? = try item.get("name")
/// ```
public final class ManagedObject {
    /// The object's entity (its concrete sub-entity for inherited objects).
    public let entity: ModelEntity
    /// The object's identity; temporary until its first save.
    public internal(set) var objectID: ObjectID
    /// The context the object lives in; nil after the context is reset or released.
    public internal(set) weak var context: ObjectContext?

    /// Whether the object's attributes have not been loaded yet.
    public internal(set) var isFault: Bool
    /// Whether the object was inserted and not yet saved.
    public internal(set) var isInserted = false
    /// Whether the object was changed since the last save (inserted objects excluded).
    public internal(set) var isUpdated = false
    /// Whether the object was deleted and the deletion not yet saved.
    public internal(set) var isDeleted = false
    /// Whether a to-many relationship changed since the last save without a change to the row.
    var isTouched = false

    /// The row version (`opt`) last read from or written to the store.
    var rowVersion: Int64 = 0
    /// Attribute values by slot (empty while a fault).
    var values: [AttributeValue?] = []
    /// To-one destinations by relationship slot (nil slots for to-many relationships).
    var toOne: [ManagedObject?] = []
    /// Whether each to-one slot has been loaded.
    var toOneLoaded: [Bool] = []
    /// To-many states by relationship slot (created on first use).
    var toMany: [ToManyState?] = []
    /// The saved values and to-ones, kept from the first change until save or rollback.
    var snapshot: (values: [AttributeValue?], toOne: [ManagedObject?])?
    /// Relationship slots of ordered to-many relationships whose order changed since the last save.
    var reorderedRelationships: Set<Int> = []
    /// Fetched properties already evaluated, by name (until the object is refreshed).
    var fetchedValues: [String: [ManagedObject]] = [:]

    init(entity: ModelEntity, objectID: ObjectID, context: ObjectContext, isFault: Bool) {
        self.entity = entity
        self.objectID = objectID
        self.context = context
        self.isFault = isFault
        let relationshipCount = entity.relationships.count
        toOne = Array(repeating: nil, count: relationshipCount)
        toOneLoaded = Array(repeating: false, count: relationshipCount)
        toMany = Array(repeating: nil, count: relationshipCount)
    }

    /// Whether the object has unsaved changes: inserted, updated, deleted, or a to-many
    /// relationship changed.
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted || isTouched }

    func liveContext(key: String? = nil) throws -> ObjectContext {
        guard let context else { throw ObjectError(.detached, entity: entity.name, key: key, objectID: objectID) }
        return context
    }

    // MARK: - Attributes by slot (hot path)

    /// The value of the attribute in slot `index` (see ``ModelAttribute/index``), loading the object if needed.
    public func value(at index: Int) throws -> AttributeValue? {
        if isFault { try liveContext().fire(self) }
        guard index >= 0, index < values.count else {
            throw ObjectError(.unknownKey, entity: entity.name, key: "#\(index)", objectID: objectID)
        }
        return values[index]
    }

    /// Sets the attribute in slot `index`, checking the value against the attribute's type.
    public func setValue(_ value: AttributeValue?, at index: Int) throws {
        guard index >= 0, index < entity.attributes.count else {
            throw ObjectError(.unknownKey, entity: entity.name, key: "#\(index)", objectID: objectID)
        }
        let attribute = entity.attributes[index]
        let checked = try Self.checked(value, for: attribute, entity: entity)
        let context = try liveContext(key: attribute.name)
        if isFault { try context.fire(self) }
        if values[index] == checked { return }
        context.willChange(self)
        values[index] = checked
    }

    /// `value` if it fits `attribute` (Float values are rounded to Float precision).
    static func checked(_ value: AttributeValue?, for attribute: ModelAttribute, entity: ModelEntity) throws
        -> AttributeValue?
    {
        guard let value else { return nil }
        guard value.matches(attribute.type) else {
            throw ObjectError(
                .typeMismatch(expected: attribute.type.rawValue, got: "\(value.kindName) \"\(value)\""),
                entity: entity.name, key: attribute.name)
        }
        switch (value, attribute.type) {
        case (.integer(let integer), let type):
            if let range = type.integerRange, !range.contains(integer) {
                throw ObjectError(
                    .outOfRange("\(integer) for \(type.rawValue)"), entity: entity.name, key: attribute.name)
            }
        case (.double(let double), .float):
            return .double(Double(Float(double)))
        default:
            break
        }
        return value
    }

    // MARK: - Attributes by key

    /// The attribute's value by name.
    ///
    /// ```swift
    /// let price = try item["price"]   // AttributeValue?
    /// ```
    public subscript(key: String) -> AttributeValue? {
        get throws {
            try value(at: attributeIndex(key))
        }
    }

    /// Sets an attribute by name.
    public func setValue(_ value: AttributeValue?, forKey key: String) throws {
        try setValue(value, at: attributeIndex(key))
    }

    /// The attribute's value as a Swift type; throws when the stored value is of another type.
    public func get<T: AttributeConvertible>(_ key: String, as type: T.Type = T.self) throws -> T? {
        guard let value = try self[key] else { return nil }
        guard let typed = T(attributeValue: value) else {
            throw ObjectError(
                .typeMismatch(expected: "\(T.self)", got: "\(value.kindName) \"\(value)\""), entity: entity.name,
                key: key)
        }
        return typed
    }

    /// Sets an attribute from a Swift value (nil clears it); throws when the type does not fit.
    public func set<T: AttributeConvertible>(_ key: String, _ value: T?) throws {
        try setValue(value?.attributeValue, forKey: key)
    }

    /// The transformable attribute's value, decoded by its registered codec.
    public func transformable(_ key: String) throws -> (any Sendable)? {
        let index = try attributeIndex(key)
        guard case .binary(let data)? = try value(at: index) else { return nil }
        return try codec(for: entity.attributes[index]).decode(data)
    }

    /// Sets a transformable attribute, encoding `value` with its registered codec.
    public func setTransformable(_ key: String, _ value: (any Sendable)?) throws {
        let index = try attributeIndex(key)
        let encoded = try value.map { try codec(for: entity.attributes[index]).encode($0) }
        try setValue(encoded.map(AttributeValue.binary), at: index)
    }

    private func codec(for attribute: ModelAttribute) throws -> any TransformableCodec {
        guard attribute.type == .transformable else {
            throw ObjectError(
                .typeMismatch(expected: "transformable", got: attribute.type.rawValue), entity: entity.name,
                key: attribute.name)
        }
        guard let codec = TransformableCodecs.shared.codec(named: attribute.declaration.valueTransformerName) else {
            throw ObjectError(
                .typeMismatch(
                    expected: "a registered codec '\(attribute.declaration.valueTransformerName ?? "")'", got: "none"),
                entity: entity.name, key: attribute.name)
        }
        return codec
    }

    func attributeIndex(_ key: String) throws -> Int {
        guard let attribute = entity.attribute(named: key) else {
            throw ObjectError(.unknownKey, entity: entity.name, key: key, objectID: objectID)
        }
        return attribute.index
    }

    func relationshipIndex(_ key: String) throws -> Int {
        guard let relationship = entity.relationship(named: key) else {
            throw ObjectError(.unknownKey, entity: entity.name, key: key, objectID: objectID)
        }
        return relationship.index
    }

    /// Lets go of everything when the context forgets the object for good: no fresh arrays are
    /// made (unlike ``clearStorage()``), and to-many states are emptied to break reference cycles.
    func detach() {
        for state in toMany { state?.clear() }
        values = []
        toOne = []
        toOneLoaded = []
        toMany = []
        snapshot = nil
        fetchedValues = [:]
        context = nil
        isFault = true  // any later access finds no context and reports it
    }

    /// Drops every value and reference (breaks cycles when a context lets go of its objects).
    func clearStorage() {
        values = []
        toOne = Array(repeating: nil, count: toOne.count)
        toOneLoaded = Array(repeating: false, count: toOneLoaded.count)
        for state in toMany { state?.clear() }
        toMany = Array(repeating: nil, count: toMany.count)
        snapshot = nil
        reorderedRelationships = []
        fetchedValues = [:]
    }
}

extension ManagedObject: CustomStringConvertible {
    /// `Item <x-seedkit://…>` plus `(fault)` or the attribute values.
    public var description: String {
        if isFault { return "\(entity.name) <\(objectID)> (fault)" }
        let pairs = entity.attributes.map { attribute in
            "\(attribute.name)=\(values.indices.contains(attribute.index) ? values[attribute.index].map { "\($0)" } ?? "nil" : "?")"
        }
        return "\(entity.name) <\(objectID)> {" + pairs.joined(separator: ", ") + "}"
    }
}
