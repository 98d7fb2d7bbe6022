// What a plan will do once the model's conventions are applied (`seedkit plan explain`): for
// every source, the key, each attribute's fields, date format and each relationship's fields,
// match, missing policy and nested records, each with where it came from — the plan, the model's
// userInfo, or a default — and what convention mapping leaves out. It is read from the mappings
// the importer compiles (against the sources' headers), so it says what a run will do.
import GraphStore
import RecordReaders

/// The effective mapping of a plan, in words.
///
/// ```swift
/// let plan = try ValidatedPlan(file: "plan.yaml")
/// print(try PlanExplanation(plan).text)
/// // sources[0] people.json → Person
/// //   key: personID (model: Person's relatedByAttribute; a record without it is inserted)
/// //   …
/// ```
public struct PlanExplanation: Sendable {
    /// The explanation, one line per source, key, attribute and relationship.
    public let lines: [String]

    /// The explanation of `plan`.
    ///
    /// - Throws: ``PlanErrors`` when a mapping does not compile or a source's header cannot be read.
    public init(_ plan: ValidatedPlan) throws(PlanErrors) {
        let mappings = try PlanMappings(plan: plan.plan, model: plan.model, planFile: plan.path) {
            index throws(PlanErrors) in
            try ImportRun.header(of: plan.plan, source: index, planFile: plan.path)
        }
        var writer = Writer(model: plan.model)
        for (index, source) in plan.plan.sources.enumerated() {
            writer.line(0, "sources[\(index)] \(source.file) → \(source.entity)")
            writer.explain(mappings.sources[index], given: source.mapping, depth: 1)
        }
        if !mappings.notes.isEmpty {
            writer.line(0, "left out:")
            for note in mappings.notes { writer.line(1, note) }
        }
        lines = writer.lines
    }

    /// The explanation as text, a line break after each line.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Writes the lines of mappings, nested ones indented under their relationship.
    private struct Writer {
        let model: ObjectModel
        var lines: [String] = []

        mutating func line(_ depth: Int, _ text: String) {
            lines.append(String(repeating: "  ", count: depth) + text)
        }

        mutating func explain(_ mapping: CompiledMapping, given: RecordMapping?, depth: Int) {
            line(depth, "key: " + key(of: mapping, given: given))
            for attribute in mapping.attributes {
                line(depth, attribute.name + " ← " + self.attribute(attribute, of: mapping.entity, given: given))
            }
            for relationship in mapping.relationships {
                let given = given?.relationships[relationship.relationship.name]
                line(depth, relationship.relationship.name + " ← " + self.relationship(relationship, given: given))
                if case .nested(let nested) = relationship.source {
                    line(depth + 1, "nested \(nested.entity.name) records (plan)")
                    explain(nested, given: given?.nested?.mapping, depth: depth + 2)
                }
                for nested in relationship.dataNesting?.mappings ?? [] {
                    let name = nested.entity.name
                    let origin =
                        relationship.dataNesting?.typeField.map {
                            " where \($0.text) is \(name) (model: \(PlanConventions.relationshipType))"
                        } ?? " (default)"
                    line(depth + 1, "objects: nested \(name) records\(origin)")
                    explain(nested, given: nil, depth: depth + 2)
                }
            }
        }

        private func key(of mapping: CompiledMapping, given: RecordMapping?) -> String {
            let names = mapping.keyNames.joined(separator: ", ")
            guard !names.isEmpty else { return "none: every record inserts" }
            if given?.key != nil { return "\(names) (plan)" }
            let origin =
                PlanConventions.declaredKey(of: mapping.entity, model: model).map {
                    "model: \($0.entity)'s \(PlanConventions.relatedByAttribute)"
                }
                ?? (given == nil
                    ? "the reference's match" : "default: \(PlanConventions.defaultIdentifier(of: mapping.entity))")
            return "\(names) (\(origin); a record without it is inserted)"
        }

        private func attribute(_ compiled: CompiledAttribute, of entity: ModelEntity, given: RecordMapping?) -> String {
            let plan = given?.attributes?[compiled.name]
            let userInfo = entity.attribute(named: compiled.name)?.declaration.userInfo ?? [:]
            var text: String
            if let constant = plan?.value {
                text = "the constant \"\(constant)\" (plan)"
            } else {
                text = compiled.fields.map(\.text).joined(separator: ", then ")
                text += plan?.field != nil ? " (plan)" : fieldOrigin(userInfo, fallbacks: compiled.fields.count - 1)
            }
            if entity.attribute(named: compiled.name)?.type == .date {
                if let format = plan?.dateFormat {
                    text += "; date \(format) (plan)"
                } else if let format = userInfo[PlanConventions.dateFormat] {
                    text += "; date \(format) (model: \(PlanConventions.dateFormat))"
                } else {
                    text +=
                        "; date iso8601 or \(PlanConventions.defaultDatePattern), numbers as seconds since 1970 (default)"
                }
            }
            return text
        }

        private func relationship(_ compiled: CompiledRelationship, given: RelationshipMapping?) -> String {
            var text = compiled.fields.map(\.text).joined(separator: ", then ")
            text +=
                given?.field != nil
                ? " (plan)"
                : fieldOrigin(compiled.relationship.declaration.userInfo, fallbacks: compiled.fields.count - 1)
            guard case .reference(_, _, let match, let missing, let split) = compiled.source else { return text }
            var matchOrigin = "plan"
            if given?.match == nil,
                let origin = try? PlanConventions.conventionalMatch(for: compiled.relationship, model: model).origin
            {
                matchOrigin = (origin.hasSuffix(PlanConventions.relatedByAttribute) ? "model: " : "default: ") + origin
            }
            text += "; match \(match.joined(separator: ", ")) (\(matchOrigin))"
            text += "; missing: \(missing.rawValue)"
            if let split { text += "; split \"\(split.planText)\"" }
            if compiled.relationship.isToMany { text += "; members: \(compiled.members.rawValue)" }
            return text
        }

        /// Where conventional fields come from: `mappedKeyName` (and its fall-backs) or the name.
        private func fieldOrigin(_ userInfo: [String: String], fallbacks: Int) -> String {
            guard userInfo[PlanConventions.mappedKeyName] != nil else { return " (default: the name)" }
            let more = fallbacks > 0 ? " … .\(fallbacks)" : ""
            return " (model: \(PlanConventions.mappedKeyName)\(more))"
        }
    }
}
