// Names what differs between two models' schemas, property by property, for clear
// "incompatible model" errors and copy-compatibility checks.

/// Lists the schema differences between two models.
///
/// ```swift
/// ModelDifference.between(stored, requested)
/// // ["Item.price: attribute price double … → attribute price string …", "Tag: entity added"]
/// ```
public enum ModelDifference {
    /// One line per difference, `Entity.property: what changed`, sorted; empty when the schemas match.
    public static func between(_ old: ObjectModel, _ new: ObjectModel) -> [String] {
        var differences: [String] = []
        let oldEntities = Dictionary(uniqueKeysWithValues: old.entities.map { ($0.name, $0) })
        let newEntities = Dictionary(uniqueKeysWithValues: new.entities.map { ($0.name, $0) })
        for name in Set(oldEntities.keys).union(newEntities.keys).sorted() {
            switch (oldEntities[name], newEntities[name]) {
            case (nil, _?): differences.append("\(name): entity added")
            case (_?, nil): differences.append("\(name): entity removed")
            case (let before?, let after?) where before.versionHash != after.versionHash:
                differences += lineDifferences(
                    entity: name,
                    before: ModelHasher.canonicalText(of: before.declaration),
                    after: ModelHasher.canonicalText(of: after.declaration))
            default: break
            }
        }
        return differences
    }

    /// Facts an entity states once, compared by their first word alone, so a new parent reads
    /// `Item.parent: parent Thing → parent Other` rather than one fact removed and one added.
    private static let singleFacts: Set<Substring> = ["parent", "abstract"]

    /// Compares canonical schema lines keyed by their first two words (`attribute price`), or
    /// the first word alone for ``singleFacts``.
    private static func lineDifferences(entity: String, before: String, after: String) -> [String] {
        func keyed(_ text: String) -> [String: String] {
            var lines: [String: String] = [:]
            for line in text.split(separator: "\n").map(String.init) {
                let words = line.split(separator: " ")
                let width = words.first.map { singleFacts.contains($0) } == true ? 1 : 2
                lines[words.prefix(width).joined(separator: " ")] = line
            }
            return lines
        }
        let old = keyed(before)
        let new = keyed(after)
        return Set(old.keys).union(new.keys).sorted().compactMap { key in
            let subject = key.split(separator: " ").dropFirst().first.map(String.init) ?? key
            switch (old[key], new[key]) {
            case (nil, let line?): return "\(entity).\(subject): added (\(line))"
            case (let line?, nil): return "\(entity).\(subject): removed (\(line))"
            case (let was?, let now?) where was != now: return "\(entity).\(subject): \(was) → \(now)"
            default: return nil
            }
        }
    }
}
