// Reading and writing model files as JSON: the form a store embeds its model in. YAML model
// files, and loading a model file or an Xcode model from a path, are the ModelFiles module's.
import Foundation

extension ModelFile {
    /// The syntax GraphStore reads model files in: JSON, the form stores embed (the ModelFiles
    /// module reads YAML too: `ModelFile.parse(yaml:source:)`).
    public enum Syntax: Sendable {
        /// JSON (`.json`).
        case json
    }

    /// Parses model-file text.
    ///
    /// - Throws: ``ModelError`` naming `source` and the key path of a malformed entry.
    public static func parse(_ text: String, syntax: Syntax = .json, source: String) throws -> ModelFile {
        try decoding(source: source) { try JSONDecoder().decode(ModelFile.self, from: Data(text.utf8)) }
    }

    /// The model file `decode` returns; its errors become a ``ModelError`` naming `source` and,
    /// for a malformed entry, its key path.
    package static func decoding(source: String, _ decode: () throws -> ModelFile) throws -> ModelFile {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw ModelError(source: source, problems: [ModelProblem(message: DecodingErrorText.describe(error))])
        } catch {
            throw ModelError(source: source, problems: [ModelProblem(message: "\(error)")])
        }
    }

    /// The model file as sorted-key JSON (compact unless `pretty`): stable bytes for equal models.
    public func jsonData(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// Describes a `DecodingError` as one line with the key path where it happened.
public enum DecodingErrorText {
    /// `at entities.Item.attributes.price: <reason>`.
    public static func describe(_ error: DecodingError) -> String {
        let (path, reason): ([any CodingKey], String)
        switch error {
        case .typeMismatch(let type, let context):
            (path, reason) = (context.codingPath, "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            (path, reason) = (context.codingPath, "missing \(type) value")
        case .keyNotFound(let key, let context):
            (path, reason) = (context.codingPath, "missing key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            (path, reason) = (context.codingPath, context.debugDescription)
        @unknown default:
            (path, reason) = ([], "\(error)")
        }
        let location = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return location.isEmpty ? reason : "at \(location): \(reason)"
    }
}
