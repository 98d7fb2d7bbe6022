// The drafted plan (and model), as plain values the writer turns into commented YAML: what the
// inference decided, and the remarks a person should read (guessed keys, mixed columns, fields
// left out).
import GraphStore

/// A drafted entity of the model (without `--model`).
struct DraftEntity {
    struct Attribute {
        var name: String
        var type: AttributeType
        var optional: Bool
        var comment: String?
    }

    struct Relationship {
        var name: String
        var destination: String
        var inverse: String
        var toMany: Bool
    }

    var name: String
    var attributes: [Attribute] = []
    var relationships: [Relationship] = []
    /// The guessed key, as a unique constraint.
    var unique: [String]?
}

/// How a drafted source maps one attribute.
struct DraftAttributeMapping {
    var attribute: String
    var field: String
    var dateFormat: String?
    var nullTokens: [String]?
    var comment: String?
}

/// How a drafted source maps one relationship: by reference (`match`) or nested records.
struct DraftRelationshipMapping {
    var relationship: String
    var field: String
    var match: [String]?
    var split: String?
    /// `missing:` when the default (`create`) cannot work: a destination with required
    /// attributes that a stub holding just its key cannot fill.
    var missing: String? = nil
    var nested: DraftMapping?
    var comment: String?
}

/// The record mapping of a source or of nested records.
struct DraftMapping {
    var entity: String
    var key: [String] = []
    var keyComment: String?
    var attributes: [DraftAttributeMapping] = []
    var relationships: [DraftRelationshipMapping] = []
    /// Remarks on fields the mapping leaves out, written above it.
    var notes: [String] = []
}

/// A drafted source.
struct DraftSource {
    /// The file, relative to the plan's folder.
    var file: String
    var records: String?
    /// How many records the draft was made from.
    var sampled: Int
    var mapping: DraftMapping
}

/// The whole draft.
struct Draft {
    /// The model, relative to the plan's folder.
    var model: String
    var modelName: String
    var store: String
    var sources: [DraftSource]
    /// The drafted model's entities; nil when the plan uses a given model.
    var entities: [DraftEntity]?
}
