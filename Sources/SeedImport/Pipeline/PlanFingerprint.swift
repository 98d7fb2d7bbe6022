// A stable fingerprint of a plan: the same plan gives the same text in every process (sorted
// keys, no addresses), so a resumed run recognises the run it continues.
import Crypto
import GraphStore

extension ImportPlan {
    /// A hex SHA-256 of the plan's canonical text.
    var fingerprint: String {
        var lines = [
            "model \(model ?? "-")", "store \(store ?? "-")", "seed \(seedVersion ?? "-")", "batch \(batchSize)",
            "base \(baseDirectory)",
        ]
        for (index, source) in sources.enumerated() {
            lines.append(
                "source \(index) \(source.file) \(source.format?.rawValue ?? "-") \(source.records ?? "-") "
                    + "\(source.csv.map { "\($0.delimiter ?? "-")\($0.quote ?? "-")\($0.header.map(String.init) ?? "-")" } ?? "-")"
            )
            lines += Self.canonical(source.mapping, prefix: "  ")
        }
        return SHA256.hash(data: Array(lines.joined(separator: "\n").utf8)).hex
    }

    private static func canonical(_ mapping: RecordMapping, prefix: String) -> [String] {
        var lines = [
            "\(prefix)entity \(mapping.entity) key \(mapping.key ?? []) \(mapping.onConflict.rawValue)"
                + (mapping.entityField.map { " entityField \($0)" } ?? "")
        ]
        for (name, attribute) in (mapping.attributes ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("\(prefix)attribute \(name) \(String(describing: attribute))")
        }
        for (name, relationship) in mapping.relationships.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "\(prefix)relationship \(name) \(relationship.field ?? name) \(relationship.match ?? []) "
                    + "\(relationship.missing.rawValue) \(relationship.split ?? "-") \(relationship.members.rawValue)"
                    + (relationship.nullTokens.map { " null \($0)" } ?? "")
                    + (relationship.splitPattern.map { " pattern \($0)" } ?? ""))
            if let nested = relationship.nested {
                lines += canonical(nested.mapping, prefix: prefix + "  ")
            }
        }
        return lines
    }
}
