// Reads an Xcode Core Data model — a `.xcdatamodeld` folder (its current version), a
// `.xcdatamodel` folder, or a version's `contents` file — into a validated `ObjectModel`.
// Mapping, and what is ignored: docs/XcodeModels.md.
// Invariants: every error is a `ModelError` whose source is the file at fault (the `contents`
// file, `.xccurrentversion`, or the folder) and whose problems carry the line of their element
// where one is known; the model is named after the `.xcdatamodeld` (or `.xcdatamodel`) folder.
import Foundation
import GraphStore

/// Reads Xcode Core Data models (`.xcdatamodeld`, `.xcdatamodel`, `contents`).
///
/// ```swift
/// let model = try XcodeModelReader.readModel(at: URL(fileURLWithPath: "GroceryDude.xcdatamodeld"))
/// model.entity(named: "Item")?.attribute(named: "quantity")?.declaration.defaultValue   // .double(1)
/// ```
public enum XcodeModelReader {
    /// Reads and validates the model at `url`.
    ///
    /// - Parameter url: a `.xcdatamodeld` folder (the version its `.xccurrentversion` names, or
    ///   its only version), a `.xcdatamodel` folder, or a `contents` file.
    /// - Throws: ``ModelError`` naming the file, with the line of each problem where known.
    public static func readModel(at url: URL) throws -> ObjectModel {
        let location = try XcodeModelLocation(url)
        return try readModel(contents: location.contents, name: location.name)
    }

    /// Reads and validates the version `version` of the `.xcdatamodeld` at `url` (its folder name
    /// without `.xcdatamodel`, such as `Model 2`), whichever version is current.
    ///
    /// - Throws: ``ModelError`` naming the folder and its versions when there is no such version,
    ///   or the file at fault with the line of each problem.
    public static func readModel(at url: URL, version: String) throws -> ObjectModel {
        let versions = try XcodeModelLocation.versionNames(inBundle: url)
        guard versions.contains(version + ".xcdatamodel") else {
            let listed = versions.map { String($0.dropLast(".xcdatamodel".count)) }.joined(separator: ", ")
            throw ModelError(
                source: url.path,
                problems: [ModelProblem(message: "there is no model version '\(version)' (versions: \(listed))")])
        }
        let folder = url.appendingPathComponent(version + ".xcdatamodel")
        return try readModel(
            contents: try XcodeModelLocation.contentsFile(of: folder),
            name: url.deletingPathExtension().lastPathComponent)
    }

    /// Reads and validates one version's `contents` file into a model called `name`.
    static func readModel(contents: URL, name: String) throws -> ObjectModel {
        let source = contents.path
        let root: XcodeModelElement
        do {
            root = try XcodeModelXML.parse(fileAt: source)
        } catch {
            throw ModelError(
                source: source, problems: [ModelProblem(message: "cannot parse the XML: \(error.located)")])
        }
        let contents = XcodeModelContents(root: root)
        guard contents.problems.isEmpty else { throw ModelError(source: source, problems: contents.problems) }
        do {
            // Core Data records the version identifier in a store's metadata: `[""]` when the model has none.
            return try ObjectModel(
                name: name, entities: contents.entities, fetchRequestTemplates: contents.templates,
                versionIdentifiers: [root["userDefinedModelVersionIdentifier"] ?? ""])
        } catch let error as ModelError {
            throw ModelError(source: source, problems: error.problems.map(contents.located))
        }
    }
}

/// The `contents` file of the model version to read, and the model's name.
struct XcodeModelLocation {
    /// The version's `contents` file.
    var contents: URL
    /// The base name of the `.xcdatamodeld` (or, read on its own, the `.xcdatamodel`) folder.
    var name: String

    /// Finds the `contents` file for a `.xcdatamodeld`, a `.xcdatamodel` or a `contents` path.
    init(_ url: URL) throws(ModelError) {
        let name = url.deletingPathExtension().lastPathComponent
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld":
            self.init(contents: try Self.contentsFile(of: try Self.currentVersion(in: url)), name: name)
        case "xcdatamodel":
            self.init(contents: try Self.contentsFile(of: url), name: name)
        default:
            guard url.lastPathComponent == "contents" else {
                throw Self.error(url, "not an Xcode model (expected .xcdatamodeld, .xcdatamodel or contents)")
            }
            guard Self.exists(url, directory: false) else { throw Self.error(url, "the file does not exist") }
            self.init(contents: url, name: url.deletingLastPathComponent().deletingPathExtension().lastPathComponent)
        }
    }

    private init(contents: URL, name: String) {
        self.contents = contents
        self.name = name
    }

    /// The `.xcdatamodel` folder names in the `.xcdatamodeld` at `bundle`, sorted.
    static func versionNames(inBundle bundle: URL) throws(ModelError) -> [String] {
        guard exists(bundle, directory: true) else { throw error(bundle, "the model folder does not exist") }
        return versionNames(in: bundle)
    }

    /// The version `.xccurrentversion` names, or the only version when there is no such file.
    static func currentVersion(in bundle: URL) throws(ModelError) -> URL {
        try currentVersionChoice(in: bundle).get()
    }

    /// The current version's folder, or (as a failure) why none is named: `.xccurrentversion` names
    /// no version, or there is no such file and several versions. Thrown: the folder has no
    /// version, the file cannot be read, or it names a version that is not there.
    static func currentVersionChoice(in bundle: URL) throws(ModelError) -> Result<URL, ModelError> {
        let versions = try versionNames(inBundle: bundle)
        let listed = versions.isEmpty ? "none" : versions.joined(separator: ", ")
        guard !versions.isEmpty else {
            throw error(
                bundle,
                "the model folder contains no .xcdatamodel version and no .xccurrentversion naming the current one")
        }
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if exists(marker, directory: false) {
            guard let current = try currentVersionName(in: marker) else {
                return .failure(error(marker, "the property list has no _XCCurrentVersionName string"))
            }
            guard versions.contains(current) else {
                throw error(marker, "the current version '\(current)' is not in the model folder (versions: \(listed))")
            }
            return .success(bundle.appendingPathComponent(current))
        }
        guard versions.count == 1, let only = versions.first else {
            return .failure(
                error(
                    bundle,
                    "the model folder has several versions (\(listed)) and no .xccurrentversion naming the current one")
            )
        }
        return .success(bundle.appendingPathComponent(only))
    }

    /// The names of the `.xcdatamodel` folders in `bundle`, sorted.
    private static func versionNames(in bundle: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".xcdatamodel") }.sorted()
    }

    /// The `_XCCurrentVersionName` string of a `.xccurrentversion` property list.
    private static func currentVersionName(in marker: URL) throws(ModelError) -> String? {
        let root: XcodeModelElement
        do {
            root = try XcodeModelXML.parse(fileAt: marker.path)
        } catch {
            throw ModelError(
                source: marker.path, problems: [ModelProblem(message: "cannot parse the XML: \(error.located)")])
        }
        let entries = root.children(named: "dict").first?.children ?? []
        for (key, value) in zip(entries, entries.dropFirst())
        where key.name == "key" && key.text == "_XCCurrentVersionName" && value.name == "string" {
            return value.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }

    /// The `contents` file of a `.xcdatamodel` folder.
    static func contentsFile(of version: URL) throws(ModelError) -> URL {
        guard exists(version, directory: true) else { throw error(version, "the model version folder does not exist") }
        let contents = version.appendingPathComponent("contents")
        if exists(contents, directory: false) { return contents }
        if exists(version.appendingPathComponent("elements"), directory: false) {
            throw error(
                version,
                "this model was saved by Xcode 3 (binary 'elements' and 'layout' files), which is not supported;"
                    + " open and save it in Xcode 4 or later to convert it to the XML 'contents' format")
        }
        throw error(version, "the model version folder has no 'contents' file")
    }

    private static func exists(_ url: URL, directory: Bool) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && isDirectory.boolValue == directory
    }

    private static func error(_ url: URL, _ message: String) -> ModelError {
        ModelError(source: url.path, problems: [ModelProblem(message: message)])
    }
}
