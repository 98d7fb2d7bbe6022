// Reading SeedKit model files written in YAML (docs/ModelFiles.md); the JSON form is GraphStore's,
// since stores embed it.
import GraphStore
import Yams

extension ModelFile {
    /// Parses model-file text written in YAML.
    ///
    /// ```swift
    /// let model = try ModelFile.parse(yaml: text, source: "Catalog.yaml").objectModel(source: "Catalog.yaml")
    /// ```
    ///
    /// - Throws: ``ModelError`` naming `source` and the key path of a malformed entry.
    public static func parse(yaml text: String, source: String) throws -> ModelFile {
        try decoding(source: source) { try YAMLDecoder().decode(ModelFile.self, from: text) }
    }
}
