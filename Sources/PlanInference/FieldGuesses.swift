// The guesses a draft makes about fields whatever the model: which field is a source's key (one
// whose values are all there and all different in the sample, preferring names like `id`, `code`
// and `sku`), how a CSV field separates the keys of a to-many (`;` or `|`), and the attribute names
// of flattened fields (the shortest path suffix that tells them apart: `code` and `networkCode`).
import GraphStore

/// Guesses about fields that the drafts with and without a model share.
enum FieldGuesses {
    /// Key-like names, in order of preference after `id` and `<entity>Id`.
    static let keyNames = ["code", "sku", "key", "uuid", "guid", "slug", "number", "name"]

    /// The field among `candidates` whose sampled values are all present and all different, and
    /// a comment saying it is a guess; nil when no field qualifies.
    static func key(among candidates: [(field: FieldSample, name: String)], entity: String, sampled: Int)
        -> (name: String, comment: String)?
    {
        let unique = candidates.filter { candidate in
            let texts = candidate.field.presentValues.compactMap(\.text)
            return sampled > 0 && texts.count == sampled && Set(texts).count == texts.count
        }
        func rank(_ name: String) -> Int {
            let folded = InferenceNames.folded(name)
            if folded == "id" { return 0 }
            if folded == InferenceNames.folded(entity) + "id" { return 1 }
            if let index = keyNames.firstIndex(of: folded) { return 3 + index }
            if folded.hasSuffix("id") { return 2 }
            return 3 + keyNames.count
        }
        guard
            let best = unique.enumerated().min(by: {
                (rank($0.element.name), $0.offset) < (rank($1.element.name), $1.offset)
            })?.element
        else { return nil }
        let records =
            switch sampled {
            case 1: "the 1 sampled record"
            case 2: "both sampled records"
            default: "all \(sampled) sampled records"
            }
        return (best.name, "a guess: \(best.field.path) has a value, a different one, in \(records)")
    }

    /// The comment for a source without a key.
    static let noKeyComment =
        "no key: no field has a value, a different one, in every sampled record, so every record inserts a new object"

    /// The separator of the keys in a CSV field of a to-many relationship: `;` or `|` when the
    /// sample uses it, `;` otherwise.
    static func split(of field: FieldSample) -> String {
        let texts = field.presentValues.compactMap(\.text)
        return texts.contains { $0.contains("|") } && !texts.contains { $0.contains(";") } ? "|" : ";"
    }

    /// Attribute names for `fields`: each field's own name in lower camel case, or as many of the
    /// names leading to it as tell it apart from the others — the shallowest of fields sharing a
    /// name keeps it (`properties.code` → `code`, `properties.network.code` → `networkCode`);
    /// numbered when even the whole paths clash.
    static func propertyNames(for fields: [FieldSample], taken: Set<String> = []) -> [String] {
        func name(_ field: FieldSample, depth: Int) -> String {
            InferenceNames.propertyName(field.components.suffix(depth).joined(separator: " "))
        }
        var depths = Array(repeating: 1, count: fields.count)
        var changed = true
        while changed {
            changed = false
            var owners: [String: [Int]] = [:]
            for index in fields.indices { owners[name(fields[index], depth: depths[index]), default: []].append(index) }
            for (_, indices) in owners where indices.count > 1 {
                // The shallowest fields keep the short name when they alone have it; the deeper go on.
                let shallowest = indices.map { fields[$0].components.count }.min() ?? 0
                let keepers = indices.filter { fields[$0].components.count == shallowest }
                for index in indices where depths[index] < fields[index].components.count {
                    if keepers.count == 1, keepers[0] == index { continue }
                    depths[index] += 1
                    changed = true
                }
            }
        }
        var used = taken
        return fields.indices.map { index in InferenceNames.unique(name(fields[index], depth: depths[index]), in: &used) }
    }
}
