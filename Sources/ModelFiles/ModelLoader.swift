// Loads a model from a path, choosing the format from the name: an Xcode model
// (`.xcdatamodeld`, `.xcdatamodel`, or its `contents` file) or a model file (`.json`, `.yaml`, `.yml`;
// a versions file gives its current version).
import Foundation
import GraphStore

/// Loads models from files.
///
/// ```swift
/// let model = try ModelLoader.load(from: "SeedData/GroceryDude/Model.xcdatamodeld")
/// ```
public enum ModelLoader {
    /// Loads and validates the model at `path`.
    ///
    /// - Throws: ``ModelError`` naming the file and every problem found.
    public static func load(from path: String) throws -> ObjectModel {
        try load(from: path, readingVersionsFiles: true)
    }

    /// Loads the model at `path`; a versions file gives its current version when
    /// `readingVersionsFiles`, else it is an error (a versions file lists model files, not others).
    static func load(from path: String, readingVersionsFiles: Bool) throws -> ObjectModel {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld", "xcdatamodel":
            return try XcodeModelReader.readModel(at: url)
        case "json", "yaml", "yml":
            if let versions = try ModelVersionsFile.read(at: url) {
                guard readingVersionsFiles else {
                    throw ModelError(
                        source: path,
                        problems: [ModelProblem(message: "a versions file cannot list another versions file")])
                }
                return try versions.currentModel()
            }
            let text: String
            do {
                text = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw ModelError(
                    source: path,
                    problems: [ModelProblem(message: "cannot read the file: \(error.localizedDescription)")])
            }
            let file =
                url.pathExtension.lowercased() == "json"
                ? try ModelFile.parse(text, syntax: .json, source: path) : try ModelFile.parse(yaml: text, source: path)
            return try file.objectModel(source: path)
        default:
            if name == "contents" {
                return try XcodeModelReader.readModel(at: url)
            }
            throw ModelError(
                source: path,
                problems: [
                    ModelProblem(
                        message:
                            "unknown model format (expected .xcdatamodeld, .xcdatamodel, contents, .json, .yaml or .yml)"
                    )
                ])
        }
    }
}
