// The JSON/YAML model file: the Codable schema documented in docs/ModelFiles.md. A store also
// embeds its model in this form (as sorted-key JSON) in its metadata.
// Invariant: `ModelFile(model).objectModel()` gives a model with the same version hash.
import Foundation

/// A model as written in a JSON or YAML model file.
///
/// ```yaml
/// name: Catalog
/// entities:
///   Item:
///     attributes:
///       sku: {type: string, optional: false}
///       price: {type: double, default: 0, min: 0}
///       notes: string
///     relationships:
///       unit: {destination: Unit, inverse: items}
///     unique: [[sku]]
/// ```
public struct ModelFile: Codable, Sendable, Hashable {
    /// The model's name.
    public var name: String
    /// The entities by name.
    public var entities: [String: EntityEntry]
    /// Stored fetch-request templates by name.
    public var fetchRequests: [String: FetchRequestEntry]?

    /// An entity entry.
    public struct EntityEntry: Codable, Sendable, Hashable {
        /// The parent entity's name.
        public var parent: String?
        /// Whether the entity is abstract.
        public var abstract: Bool?
        /// Attributes by name.
        public var attributes: [String: AttributeEntry]?
        /// Relationships by name.
        public var relationships: [String: RelationshipEntry]?
        /// Unique constraints, each a list of attribute names.
        public var unique: [[String]]?
        /// Indexes by name, each a list of properties (`"name"` or `"name desc"`).
        public var indexes: [String: [String]]?
        /// Annotations.
        public var userInfo: [String: String]?
        /// Fetched properties by name: the entity fetched and a predicate using `$FETCH_SOURCE`.
        public var fetched: [String: FetchRequestEntry]?
        /// The entity's name in an earlier model version (a renaming identifier).
        public var renamedFrom: String?
        /// A version hash modifier.
        public var hashModifier: String?
    }

    /// An attribute entry: a bare type name (`string`) or an object with options.
    public struct AttributeEntry: Codable, Sendable, Hashable {
        /// The attribute's type.
        public var type: AttributeType
        /// Whether it may be nil (default true).
        public var optional: Bool?
        /// The default value, as JSON: a number, string (decimal, date, base64, UUID, URI) or Boolean.
        public var `default`: ModelFileScalar?
        /// Whether it is indexed.
        public var indexed: Bool?
        /// Whether it is transient.
        public var transient: Bool?
        /// For binary: whether external storage is allowed.
        public var externalStorage: Bool?
        /// For transformable: the codec name.
        public var transformer: String?
        /// Numeric minimum.
        public var min: Double?
        /// Numeric maximum.
        public var max: Double?
        /// Minimum string/binary length.
        public var minLength: Int?
        /// Maximum string/binary length.
        public var maxLength: Int?
        /// Regular expression for strings.
        public var pattern: String?
        /// Earliest date (ISO 8601).
        public var earliest: String?
        /// Latest date (ISO 8601).
        public var latest: String?
        /// Annotations.
        public var userInfo: [String: String]?
        /// The attribute's name in an earlier model version (a renaming identifier).
        public var renamedFrom: String?
        /// A version hash modifier.
        public var hashModifier: String?
        /// Core Data's Preserve After Deletion (default false).
        public var preserveAfterDeletion: Bool?
        /// Core Data's read-only flag (default false).
        public var readOnly: Bool?

        /// Reads a bare type name or an options object.
        public init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let typeName = try? single.decode(String.self) {
                guard let type = AttributeType(rawValue: typeName) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "unknown attribute type '\(typeName)'"))
                }
                self.init(type: type)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(type: try container.decode(AttributeType.self, forKey: .type))
            optional = try container.decodeIfPresent(Bool.self, forKey: .optional)
            self.default = try container.decodeIfPresent(ModelFileScalar.self, forKey: .default)
            indexed = try container.decodeIfPresent(Bool.self, forKey: .indexed)
            transient = try container.decodeIfPresent(Bool.self, forKey: .transient)
            externalStorage = try container.decodeIfPresent(Bool.self, forKey: .externalStorage)
            transformer = try container.decodeIfPresent(String.self, forKey: .transformer)
            min = try container.decodeIfPresent(Double.self, forKey: .min)
            max = try container.decodeIfPresent(Double.self, forKey: .max)
            minLength = try container.decodeIfPresent(Int.self, forKey: .minLength)
            maxLength = try container.decodeIfPresent(Int.self, forKey: .maxLength)
            pattern = try container.decodeIfPresent(String.self, forKey: .pattern)
            earliest = try container.decodeIfPresent(String.self, forKey: .earliest)
            latest = try container.decodeIfPresent(String.self, forKey: .latest)
            userInfo = try container.decodeIfPresent([String: String].self, forKey: .userInfo)
            renamedFrom = try container.decodeIfPresent(String.self, forKey: .renamedFrom)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            preserveAfterDeletion = try container.decodeIfPresent(Bool.self, forKey: .preserveAfterDeletion)
            readOnly = try container.decodeIfPresent(Bool.self, forKey: .readOnly)
        }

        /// An entry of `type` with no options.
        public init(type: AttributeType) {
            self.type = type
        }
    }

    /// A relationship entry.
    public struct RelationshipEntry: Codable, Sendable, Hashable {
        /// The destination entity.
        public var destination: String
        /// The inverse relationship on the destination.
        public var inverse: String?
        /// Whether it is to-many (default false).
        public var toMany: Bool?
        /// Whether a to-many is ordered (default false).
        public var ordered: Bool?
        /// Whether it may be empty (default true).
        public var optional: Bool?
        /// Minimum count of a to-many (on a to-one: only what Core Data's version hash covers).
        public var min: Int?
        /// Maximum count of a to-many (0 = none).
        public var max: Int?
        /// The delete rule (default nullify).
        public var deleteRule: DeleteRule?
        /// Whether it is transient.
        public var transient: Bool?
        /// Annotations.
        public var userInfo: [String: String]?
        /// The relationship's name in an earlier model version (a renaming identifier).
        public var renamedFrom: String?
        /// A version hash modifier.
        public var hashModifier: String?
        /// Core Data's read-only flag (default false).
        public var readOnly: Bool?
    }

    /// A fetch-request template entry.
    public struct FetchRequestEntry: Codable, Sendable, Hashable {
        /// The entity fetched.
        public var entity: String
        /// The predicate format, with `$VARIABLES`.
        public var predicate: String
    }
}

/// A scalar JSON value in a model file: a default value before its attribute's type interprets it.
public enum ModelFileScalar: Codable, Sendable, Hashable {
    /// A Boolean.
    case bool(Bool)
    /// A whole number.
    case integer(Int64)
    /// A number with a fraction.
    case number(Double)
    /// A string.
    case string(String)

    /// Reads a Boolean, number or string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Writes the scalar as itself.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}
