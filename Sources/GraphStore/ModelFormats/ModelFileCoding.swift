// Reading and writing model files as JSON or YAML text.
import Foundation
import Yams

extension ModelFile {
    /// The encodings a model file can have.
    public enum Syntax: Sendable {
        /// JSON (`.json`).
        case json
        /// YAML (`.yaml`, `.yml`).
        case yaml
    }

    /// Parses model-file text.
    ///
    /// - Throws: ``ModelError`` naming `source` and the key path of a malformed entry.
    public static func parse(_ text: String, syntax: Syntax, source: String) throws -> ModelFile {
        do {
            switch syntax {
            case .json: return try JSONDecoder().decode(ModelFile.self, from: Data(text.utf8))
            case .yaml: return try YAMLDecoder().decode(ModelFile.self, from: text)
            }
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
