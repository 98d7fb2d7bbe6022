// What the migration tests share: scratch folders, stores built from a Swift model and filled by
// a closure, version sets, running a migration, comparing two stores object by object
// (StoreDiff) and row by row, reading metadata and raw rows, and file bytes.
import DeepCopy
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

/// A scratch folder, removed when the test ends.
final class Scratch {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-migrate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path in the folder.
    func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// The names of the files in the folder, sorted.
    var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

enum MigrationTestSupport {
    /// The folder of the test target's fixtures.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A store at `path` with `model` (in `layout`, SeedKit's by default), filled by `fill` and
    /// saved; its connections closed.
    @discardableResult
    static func store(
        at path: String, model: ObjectModel, uuid: UUID? = nil, metadata: [String: String] = [:],
        layout: StoreLayoutKind? = nil, _ fill: (ObjectContext) throws -> Void = { _ in }
    ) throws -> String {
        var options = StoreOptions()
        options.storeUUID = uuid
        options.layout = layout
        let store = try PersistentStore.open(at: path, model: model, options: options)
        let context = try ObjectContext(store: store)
        try fill(context)
        try context.save()
        if !metadata.isEmpty { try store.setMetadata(metadata) }
        return path
    }

    /// A version set of `versions`, the last current.
    static func versions(_ versions: [(String, ObjectModel)], current: String? = nil) throws -> ModelVersionSet {
        try ModelVersionSet(versions: versions, current: current ?? versions.last?.0)
    }

    /// Migrates the store at `path` in place.
    @discardableResult
    static func migrate(
        _ path: String, versions: ModelVersionSet, mappings: [MappingModel] = [],
        options: MigrationOptions = MigrationOptions(),
        policies: MigrationPolicies = MigrationPolicies()
    ) async throws -> MigrationReport {
        try await StoreMigrator.migrate(
            store: path, source: MigrationSource(versions: versions, mappings: mappings, policies: policies),
            options: options)
    }

    /// The differences between two stores' object graphs (empty: equal), each opened with
    /// `model` (needed for a Core Data store) or its embedded model.
    static func differences(_ first: String, _ second: String, model: ObjectModel? = nil) throws -> [String] {
        var options = StoreOptions()
        options.readOnly = true
        let a = try PersistentStore.open(at: first, model: model, options: options)
        let b = try PersistentStore.open(at: second, model: model, options: options)
        return try StoreDiff(a, b).differences(limit: 50)
    }

    /// The store's metadata.
    static func metadata(_ path: String) throws -> StoreMetadata {
        try PersistentStore.metadata(at: path)
    }

    /// The rows `sql` returns, each as its columns' text (`nil` for NULL).
    static func rows(_ sql: String, in path: String) throws -> [[String]] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare(sql)
        var rows: [[String]] = []
        while try statement.step() {
            rows.append(
                (0..<statement.columnCount).map { statement.isNull($0) ? "nil" : statement.string($0) })
        }
        return rows
    }

    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The key and entity number of every object of every table of `model`'s store at `path`,
    /// as `Table pk ent` lines in key order.
    static func keys(of path: String) throws -> [String] {
        let metadata = try PersistentStore.metadata(at: path)
        let model = try metadata.model(source: path)
        let layout = StoreLayout(model: model, rules: SeedKitLayout())
        var lines: [String] = []
        for root in layout.roots {
            let table = layout.table(of: root)
            for row in try rows("SELECT pk, ent FROM \(SQLiteIdentifier.quote(table)) ORDER BY pk", in: path) {
                let entity = layout.entity(number: Int64(row[1]) ?? 0)?.name ?? "?"
                lines.append("\(table) \(row[0]) \(entity)")
            }
        }
        return lines
    }

    /// `model` with renaming identifiers: keys `Entity` or `Entity.property`, values the old names.
    static func renaming(_ model: ObjectModel, _ renames: [String: String]) throws -> ObjectModel {
        var entities = model.entityDescriptions
        for index in entities.indices {
            let entity = entities[index].name
            if let old = renames[entity] { entities[index].renamingIdentifier = old }
            for slot in entities[index].attributes.indices {
                if let old = renames["\(entity).\(entities[index].attributes[slot].name)"] {
                    entities[index].attributes[slot].renamingIdentifier = old
                }
            }
            for slot in entities[index].relationships.indices {
                if let old = renames["\(entity).\(entities[index].relationships[slot].name)"] {
                    entities[index].relationships[slot].renamingIdentifier = old
                }
            }
        }
        return try ObjectModel(name: model.name, entities: entities)
    }

    /// What ``migrateAndCompare(_:from:_:to:expected:options:)`` leaves to check further.
    struct Compared {
        /// The migrated store.
        let path: String
        let report: MigrationReport
        /// The keys and entities of the store before the migration (``keys(of:)``).
        let keysBefore: [String]
    }

    /// Builds a store of `old` filled by `fill`, migrates it to `new` (versions V1 and V2), builds
    /// a store of `new` filled by `expected`, and expects no difference between the two, the
    /// store's UUID and its user key kept, the new model's hash and no leftover files.
    static func migrateAndCompare(
        _ scratch: Scratch, from old: ObjectModel, _ fill: (ObjectContext) throws -> Void, to new: ObjectModel,
        expected: (ObjectContext) throws -> Void, options: MigrationOptions = MigrationOptions()
    ) async throws -> Compared {
        let uuid = UUID()
        let path = try store(
            at: scratch.file("Store.sqlite"), model: old, uuid: uuid, metadata: ["seed.version": "1"], fill)
        let keysBefore = try keys(of: path)
        let report = try await migrate(path, versions: try versions([("V1", old), ("V2", new)]), options: options)
        let expectedPath = try store(at: scratch.file("Expected.sqlite"), model: new, expected)
        #expect(try differences(path, expectedPath) == [])
        let metadata = try metadata(path)
        #expect(metadata.storeUUID == uuid.uuidString)
        #expect(metadata["seed.version"] == "1")
        #expect(metadata.modelHash == new.versionHash)
        #expect(leftovers(beside: path) == [])
        return Compared(path: path, report: report, keysBefore: keysBefore)
    }

    /// The files a migration may leave beside `path` (none, after it ends).
    static func leftovers(beside path: String) -> [String] {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasPrefix(name + ".seedkit-migrate")
        }.sorted()
    }

    /// Writes each version's model as a JSON model file beside a versions file (`Versions.json`)
    /// in `scratch`, the last version current; returns the versions file's path.
    static func versionsFile(_ scratch: Scratch, _ versions: [(String, ObjectModel)]) throws -> String {
        var entries: [[String: String]] = []
        for (index, (name, model)) in versions.enumerated() {
            let file = "Model\(index + 1).json"
            try ModelFile(model).jsonData().write(to: URL(fileURLWithPath: scratch.file(file)))
            entries.append(["name": name, "file": file])
        }
        let text: [String: Any] = ["versions": entries, "current": versions.last?.0 ?? ""]
        let path = scratch.file("Versions.json")
        try JSONSerialization.data(withJSONObject: text, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        return path
    }
}
