// The store's metadata (`seedkit_metadata`): format version, store UUID, model name/hash/JSON,
// entity hashes, and user keys such as `seed.version`. Readable without opening a stack.
import Foundation

/// A store's metadata: a key → text map with typed accessors for the keys SeedKit writes.
///
/// ```swift
/// let metadata = try PersistentStore.metadata(at: url)
/// metadata.modelHash
/// metadata["seed.version"]
/// ```
public struct StoreMetadata: Sendable, Hashable {
    /// Keys SeedKit itself writes.
    public enum Key {
        /// The store format version.
        public static let formatVersion = "seedkit.format"
        /// The store's UUID.
        public static let storeUUID = "store.uuid"
        /// The model's name.
        public static let modelName = "model.name"
        /// The model's version hash.
        public static let modelHash = "model.hash"
        /// The model as model-file JSON.
        public static let modelJSON = "model.json"
        /// Prefix of each entity's version hash key (`entity.hash.Item`).
        public static let entityHashPrefix = "entity.hash."
        /// Set while secondary indexes have not been built yet.
        public static let indexesPending = "store.indexes-pending"
    }

    /// The store format this SeedKit writes.
    public static let currentFormatVersion = "1"

    /// Every key and value.
    public var values: [String: String]

    /// Metadata holding `values`.
    public init(values: [String: String] = [:]) {
        self.values = values
    }

    /// The value for `key`.
    public subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The store format version.
    public var formatVersion: String? { values[Key.formatVersion] }
    /// The store's UUID.
    public var storeUUID: String? { values[Key.storeUUID] }
    /// The model's name.
    public var modelName: String? { values[Key.modelName] }
    /// The model's version hash.
    public var modelHash: String? { values[Key.modelHash] }
    /// Each entity's version hash by entity name.
    public var entityHashes: [String: String] {
        var hashes: [String: String] = [:]
        for (key, value) in values where key.hasPrefix(Key.entityHashPrefix) {
            hashes[String(key.dropFirst(Key.entityHashPrefix.count))] = value
        }
        return hashes
    }

    /// The keys a user or tool set (everything but SeedKit's own keys).
    public var userValues: [String: String] {
        values.filter { key, _ in
            ![Key.formatVersion, Key.storeUUID, Key.modelName, Key.modelHash, Key.modelJSON, Key.indexesPending]
                .contains(key) && !key.hasPrefix(Key.entityHashPrefix)
        }
    }

    /// The model embedded in the store.
    ///
    /// - Throws: ``ModelError`` when the embedded JSON is missing or invalid.
    public func model(source: String) throws -> ObjectModel {
        guard let json = values[Key.modelJSON] else {
            throw ModelError(source: source, problems: [ModelProblem(message: "the store holds no model")])
        }
        return try ModelFile.parse(json, syntax: .json, source: source).objectModel(source: source)
    }

    /// The metadata SeedKit writes for a new store of `model`.
    static func initial(for model: ObjectModel, storeUUID: UUID) throws -> StoreMetadata {
        var metadata = StoreMetadata()
        metadata[Key.formatVersion] = currentFormatVersion
        metadata[Key.storeUUID] = storeUUID.uuidString
        metadata[Key.modelName] = model.name
        metadata[Key.modelHash] = model.versionHash
        metadata[Key.modelJSON] = String(decoding: try ModelFile(model).jsonData(), as: UTF8.self)
        for entity in model.entities {
            metadata[Key.entityHashPrefix + entity.name] = entity.versionHash
        }
        return metadata
    }
}
