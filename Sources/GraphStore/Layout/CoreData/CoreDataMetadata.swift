// The metadata of a Core Data–layout store (docs/CoreDataStores.md "Metadata"): one `Z_METADATA`
// row (version 1) with the store UUID and a binary property list — Core Data's keys (store type,
// framework version, entity version hashes with their digest and checksum, version identifiers,
// auto-vacuum level), app keys, and SeedKit's seed keys as strings — plus the working state of a
// run (`run.active`, an import's checkpoint…), kept apart in `seedkit_run`, a table that exists
// only while it holds any. Also what a store needs of a model to be opened with it (equal entity
// version hashes), and object counts read without a model.
// Invariants: the property list is rewritten whole with every key it held (unknown and app keys
// kept), sorted, so the same metadata gives the same bytes; Core Data's own keys are written only
// by a new store's schema; nothing but `Z_METADATA` and `seedkit_run` is touched.
import Foundation
import PropertyLists

extension CoreDataLayout {
    /// The framework version a new store's metadata names (the version whose keys it holds:
    /// the version-hash digest since 1044, the checksum since 1344). Core Data opens a store by
    /// its version hashes, not this number, and rewrites it on its first save.
    static let frameworkVersion: Int64 = 1344
    /// The table that holds the working state of a run while there is any.
    static let runStateTable = "seedkit_run"

    /// The metadata dictionary of a new store of `model`: Core Data's keys, then `extra` (as strings).
    static func propertyList(for model: ObjectModel, extra: [String: String]) -> PropertyListDictionary {
        let hashes = model.coreDataVersionHashes
        var dictionary: PropertyListDictionary = [
            "NSPersistenceFrameworkVersion": .integer(frameworkVersion),
            "NSStoreModelVersionChecksumKey": .string(hashes.checksum),
            "NSStoreModelVersionHashes": .dictionary(
                PropertyListDictionary(hashes.entityHashes.sorted { $0.key < $1.key }.map { ($0.key, .data($0.value)) })
            ),
            "NSStoreModelVersionHashesDigest": .string(hashes.digest),
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": .array(model.versionIdentifiers.map(PropertyListValue.string)),
            "NSStoreType": "SQLite",
            "_NSAutoVacuumLevel": "2",
        ]
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) { dictionary[key] = .string(value) }
        return dictionary
    }

    /// Writes a new store's `Z_METADATA` row: `metadata`'s store UUID, the model's dictionary with
    /// `metadata`'s user keys, and its run state apart.
    func createMetadata(for model: ObjectModel, metadata: StoreMetadata, on connection: SQLiteConnection) throws {
        let lasting = metadata.userValues.filter { !StoreMetadata.Key.isRunState($0.key) }
        let insert = try connection.prepare("INSERT INTO Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
        insert.bind(text: metadata.storeUUID ?? UUID().uuidString, at: 1)
        insert.bind(
            blob: BinaryPropertyListWriter().write(.dictionary(Self.propertyList(for: model, extra: lasting))), at: 2)
        try insert.execute()
        try writeRunState(metadata.values.filter { StoreMetadata.Key.isRunState($0.key) }, on: connection)
    }

    package func readMetadata(on connection: SQLiteConnection, path: String) throws -> StoreMetadata {
        guard try recognizes(connection) else { throw StoreError(.notAStore, path: path) }
        let (uuid, dictionary) = try Self.storedRow(on: connection, path: path)
        var values: [String: String] = [:]
        for (key, value) in dictionary {
            if let text = value.stringValue { values[key] = text }
        }
        values[StoreMetadata.Key.storeUUID] = uuid
        if try Self.hasRunStateTable(connection) {
            let state = try connection.prepare("SELECT key, value FROM \(Self.runStateTable)")
            while try state.step() { values[state.string(0)] = state.string(1) }
        }
        return StoreMetadata(values: values, layout: name, propertyList: dictionary)
    }

    package func writeMetadata(_ values: [String: String?], on connection: SQLiteConnection) throws {
        try writeRunState(values.filter { StoreMetadata.Key.isRunState($0.key) }, on: connection)
        let lasting = values.filter { !StoreMetadata.Key.isRunState($0.key) }
        guard !lasting.isEmpty else { return }
        var (uuid, dictionary) = try Self.storedRow(on: connection, path: "store")
        for (key, value) in lasting.sorted(by: { $0.key < $1.key }) {
            if key == StoreMetadata.Key.storeUUID {
                uuid = value ?? uuid
            } else if key.hasPrefix("NS") || key.hasPrefix("_NS") {
                throw StoreError(.reservedMetadataKey(key), path: "store")
            } else {
                dictionary[key] = value.map(PropertyListValue.string)
            }
        }
        try Self.updateRow(uuid: uuid, dictionary: dictionary, on: connection)
    }

    /// The app's keys of `metadata`'s property list whose values are not strings (numbers,
    /// Booleans, dates, data, arrays, dictionaries — `DefaultDataImported`), as they were; Core
    /// Data's own keys are the new store's.
    package func writeNonTextMetadata(of metadata: StoreMetadata, on connection: SQLiteConnection) throws {
        let carried = (metadata.propertyList ?? [:]).filter { key, value in
            value.stringValue == nil && !key.hasPrefix("NS") && !key.hasPrefix("_NS")
        }
        guard !carried.isEmpty else { return }
        var (uuid, dictionary) = try Self.storedRow(on: connection, path: "store")
        for (key, value) in carried { dictionary[key] = value }
        try Self.updateRow(uuid: uuid, dictionary: dictionary, on: connection)
    }

    /// Rewrites the `Z_METADATA` row, its dictionary sorted by key.
    private static func updateRow(uuid: String, dictionary: PropertyListDictionary, on connection: SQLiteConnection)
        throws
    {
        let update = try connection.cachedStatement("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ? WHERE Z_VERSION = 1")
        defer { update.reset() }
        update.bind(text: uuid, at: 1)
        update.bind(blob: BinaryPropertyListWriter().write(.dictionary(dictionary.sortedByKey())), at: 2)
        try update.execute()
    }

    /// The store UUID and metadata dictionary of the `Z_METADATA` row.
    static func storedRow(on connection: SQLiteConnection, path: String) throws -> (String, PropertyListDictionary) {
        let row = try connection.cachedStatement("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        defer { row.reset() }
        guard try row.step() else { throw StoreError(.unreadableMetadata("Z_METADATA has no row"), path: path) }
        let uuid = row.isNull(0) ? "" : row.string(0)
        do {
            guard let dictionary = try PropertyListReader().read(row.data(1)).dictionaryValue else {
                throw StoreError(.unreadableMetadata("Z_METADATA.Z_PLIST is not a dictionary"), path: path)
            }
            return (uuid, dictionary)
        } catch let error as PropertyListError {
            throw StoreError(.unreadableMetadata("Z_METADATA.Z_PLIST: \(error)"), path: path)
        }
    }

    /// Sets (nil: removes) run-state keys in `seedkit_run`, creating it for the first and
    /// dropping it with the last.
    private func writeRunState(_ values: [String: String?], on connection: SQLiteConnection) throws {
        guard !values.isEmpty else { return }
        if values.values.contains(where: { $0 != nil }) {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS \(Self.runStateTable)(key TEXT PRIMARY KEY NOT NULL, value TEXT)")
        } else if try !Self.hasRunStateTable(connection) {
            return
        }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let statement = try connection.cachedStatement(
                value == nil
                    ? "DELETE FROM \(Self.runStateTable) WHERE key = ?"
                    : "INSERT INTO \(Self.runStateTable)(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            )
            defer { statement.reset() }
            statement.bind(text: key, at: 1)
            if let value { statement.bind(text: value, at: 2) }
            try statement.execute()
        }
        let left = try connection.prepare("SELECT count(*) FROM \(Self.runStateTable)")
        let empty = try left.step() && left.int64(0) == 0
        left.reset()
        if empty { try connection.execute("DROP TABLE \(Self.runStateTable)") }
    }

    private static func hasRunStateTable(_ connection: SQLiteConnection) throws -> Bool {
        let exists = try connection.cachedStatement(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '\(runStateTable)'")
        defer { exists.reset() }
        return try exists.step()
    }

    // MARK: - Models

    /// The entities whose version hashes differ between `model` and the store, or that only one has.
    package func differences(between model: ObjectModel, and metadata: StoreMetadata) -> [String] {
        guard let stored = metadata.coreDataEntityHashes else {
            return ["the store's metadata holds no entity version hashes (NSStoreModelVersionHashes)"]
        }
        let mine = model.coreDataVersionHashes.entityHashes
        return Set(stored.keys).union(mine.keys).sorted().compactMap { name in
            switch (stored[name], mine[name]) {
            case (let theirs?, let ours?) where theirs != ours:
                "\(name): version hash \(theirs.base64EncodedString()) in the store, \(ours.base64EncodedString()) in the model"
            case (nil, _?): "\(name): in the model, not in the store"
            case (_?, nil): "\(name): in the store, not in the model"
            default: nil
            }
        }
    }

    /// A Core Data store holds no model SeedKit can read: it is opened with its Xcode model.
    package func storedModel(in metadata: StoreMetadata, path: String) throws -> ObjectModel {
        throw StoreError(.modelNotStored, path: path)
    }

    /// Object counts by entity from `Z_PRIMARYKEY`'s names and each root table's `Z_ENT` (Core
    /// Data's own entities — persistent history — left out). A root whose table the file lacks
    /// (its name went stale in a renaming migration) is left out with its sub-entities.
    package func entityCounts(on connection: SQLiteConnection) throws -> [String: Int]? {
        var entities: [(number: Int64, name: String, parent: Int64)] = []
        let rows = try connection.prepare(
            "SELECT Z_ENT, Z_NAME, coalesce(Z_SUPER, 0) FROM Z_PRIMARYKEY WHERE Z_ENT < \(Self.firstFrameworkEntity)")
        while try rows.step() {
            entities.append((rows.int64(0), rows.isNull(1) ? "" : rows.string(1), rows.int64(2)))
        }
        let names = Dictionary(entities.map { ($0.number, $0.name) }) { first, _ in first }
        let parents = Dictionary(entities.map { ($0.number, $0.parent) }) { first, _ in first }
        // Parents are followed at most once per entity, so a crafted cycle ends.
        func root(of number: Int64) -> Int64 {
            var current = number
            var steps = 0
            while let parent = parents[current], parent != 0, steps < entities.count {
                current = parent
                steps += 1
            }
            return current
        }
        var counts: [String: Int] = [:]
        for rootNumber in entities.filter({ $0.parent == 0 }).map(\.number).sorted() {
            let table = "Z" + names[rootNumber, default: ""].uppercased()
            let exists = try connection.prepare(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND upper(name) = ?")
            exists.bind(text: table, at: 1)
            guard try exists.step() else { continue }
            for entity in entities where root(of: entity.number) == rootNumber { counts[entity.name] = 0 }
            let statement = try connection.prepare(
                "SELECT Z_ENT, count(*) FROM \(SQLiteIdentifier.quote(table)) GROUP BY Z_ENT")
            while try statement.step() {
                if let name = names[statement.int64(0)] { counts[name] = statement.int(1) }
            }
        }
        return counts
    }
}
