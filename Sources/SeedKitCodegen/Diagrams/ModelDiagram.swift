// Pictures of a model (`seedkit model MODEL --format mermaid|dot`): a Mermaid class diagram,
// which GitHub and many Markdown viewers draw, and a Graphviz graph for `dot -Tsvg`. Both show
// entities with their attributes and types, associations with a multiplicity at each end and
// ordered to-manys marked, and inheritance as hollow-headed arrows to the parent.
import Foundation
import GraphStore

/// Diagram text for a model.
///
/// ```swift
/// print(ModelDiagram.mermaid(model))   // classDiagram …, for a ```mermaid block
/// print(ModelDiagram.dot(model))       // digraph "Catalog" { … }, for dot -Tsvg
/// ```
public enum ModelDiagram {
    /// The diagram languages.
    public enum Format: String, Sendable, CaseIterable {
        /// A Mermaid `classDiagram`.
        case mermaid
        /// A Graphviz `digraph`.
        case dot
    }

    /// The diagram of `model` in `format`, ending in a newline.
    public static func text(of model: ObjectModel, format: Format) -> String {
        switch format {
        case .mermaid: mermaid(model)
        case .dot: dot(model)
        }
    }

    /// A Mermaid class diagram: a class per entity (`<<abstract>>` when abstract), an association
    /// per relationship and its inverse (`Item "0..*" -- "0..1" Unit : unit / items`; a
    /// relationship without inverse is an arrow), and `Parent <|-- Child` for inheritance.
    public static func mermaid(_ model: ObjectModel) -> String {
        let facts = DiagramFacts(model)
        var lines = SourceLines()
        lines.add("classDiagram")
        for entity in facts.entities {
            if entity.attributes.isEmpty && !entity.isAbstract {
                lines.add("    class \(entity.name)")
                continue
            }
            lines.add("    class \(entity.name) {")
            if entity.isAbstract { lines.add("        <<abstract>>") }
            for attribute in entity.attributes { lines.add("        \(attribute.type) \(attribute.name)") }
            lines.add("    }")
        }
        for entity in facts.entities {
            if let parent = entity.parent { lines.add("    \(parent) <|-- \(entity.name)") }
        }
        for association in facts.associations {
            if let sourceMultiplicity = association.sourceMultiplicity {
                lines.add(
                    "    \(association.source) \"\(sourceMultiplicity)\" -- \"\(association.destinationMultiplicity)\" "
                        + "\(association.destination) : \(association.label)")
            } else {
                lines.add(
                    "    \(association.source) --> \"\(association.destinationMultiplicity)\" "
                        + "\(association.destination) : \(association.label)")
            }
        }
        return lines.text
    }

    /// A Graphviz digraph: an HTML-like table per entity (its name, then `name: type` lines), an
    /// undirected edge per association with its multiplicities at the ends (an arrow for a
    /// relationship without inverse), and an `empty`-headed edge from each sub-entity to its parent.
    public static func dot(_ model: ObjectModel) -> String {
        let facts = DiagramFacts(model)
        var lines = SourceLines()
        lines.block("digraph \(dotID(facts.modelName))") { graph in
            graph.add("rankdir=LR;")
            graph.add("node [shape=plaintext, fontname=\"Helvetica\", fontsize=10];")
            graph.add("edge [fontname=\"Helvetica\", fontsize=9];")
            for entity in facts.entities {
                graph.add("\(dotID(entity.name)) [label=<\(dotTable(entity))>];")
            }
            for entity in facts.entities {
                if let parent = entity.parent {
                    graph.add("\(dotID(entity.name)) -> \(dotID(parent)) [arrowhead=empty];")
                }
            }
            for association in facts.associations {
                var attributes = ["headlabel=\(dotID(association.destinationMultiplicity))"]
                if let sourceMultiplicity = association.sourceMultiplicity {
                    attributes = ["dir=none", "taillabel=\(dotID(sourceMultiplicity))"] + attributes
                } else {
                    attributes.insert("arrowhead=vee", at: 0)
                }
                attributes.append("label=\(dotID(association.label))")
                graph.add(
                    "\(dotID(association.source)) -> \(dotID(association.destination)) ["
                        + attributes.joined(separator: ", ") + "];")
            }
        }
        return lines.text
    }

    /// A quoted DOT identifier.
    private static func dotID(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The entity as an HTML-like table: a header cell, then one cell of left-aligned attribute lines.
    private static func dotTable(_ entity: DiagramFacts.Entity) -> String {
        let name = entity.isAbstract ? "<i>\(entity.name)</i><br/>&laquo;abstract&raquo;" : "<b>\(entity.name)</b>"
        var table = "<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">"
        table += "<tr><td bgcolor=\"#e8e8e8\">\(name)</td></tr>"
        if !entity.attributes.isEmpty {
            let rows = entity.attributes.map { "\(htmlEscaped($0.name)): \(htmlEscaped($0.type))<br align=\"left\"/>" }
            table += "<tr><td align=\"left\">" + rows.joined() + "</td></tr>"
        }
        return table + "</table>"
    }

    private static func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
