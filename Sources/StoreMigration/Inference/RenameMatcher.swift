// Which element of the source model an element of the destination model continues: by name, or
// through a renaming identifier (Xcode's Renaming ID, `elementID`), never by similarity,
// position or type. canonical(x) = x.renamingIdentifier ?? x.name, and a destination element D
// continues a source element S iff canonical(D) is canonical(S) or S's name. A destination
// element matching two source elements, or a source element matched by two destination
// elements, is ambiguous: reported, never resolved by guessing.

import GraphStore

/// An element a renaming identifier can rename: an entity, attribute or relationship.
struct RenamableElement {
    let name: String
    let renamingIdentifier: String?

    var canonical: String { renamingIdentifier ?? name }
}

/// Matches destination elements to source elements.
enum RenameMatcher {
    /// For each destination element (by position), the position of the source element it
    /// continues, nil for a new element; and a line per ambiguity, naming both sides
    /// (`subject` turns an element's name into `Entity.name` or `Entity`).
    static func match(
        destination: [RenamableElement], source: [RenamableElement], subject: (String) -> String
    ) -> (matches: [Int?], ambiguities: [String]) {
        var matches: [Int?] = []
        var ambiguities: [String] = []
        for element in destination {
            let candidates = source.indices.filter {
                element.canonical == source[$0].canonical || element.canonical == source[$0].name
            }
            if candidates.count > 1 {
                ambiguities.append(
                    "\(subject(element.name)) could continue "
                        + candidates.map { subject(source[$0].name) }.joined(separator: " or "))
            }
            matches.append(candidates.count == 1 ? candidates[0] : nil)
        }
        for sourceIndex in source.indices {
            let claimants = matches.indices.filter { matches[$0] == sourceIndex }
            guard claimants.count > 1 else { continue }
            ambiguities.append(
                "\(subject(source[sourceIndex].name)) is continued by "
                    + claimants.map { subject(destination[$0].name) }.joined(separator: " and "))
            for claimant in claimants { matches[claimant] = nil }
        }
        return (matches, ambiguities)
    }
}

extension ModelEntity {
    /// The entity as the matcher sees it.
    var renamable: RenamableElement { RenamableElement(name: name, renamingIdentifier: declaration.renamingIdentifier) }
}

extension ModelAttribute {
    /// The attribute as the matcher sees it.
    var renamable: RenamableElement { RenamableElement(name: name, renamingIdentifier: declaration.renamingIdentifier) }
}

extension ModelRelationship {
    /// The relationship as the matcher sees it.
    var renamable: RenamableElement { RenamableElement(name: name, renamingIdentifier: declaration.renamingIdentifier) }
}
