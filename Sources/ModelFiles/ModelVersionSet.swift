// Every version of a versioned model and which one is current: an Xcode `.xcdatamodeld` (each
// `.xcdatamodel` in it, the current one from `.xccurrentversion`) or a SeedKit versions file
// (`versions: [{name, file}], current:`, docs/ModelFiles.md). A version is named after its
// folder without `.xcdatamodel` (`Model 2`), or as the versions file names it.
// Invariants: every version of an Xcode model carries the `.xcdatamodeld`'s name; versions are
// listed in name order, numbers compared by value (`Model 2` before `Model 10`); the current
// version, when one is named, is one of them (an `.xcdatamodeld` whose `.xccurrentversion` names
// none has no current version, as apps that load their versions by name ship them); two versions
// may have equal hashes (they differ in what no hash covers).
import Foundation
import GraphStore

/// The versions of a model.
///
/// ```swift
/// let set = try ModelVersionSet.load(from: "Model.xcdatamodeld")
/// set.names                                   // ["Model", "Model 2", …, "Model 8"]
/// set.currentName                             // "Model 8"
/// let older = try set.model(named: "Model 6")
/// ```
public struct ModelVersionSet: Sendable {
    /// One version: its name and model.
    public struct Version: Sendable {
        /// The version's name.
        public let name: String
        /// The version's model.
        public let model: ObjectModel
    }

    /// The versions, in name order.
    public let versions: [Version]
    /// The name of the current version; nil when the model names none.
    public let currentName: String?

    /// The versions' names, in name order.
    public var names: [String] { versions.map(\.name) }

    /// The current version's model; nil when the model names none.
    public var current: ObjectModel? {
        versions.first { $0.name == currentName }?.model
    }

    /// A version set from Swift: `versions` by name, and the current version's name.
    ///
    /// - Throws: ``ModelError`` when there is no version, two versions share a name, or `current`
    ///   is not one of them.
    public init(versions: [(name: String, model: ObjectModel)], current: String?, source: String = "versions")
        throws
    {
        let names = versions.map(\.name)
        guard !names.isEmpty else { throw Self.error(source, "there is no model version") }
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw Self.error(source, "the version name '\(duplicate)' is used twice")
        }
        if let current, !names.contains(current) {
            throw Self.error(
                source, "the current version '\(current)' is not one of the versions (\(names.joined(separator: ", ")))"
            )
        }
        self.versions = versions.map { Version(name: $0.name, model: $0.model) }.sorted {
            $0.name.compare($1.name, options: .numeric) == .orderedAscending
        }
        currentName = current
    }

    /// The model of the version called `name`.
    ///
    /// - Throws: ``ModelError`` listing the versions when there is no such version.
    public func model(named name: String) throws -> ObjectModel {
        guard let version = versions.first(where: { $0.name == name }) else {
            throw Self.error(
                versions[0].model.name,
                "there is no model version '\(name)' (versions: \(names.joined(separator: ", ")))")
        }
        return version.model
    }

    /// Loads every version of the model at `path`: a `.xcdatamodeld`, or a versions file (`.yaml`,
    /// `.yml`, `.json` with a `versions` list). Any other model is a set of one version, named after
    /// the model and current.
    ///
    /// - Throws: ``ModelError`` naming the file at fault.
    public static func load(from path: String) throws -> ModelVersionSet {
        let url = URL(fileURLWithPath: path)
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld":
            return try xcodeVersions(at: url)
        case "json", "yaml", "yml":
            if let file = try ModelVersionsFile.read(at: url) { return try file.versionSet() }
            let model = try ModelLoader.load(from: path, readingVersionsFiles: false)
            return try ModelVersionSet(versions: [(model.name, model)], current: model.name, source: path)
        default:
            let model = try ModelLoader.load(from: path)
            return try ModelVersionSet(versions: [(model.name, model)], current: model.name, source: path)
        }
    }

    /// Every `.xcdatamodel` of the `.xcdatamodeld` at `bundle`, the current one from `.xccurrentversion`.
    private static func xcodeVersions(at bundle: URL) throws -> ModelVersionSet {
        let choice = try XcodeModelLocation.currentVersionChoice(in: bundle)
        let current = (try? choice.get())?.deletingPathExtension().lastPathComponent
        let name = bundle.deletingPathExtension().lastPathComponent
        var versions: [(name: String, model: ObjectModel)] = []
        for folder in try XcodeModelLocation.versionNames(inBundle: bundle) {
            let contents = try XcodeModelLocation.contentsFile(of: bundle.appendingPathComponent(folder))
            versions.append(
                (
                    URL(fileURLWithPath: folder).deletingPathExtension().lastPathComponent,
                    try XcodeModelReader.readModel(contents: contents, name: name)
                ))
        }
        return try ModelVersionSet(versions: versions, current: current, source: bundle.path)
    }

    private static func error(_ source: String, _ message: String) -> ModelError {
        ModelError(source: source, problems: [ModelProblem(message: message)])
    }
}
