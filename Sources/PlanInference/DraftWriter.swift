// Writes a draft as the YAML a person would write: the plan in the layout of docs/PlanFormat.md
// (short mappings in flow style, nested records in block style) and the model in the layout of
// docs/ModelFiles.md, each decision a person should check carrying its comment.
// Invariant: every text is written as a plain scalar only when YAML reads it back as the same
// text; anything else is double-quoted.
import Foundation
import GraphStore

/// Turns a ``Draft`` into plan and model text.
enum DraftWriter {
    /// The plan file's text.
    static func plan(_ draft: Draft, header: [String]) -> String {
        var lines = header.map { "# " + $0 }
        lines.append("model: \(scalar(draft.model))")
        lines.append("store: \(scalar(draft.store))")
        lines.append("sources:")
        for source in draft.sources {
            lines.append("  - file: \(scalar(source.file))")
            if let records = source.records { lines.append("    records: \(scalar(records))") }
            write(source.mapping, indent: "    ", into: &lines)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The entity, key, attributes and relationships of a mapping, then its notes.
    private static func write(_ mapping: DraftMapping, indent: String, into lines: inout [String]) {
        lines.append("\(indent)entity: \(scalar(mapping.entity))")
        if mapping.key.isEmpty {
            if let comment = mapping.keyComment { lines.append("\(indent)# \(clean(comment))") }
        } else {
            lines.append("\(indent)key: \(list(mapping.key))" + trailing(mapping.keyComment))
        }
        if !mapping.attributes.isEmpty {
            lines.append("\(indent)attributes:")
            for attribute in mapping.attributes {
                var options: [String] = []
                if attribute.dateFormat != nil || attribute.nullTokens != nil {
                    options.append("field: \(scalar(attribute.field))")
                    if let format = attribute.dateFormat { options.append("date: \(scalar(format))") }
                    if let tokens = attribute.nullTokens { options.append("null: \(list(tokens))") }
                }
                let value = options.isEmpty ? scalar(attribute.field) : "{" + options.joined(separator: ", ") + "}"
                lines.append("\(indent)  \(attribute.attribute): \(value)" + trailing(attribute.comment))
            }
        }
        if !mapping.relationships.isEmpty {
            lines.append("\(indent)relationships:")
            for relationship in mapping.relationships {
                if let nested = relationship.nested {
                    lines.append("\(indent)  \(relationship.relationship):" + trailing(relationship.comment))
                    lines.append("\(indent)    field: \(scalar(relationship.field))")
                    lines.append("\(indent)    nested:")
                    write(nested, indent: indent + "      ", into: &lines)
                    continue
                }
                var options = ["field: \(scalar(relationship.field))"]
                if let split = relationship.split { options.append("split: \(scalar(split))") }
                if let match = relationship.match {
                    options.append("match: \(match.count == 1 ? scalar(match[0]) : list(match))")
                }
                if let missing = relationship.missing { options.append("missing: \(missing)") }
                lines.append(
                    "\(indent)  \(relationship.relationship): {" + options.joined(separator: ", ") + "}"
                        + trailing(relationship.comment))
            }
        }
        for note in mapping.notes { lines.append("\(indent)# \(clean(note))") }
    }

    /// The model file's text.
    static func model(_ draft: Draft, entities: [DraftEntity], header: [String]) -> String {
        var lines = header.map { "# " + $0 }
        lines.append("name: \(scalar(draft.modelName))")
        lines.append("entities:")
        for entity in entities {
            lines.append("  \(entity.name):")
            if !entity.attributes.isEmpty {
                lines.append("    attributes:")
                for attribute in entity.attributes {
                    let type =
                        attribute.optional
                        ? attribute.type.rawValue : "{type: \(attribute.type.rawValue), optional: false}"
                    lines.append("      \(attribute.name): \(type)" + trailing(attribute.comment))
                }
            }
            if !entity.relationships.isEmpty {
                lines.append("    relationships:")
                for relationship in entity.relationships {
                    var options = ["destination: \(relationship.destination)", "inverse: \(relationship.inverse)"]
                    if relationship.toMany { options.append("toMany: true") }
                    lines.append("      \(relationship.name): {" + options.joined(separator: ", ") + "}")
                }
            }
            if let unique = entity.unique { lines.append("    unique: [\(list(unique))]") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Scalars

    /// Words YAML reads as something other than text when plain.
    private static let specialWords: Set<String> = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ]

    /// `text` plain when YAML reads it back as that text (in flow collections too), else double-quoted.
    static func scalar(_ text: String) -> String {
        let plain =
            !text.isEmpty && !specialWords.contains(text.lowercased())
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-/".contains($0)) }
            && text.first.map { $0.isLetter || $0 == "_" || $0 == "." || $0 == "/" } == true
        // YAML's double-quoted scalars read JSON's escapes.
        return plain ? text : JSONString.quoted(text)
    }

    /// `[a, b]`.
    private static func list(_ texts: [String]) -> String {
        "[" + texts.map(scalar).joined(separator: ", ") + "]"
    }

    /// `  # comment`, or nothing.
    private static func trailing(_ comment: String?) -> String {
        comment.map { "  # " + clean($0) } ?? ""
    }

    /// A comment on one line.
    private static func clean(_ comment: String) -> String {
        comment.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }
}
