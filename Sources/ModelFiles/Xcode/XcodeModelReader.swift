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
        let source = location.contents.path
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
            return try ObjectModel(
                name: location.name, entities: contents.entities, fetchRequestTemplates: contents.templates)
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

    /// The version `.xccurrentversion` names, or the only version when there is no such file.
    private static func currentVersion(in bundle: URL) throws(ModelError) -> URL {
        guard exists(bundle, directory: true) else { throw error(bundle, "the model folder does not exist") }
        let versions = versionNames(in: bundle)
        let listed = versions.isEmpty ? "none" : versions.joined(separator: ", ")
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if exists(marker, directory: false) {
            let current = try currentVersionName(in: marker)
            guard versions.contains(current) else {
                throw error(marker, "the current version '\(current)' is not in the model folder (versions: \(listed))")
            }
            return bundle.appendingPathComponent(current)
        }
        guard versions.count == 1, let only = versions.first else {
            let reason = versions.isEmpty ? "contains no .xcdatamodel version" : "has several versions (\(listed))"
            throw error(bundle, "the model folder \(reason) and no .xccurrentversion naming the current one")
        }
        return bundle.appendingPathComponent(only)
    }

    /// The names of the `.xcdatamodel` folders in `bundle`, sorted.
    private static func versionNames(in bundle: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".xcdatamodel") }.sorted()
    }

    /// The `_XCCurrentVersionName` string of a `.xccurrentversion` property list.
    private static func currentVersionName(in marker: URL) throws(ModelError) -> String {
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
        throw error(marker, "the property list has no _XCCurrentVersionName string")
    }

    /// The `contents` file of a `.xcdatamodel` folder.
    private static func contentsFile(of version: URL) throws(ModelError) -> URL {
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
