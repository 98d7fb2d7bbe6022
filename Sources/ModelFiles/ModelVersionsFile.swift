// The SeedKit versions file (docs/ModelFiles.md): the versions of a model kept as model files,
// `versions: [{name: v1, file: Catalog.v1.yaml}, …]` and `current: v3`, in YAML or JSON. Each
// file is a path relative to the versions file and any model `ModelLoader` reads.
import Foundation
import GraphStore
import Yams

/// A parsed versions file.
struct ModelVersionsFile: Decodable {
    /// One listed version.
    struct Entry: Decodable {
        /// The version's name.
        var name: String
        /// The version's model file, relative to the versions file.
        var file: String
    }

    /// The versions, as listed.
    var versions: [Entry]
    /// The current version's name.
    var current: String
    /// The versions file's own path.
    private(set) var path = ""

    private enum CodingKeys: String, CodingKey {
        case versions, current
    }

    /// Whether a model file's text lists versions (a top-level `versions` key).
    private struct Probe: Decodable {
        var versions: [Entry]?
    }

    /// The versions file at `url`, or nil when the file is a model file (it has no `versions`).
    ///
    /// - Throws: ``ModelError`` naming the file and the key path of a malformed entry.
    static func read(at url: URL) throws -> ModelVersionsFile? {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ModelError(
                source: url.path,
                problems: [ModelProblem(message: "cannot read the file: \(error.localizedDescription)")])
        }
        let isJSON = url.pathExtension.lowercased() == "json"
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            do {
                return isJSON
                    ? try JSONDecoder().decode(type, from: Data(text.utf8)) : try YAMLDecoder().decode(type, from: text)
            } catch let error as DecodingError {
                throw ModelError(source: url.path, problems: [ModelProblem(message: DecodingErrorText.describe(error))])
            }
        }
        guard (try? decode(Probe.self))?.versions != nil else { return nil }
        var file = try decode(ModelVersionsFile.self)
        file.path = url.path
        return file
    }

    /// The version set the file lists, each model loaded from its file.
    func versionSet() throws -> ModelVersionSet {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let versions = try versions.map { entry in
            (
                name: entry.name,
                model: try ModelLoader.load(
                    from: directory.appendingPathComponent(entry.file).path, readingVersionsFiles: false)
            )
        }
        return try ModelVersionSet(versions: versions, current: current, source: path)
    }

    /// The current version's model.
    func currentModel() throws -> ObjectModel {
        try versionSet().model(named: current)
    }
}
