// The store's metadata: in a SeedKit-layout store (`seedkit_metadata`) the format version,
// store UUID, model name/hash/JSON, entity hashes and user keys such as `seed.version`; in a
// Core Data–layout store the metadata dictionary (`Z_METADATA`: Core Data's keys, app keys,
// SeedKit's seed keys) and the store UUID. Readable without opening a stack.
import Foundation
import PropertyLists

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
        /// The prefixes of the keys that hold the working state of a run (its marker
        /// `run.active`, an import's checkpoint and set-aside references, pending indexes):
        /// present only while a run is active or its indexes are unbuilt. A Core Data–layout
        /// store keeps them apart from its metadata dictionary (docs/CoreDataStores.md).
        public static let runStatePrefixes = ["run.", "import.", indexesPending]

        /// Whether `key` holds a run's working state (see ``runStatePrefixes``).
        public static func isRunState(_ key: String) -> Bool {
            runStatePrefixes.contains { key.hasPrefix($0) }
        }
    }

    /// The store format this SeedKit writes.
    public static let currentFormatVersion = "1"

    /// Every key and value (of a Core Data–layout store: the string-valued keys of its
    /// metadata dictionary, the store UUID and any run state).
    public var values: [String: String]
    /// The layout of the store the metadata was read from: `seedkit` or `core-data`.
    public var layout: String
    /// A Core Data–layout store's metadata dictionary as stored (`Z_METADATA.Z_PLIST`), with the
    /// values of every type; nil for other layouts.
    public var propertyList: PropertyListDictionary?

    /// Metadata holding `values`, of a store of `layout`.
    public init(values: [String: String] = [:], layout: String = "seedkit", propertyList: PropertyListDictionary? = nil)
    {
        self.values = values
        self.layout = layout
        self.propertyList = propertyList
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

    /// Whether the store is at `model`: its Core Data entity version hashes equal the model's (a
    /// Core Data–layout store, which holds no model), else its `model.hash` is the model's.
    public func isAt(_ model: ObjectModel) -> Bool {
        if let stored = coreDataEntityHashes { return model.coreDataVersionHashes.entityHashes == stored }
        return modelHash == model.versionHash
    }

    /// The entity version hashes a Core Data–layout store records
    /// (`NSStoreModelVersionHashes`), by entity name; nil when the store records none.
    public var coreDataEntityHashes: [String: Data]? {
        guard let hashes = propertyList?["NSStoreModelVersionHashes"]?.dictionaryValue else { return nil }
        var result: [String: Data] = [:]
        for (name, value) in hashes {
            guard let hash = value.dataValue else { return nil }
            result[name] = hash
        }
        return result
    }

    /// The keys a user or tool set (everything but SeedKit's own keys and Core Data's, whose
    /// names start with `NS` or `_NS`).
    public var userValues: [String: String] {
        values.filter { key, _ in
            ![Key.formatVersion, Key.storeUUID, Key.modelName, Key.modelHash, Key.modelJSON, Key.indexesPending]
                .contains(key) && !key.hasPrefix(Key.entityHashPrefix) && !key.hasPrefix("NS") && !key.hasPrefix("_NS")
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
