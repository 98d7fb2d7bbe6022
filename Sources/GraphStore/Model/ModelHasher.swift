// Version hashes: a canonical text of what shapes the store, hashed with SHA-256.
// Invariants: declaration order, userInfo, default values, validation rules, delete rules,
// relationship counts and renaming identifiers never change a hash; names, types, optionality,
// transience, indexes, unique constraints, inheritance, relationship shape and hash modifiers
// always do. A fact added later (a hash modifier) adds to the text only when present, so the
// hashes of models without it never change.
import Crypto

/// Computes entity and model version hashes.
enum ModelHasher {
    /// The hex SHA-256 of the entity's canonical schema text.
    static func entityHash(_ entity: EntityDescription) -> String {
        SHA256.hash(data: Array(canonicalText(of: entity).utf8)).hex
    }

    /// The hex SHA-256 over the entities' hashes (given in entity-name order).
    static func modelHash(entityHashes: [String]) -> String {
        SHA256.hash(data: Array(entityHashes.joined(separator: "\n").utf8)).hex
    }

    /// One line per schema fact, in a fixed order independent of how the entity was written.
    static func canonicalText(of entity: EntityDescription) -> String {
        var lines = [
            "entity \(entity.name)",
            "parent \(entity.parent ?? "-")",
            "abstract \(entity.isAbstract)",
        ]
        if let modifier = entity.hashModifier { lines.append("modifier \(modifier)") }
        for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
            lines.append(
                "attribute \(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional)"
                    + " transient=\(attribute.isTransient) indexed=\(attribute.isIndexed)"
                    + " external=\(attribute.allowsExternalStorage) codec=\(attribute.valueTransformerName ?? "-")"
                    + modifierSuffix(attribute.hashModifier))
        }
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
            lines.append(
                "relationship \(relationship.name) -> \(relationship.destination) inverse=\(relationship.inverse ?? "-")"
                    + " toMany=\(relationship.isToMany) ordered=\(relationship.isOrdered)"
                    + " optional=\(relationship.isOptional) transient=\(relationship.isTransient)"
                    + modifierSuffix(relationship.hashModifier))
        }
        for constraint in entity.uniqueConstraints.map({ $0.sorted().joined(separator: ",") }).sorted() {
            lines.append("unique \(constraint)")
        }
        for index in entity.indexes.sorted(by: { $0.name < $1.name }) {
            let elements = index.elements.map { "\($0.property)\($0.ascending ? "" : " desc")" }
            lines.append("index \(index.name) " + elements.joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// ` modifier=<value>` for a property with a hash modifier, else nothing.
    private static func modifierSuffix(_ modifier: String?) -> String {
        modifier.map { " modifier=\($0)" } ?? ""
    }
}
