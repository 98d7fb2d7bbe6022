// `seedkit model MODEL [--model-version NAME | --versions] [--json]`: load, validate and summarise a
// model (an Xcode model, a model file, a versions file, or a store, which carries its model) with
// SeedKit's hashes and Core Data's version hashes; or list the versions of a versioned model.
import ArgumentParser
import Foundation
import GraphStore
import ModelFiles
import SeedKitCodegen

/// Loads a model and prints its entities, counts, constraints and hash.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Load, validate and summarise a model.",
        discussion: """
            MODEL is an Xcode model (.xcdatamodeld, .xcdatamodel or its contents file), a model \
            file (.json, .yaml, .yml), or a SeedKit store (which carries its model; any SQLite file, \
            whatever its name). A versioned model (.xcdatamodeld, or a versions file) gives its \
            current version unless --model-version names another; --versions lists them all.
            """)

    @Argument(help: "The model or store to load.")
    var model: String

    @Option(help: "The version of a versioned model to load (an .xcdatamodeld's folder name without .xcdatamodel).")
    var modelVersion: String?

    @Flag(help: "List the versions of a versioned model with their hashes, marking the current one.")
    var versions = false

    @Flag(help: "Print the summary as JSON on standard output.")
    var json = false

    @Option(help: "Print a diagram of the model instead: mermaid (a class diagram) or dot (Graphviz).")
    var format: ModelDiagram.Format?

    func validate() throws {
        if versions && modelVersion != nil {
            throw ValidationError("--versions lists every version: drop --model-version")
        }
        if json && format != nil { throw ValidationError("--json and --format cannot be combined") }
        if versions && format != nil { throw ValidationError("--versions and --format cannot be combined") }
    }

    func run() throws {
        do {
            if versions {
                let set = try ModelVersionSet.load(from: model)
                if json { try JSONOutput.print(VersionsSummary(set)) } else { print(VersionsSummary(set).text) }
                return
            }
            let loaded =
                try modelVersion.map { try ModelVersionSet.load(from: model).model(named: $0) }
                ?? ModelSource.load(model)
            if let format {
                print(ModelDiagram.text(of: loaded, format: format), terminator: "")
            } else if json {
                try JSONOutput.print(ModelSummary(loaded))
            } else {
                print(ModelSummary(loaded).text)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw DataFailure.exit("\(error)")
        }
    }
}

/// Finds a model in a model file, an Xcode model or a store.
enum ModelSource {
    /// The first 16 bytes of every SQLite database file.
    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    /// The model at `path`: a store's embedded model when `path` is a SeedKit store.
    static func load(_ path: String) throws -> ObjectModel {
        if isStore(path) {
            let metadata = try PersistentStore.metadata(at: path)
            if metadata.layout == StoreLayoutKind.coreData.rawValue {
                throw StoreError(.modelNotStored, path: path)
            }
            return try metadata.model(source: path)
        }
        return try ModelLoader.load(from: path)
    }

    /// Whether `path` names a store: a file that starts with SQLite's header, whatever its name,
    /// or a name with a store's extension (so a missing `x.sqlite` is reported as a missing store).
    static func isStore(_ path: String) -> Bool {
        if hasSQLiteHeader(path) { return true }
        let lowercased = path.lowercased()
        return [".sqlite", ".store", ".db", ".sqlite3"].contains(where: lowercased.hasSuffix)
    }

    /// Whether `path` is a regular file whose first bytes are SQLite's header.
    private static func hasSQLiteHeader(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: sqliteHeader.count) else { return false }
        return header == sqliteHeader
    }
}

/// The summary `seedkit model` prints.
struct ModelSummary: Encodable {
    struct EntitySummary: Encodable {
        var attributes: [String: String]
        var relationships: [String: String]
        var uniqueConstraints: [[String]]
        var parent: String?
        var abstract: Bool
        var hash: String
        var coreDataVersionHash: String
    }

    var name: String
    var hash: String
    var coreDataVersionHashesDigest: String
    var coreDataVersionChecksum: String
    var entities: [String: EntitySummary]

    init(_ model: ObjectModel) {
        name = model.name
        hash = model.versionHash
        let coreData = model.coreDataVersionHashes
        coreDataVersionHashesDigest = coreData.digest
        coreDataVersionChecksum = coreData.checksum
        var entities: [String: EntitySummary] = [:]
        for entity in model.entities {
            entities[entity.name] = EntitySummary(
                attributes: Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, Self.describe($0)) }),
                relationships: Dictionary(
                    uniqueKeysWithValues: entity.relationships.map { ($0.name, Self.describe($0, in: model)) }),
                uniqueConstraints: entity.uniqueConstraints,
                parent: entity.parentIndex.map { model.entities[$0].name },
                abstract: entity.isAbstract,
                hash: entity.versionHash,
                coreDataVersionHash: coreData.entityHashes[entity.name]?.base64EncodedString() ?? "")
        }
        self.entities = entities
    }

    private static func describe(_ attribute: ModelAttribute) -> String {
        var text = attribute.type.rawValue
        if attribute.isOptional { text += "?" }
        if attribute.isTransient { text += " transient" }
        if attribute.declaration.isIndexed { text += " indexed" }
        return text
    }

    private static func describe(_ relationship: ModelRelationship, in model: ObjectModel) -> String {
        let kind = relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        var text = "\(kind) \(model.destination(of: relationship).name)"
        if let inverse = relationship.declaration.inverse { text += " inverse \(inverse)" }
        return text + " \(relationship.deleteRule.rawValue)"
    }

    /// A human-readable summary, one line per entity.
    var text: String {
        var lines = [
            "model \(name) (\(counted(entities.count, "entity", "entities"))) hash \(hash.prefix(16))"
                + " Core Data checksum \(coreDataVersionChecksum)"
        ]
        for (entityName, entity) in entities.sorted(by: { $0.key < $1.key }) {
            var line = "  \(entityName)"
            if let parent = entity.parent { line += " : \(parent)" }
            if entity.abstract { line += " (abstract)" }
            line += " — \(counted(entity.attributes.count, "attribute")), "
            line += counted(entity.relationships.count, "relationship")
            if !entity.uniqueConstraints.isEmpty {
                line +=
                    ", unique "
                    + entity.uniqueConstraints.map { "[" + $0.joined(separator: ", ") + "]" }.joined(separator: " ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// What `seedkit model --versions` prints: each version's hashes, and which one is current.
struct VersionsSummary: Encodable {
    struct VersionSummary: Encodable {
        var name: String
        var current: Bool
        var hash: String
        var coreDataVersionHashesDigest: String
        var coreDataVersionChecksum: String
    }

    var name: String
    var current: String?
    var versions: [VersionSummary]

    init(_ set: ModelVersionSet) {
        name = set.versions[0].model.name
        current = set.currentName
        versions = set.versions.map { version in
            let coreData = version.model.coreDataVersionHashes
            return VersionSummary(
                name: version.name, current: version.name == set.currentName, hash: version.model.versionHash,
                coreDataVersionHashesDigest: coreData.digest, coreDataVersionChecksum: coreData.checksum)
        }
    }

    /// One line per version: `*` marks the current one.
    var text: String {
        var lines = [
            "model \(name): \(counted(versions.count, "version")), "
                + (current.map { "current \($0)" } ?? "no current version (.xccurrentversion names none)")
        ]
        let width = versions.map(\.name.count).max() ?? 0
        for version in versions {
            let padded = version.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append(
                "\(version.current ? "*" : " ") \(padded)  hash \(version.hash.prefix(16))"
                    + "  Core Data checksum \(version.coreDataVersionChecksum)")
        }
        return lines.joined(separator: "\n")
    }
}
