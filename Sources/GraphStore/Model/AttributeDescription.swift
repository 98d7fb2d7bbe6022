// The declaration of one attribute of an entity, as written by a builder or read from a model file.
import Foundation

/// An attribute of an entity: its name, type and options.
///
/// ```swift
/// var quantity = AttributeDescription(name: "quantity", type: .integer32)
/// quantity.defaultValue = .integer(0)
/// quantity.validation.minimum = 0
/// ```
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, unique among the entity's properties (inherited ones included).
    public var name: String
    /// The type of the values it holds.
    public var type: AttributeType
    /// Whether the attribute may be nil when saved.
    public var isOptional: Bool
    /// The value a newly inserted object gets.
    public var defaultValue: AttributeValue?
    /// Whether the store keeps an index on the attribute.
    public var isIndexed: Bool
    /// Whether the attribute lives in memory only and is never stored.
    public var isTransient: Bool
    /// For binary attributes: whether large values may be kept in a file beside the store.
    public var allowsExternalStorage: Bool
    /// For transformable attributes: the name of the registered codec (default ``TransformableCodecs/defaultName``).
    public var valueTransformerName: String?
    /// Rules checked at save.
    public var validation: ValidationRules
    /// Free-form annotations (`mappedKeyName`, …); they never affect the store or the hash.
    public var userInfo: [String: String]
    /// The attribute's name in an earlier model version, when it was renamed (Xcode's Renaming ID);
    /// never part of a hash.
    public var renamingIdentifier: String?
    /// A string that changes the version hashes without changing the schema (Xcode's Version Hash
    /// Modifier); when nil, the hashes are what they were without one.
    public var hashModifier: String?
    /// Core Data's Preserve After Deletion (the value stays in persistent history's tombstones);
    /// part of Core Data's version hash only.
    public var preservesValueAfterDeletion = false
    /// Core Data's read-only flag; part of Core Data's version hash only.
    public var isReadOnly = false

    /// Declares an attribute; every option starts at its default (optional, no default value,
    /// not indexed, not transient).
    public init(
        name: String, type: AttributeType, isOptional: Bool = true,
        defaultValue: AttributeValue? = nil, isIndexed: Bool = false, isTransient: Bool = false,
        allowsExternalStorage: Bool = false, valueTransformerName: String? = nil,
        validation: ValidationRules = ValidationRules(), userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isTransient = isTransient
        self.allowsExternalStorage = allowsExternalStorage
        self.valueTransformerName = valueTransformerName
        self.validation = validation
        self.userInfo = userInfo
    }
}
