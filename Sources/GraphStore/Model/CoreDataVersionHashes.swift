// Core Data's version hashes of a model: what `NSEntityDescription.versionHash` gives for each
// entity, and the store metadata's `NSStoreModelVersionHashesDigest` and
// `NSStoreModelVersionChecksumKey` over them. A Core Data store opens with a model only when every
// entity hash equals the one in its metadata (docs/CoreDataHashes.md has the algorithm).
// Invariants: integers are little-endian, strings UTF-8 without a terminator; only declaration
// facts Core Data hashes go in (names, flags, attribute types, external storage, preserve after
// deletion, destinations, inverses, counts, order, parents, abstractness, hash modifiers, the
// entity's own uniqueness constraints) — never delete rules, defaults, indexes, renaming
// identifiers, class or transformer names, userInfo or fetched properties.
import Crypto
import Foundation

/// Core Data's version hashes of an ``ObjectModel``.
///
/// ```swift
/// let hashes = model.coreDataVersionHashes
/// hashes.entityHashes["Car"]?.base64EncodedString()   // NSStoreModelVersionHashes["Car"]
/// hashes.digest                                       // NSStoreModelVersionHashesDigest
/// hashes.checksum                                     // NSStoreModelVersionChecksumKey
/// ```
public struct CoreDataVersionHashes: Sendable, Hashable {
    /// Each entity's 32-byte version hash, by entity name (abstract entities included).
    public let entityHashes: [String: Data]

    /// The base64 SHA-512 over each entity's UTF-8 name and hash, in ascending name order:
    /// the metadata's `NSStoreModelVersionHashesDigest` (Core Data 1044 and later).
    public var digest: String {
        var hasher = SHA512()
        for (name, hash) in sortedHashes {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: hash)
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// The base64 SHA-256 over the entity hashes in ascending name order: the metadata's
    /// `NSStoreModelVersionChecksumKey` (Core Data 1344 and later).
    public var checksum: String {
        var hasher = SHA256()
        for (_, hash) in sortedHashes { hasher.update(data: hash) }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// Hashes as a store's metadata holds them (`NSStoreModelVersionHashes`), to compute the
    /// digest and checksum it should hold.
    public init(entityHashes: [String: Data]) {
        self.entityHashes = entityHashes
    }

    /// The hashes of `model`'s entities.
    public init(_ model: ObjectModel) {
        var hashes: [Int: Data] = [:]
        func hash(of entity: ModelEntity) -> Data {
            if let known = hashes[entity.index] { return known }
            let parent = entity.parentIndex.map { hash(of: model.entities[$0]) }
            let computed = CoreDataHashInput.entity(entity, parentHash: parent)
            hashes[entity.index] = computed
            return computed
        }
        entityHashes = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, hash(of: $0)) })
    }

    /// The hashes with a name each, names in ascending UTF-8 byte order.
    private var sortedHashes: [(String, Data)] {
        entityHashes.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
    }
}

extension ObjectModel {
    /// Core Data's version hashes of the model (see ``CoreDataVersionHashes``).
    public var coreDataVersionHashes: CoreDataVersionHashes { CoreDataVersionHashes(self) }
}

/// The byte strings Core Data hashes, one function per kind of declaration.
private enum CoreDataHashInput {
    /// An entity: name, abstractness, the parent's hash, the hashes of every stored property
    /// (inherited ones too) by name, the hash modifier, and its own uniqueness constraints.
    static func entity(_ entity: ModelEntity, parentHash: Data?) -> Data {
        let declaration = entity.declaration
        var bytes = Bytes()
        bytes.append(entity.name)
        bytes.append(UInt8(entity.isAbstract ? 1 : 0))
        if let parentHash { bytes.append(parentHash) }
        var properties: [(name: String, hash: Data)] = []
        for attribute in entity.attributes where !attribute.declaration.isTransient {
            properties.append((attribute.name, Self.attribute(attribute.declaration)))
        }
        for relationship in entity.relationships where !relationship.declaration.isTransient {
            let inverseIsItself =
                relationship.declaration.inverse == relationship.name
                && relationship.declaration.destination == entity.name
            properties.append((relationship.name, Self.relationship(relationship.declaration, inverseIsItself)))
        }
        for property in properties.sorted(by: { codePointOrder($0.name, $1.name) }) {
            bytes.append(property.hash)
        }
        if let modifier = declaration.hashModifier { bytes.append(modifier) }
        let constraints = declaration.uniqueConstraints.map { $0.joined(separator: ".") }
        for constraint in constraints.sorted(by: codePointOrder) { bytes.append(constraint) }
        return bytes.sha256
    }

    /// An attribute: its property hash, type code, and the external-storage and
    /// preserve-after-deletion flags when set.
    static func attribute(_ attribute: AttributeDescription) -> Data {
        var bytes = Bytes()
        bytes.append(
            property(
                attribute.name, optional: attribute.isOptional, transient: attribute.isTransient,
                readOnly: attribute.isReadOnly, modifier: attribute.hashModifier))
        bytes.append(UInt32(typeCode(attribute.type)))
        if attribute.allowsExternalStorage { bytes.append(UInt8(1)) }
        if attribute.preservesValueAfterDeletion { bytes.append(UInt8(1)) }
        return bytes.sha256
    }

    /// A relationship: its property hash, destination, inverse (unless it is its own), maximum
    /// and minimum counts (a to-one's maximum is 1, an unbounded to-many's 0), and order.
    static func relationship(_ relationship: RelationshipDescription, _ inverseIsItself: Bool) -> Data {
        var bytes = Bytes()
        bytes.append(
            property(
                relationship.name, optional: relationship.isOptional, transient: relationship.isTransient,
                readOnly: relationship.isReadOnly, modifier: relationship.hashModifier))
        bytes.append(relationship.destination)
        if let inverse = relationship.inverse, !inverseIsItself { bytes.append(inverse) }
        bytes.append(UInt32(clamping: relationship.isToMany ? relationship.maxCount : 1))
        bytes.append(UInt32(clamping: relationship.minCount))
        if relationship.isOrdered { bytes.append(UInt16(1)) }
        return bytes.sha256
    }

    /// What every property's hash starts from: name, flags and hash modifier.
    private static func property(
        _ name: String, optional: Bool, transient: Bool, readOnly: Bool, modifier: String?
    ) -> Data {
        var bytes = Bytes()
        bytes.append(name)
        bytes.append(UInt16((optional ? 1 : 0) | (transient ? 2 : 0) | (readOnly ? 4 : 0)))
        if let modifier { bytes.append(modifier) }
        return bytes.sha256
    }

    /// Core Data's code of an attribute type (`NSAttributeType`).
    private static func typeCode(_ type: AttributeType) -> Int {
        switch type {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        }
    }

    /// Whether `left` sorts before `right` by Unicode code points.
    private static func codePointOrder(_ left: String, _ right: String) -> Bool {
        left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars)
    }
}

/// A byte string being assembled for hashing.
private struct Bytes {
    private var data = Data()

    mutating func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
    mutating func append(_ bytes: Data) { data.append(bytes) }
    mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    /// The SHA-256 of the bytes.
    var sha256: Data { Data(SHA256.hash(data: data)) }
}
