// `seedkit inspect STORE [--json]`: a store's layout, metadata and per-entity object counts, read
// from the store alone: a SeedKit store carries its model; a Core Data–layout store needs none
// (its metadata property list is shown with its hashes in base64, its counts come from the
// entity numbers `Z_PRIMARYKEY` names).
import ArgumentParser
import Foundation
import GraphStore
import PropertyLists

/// Prints a store's layout, metadata and object counts.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's layout, metadata and how many objects each entity has.",
        discussion: """
            Works on SeedKit stores and on Core Data stores (no model needed). A Core Data store's \
            metadata is its Z_METADATA property list: binary values (the entity version hashes) in \
            base64, the store UUID as store.uuid.
            """)

    @Argument(help: "The store file.")
    var store: String

    @Flag(
        help:
            "Print {\"layout\": …, \"metadata\": {…}, \"entities\": {\"Item\": {\"count\": N}, …}} on standard output."
    )
    var json = false

    @OptionGroup var reading: StoreReadOptions

    struct Report: Encodable {
        struct Count: Encodable { var count: Int }
        var layout: String
        var metadata: [String: MetadataValue]
        var entities: [String: Count]
    }

    func run() throws {
        let report: Report
        do {
            let summary = try PersistentStore.summary(at: store, verifyIntegrity: reading.verify)
            report = Report(
                layout: summary.layout, metadata: Self.metadata(summary.metadata),
                entities: summary.objectCounts.mapValues { Report.Count(count: $0) })
        } catch {
            throw DataFailure.exit("\(error)")
        }
        if json {
            try JSONOutput.print(report)
            return
        }
        print("store \(store)")
        print("  layout: \(report.layout)")
        for (key, value) in report.metadata.sorted(by: { $0.key < $1.key })
        where !key.hasPrefix(StoreMetadata.Key.entityHashPrefix) {
            print("  \(key): \(value.text)")
        }
        for (name, count) in report.entities.sorted(by: { $0.key < $1.key }) {
            print("  \(name): \(counted(count.count, "object"))")
        }
    }

    /// Every metadata key but the embedded model: a Core Data store's property list with its
    /// typed values, plus the keys SeedKit keeps beside it (store UUID, a run's state).
    static func metadata(_ metadata: StoreMetadata) -> [String: MetadataValue] {
        var values = metadata.values.mapValues(MetadataValue.string)
        values[StoreMetadata.Key.modelJSON] = nil
        for (key, value) in metadata.propertyList ?? [:] { values[key] = MetadataValue(value) }
        return values
    }
}

/// A metadata value as `inspect` shows it: property-list values as JSON (binary data in base64,
/// dates in ISO 8601).
enum MetadataValue: Encodable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case array([MetadataValue])
    case dictionary([String: MetadataValue])

    init(_ value: PropertyListValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .boolean(let flag): self = .boolean(flag)
        case .date(let date): self = .string(ISO8601DateFormatter().string(from: date))
        case .data(let data): self = .string(data.base64EncodedString())
        case .uid(let uid): self = .integer(Int64(truncatingIfNeeded: uid))
        case .array(let items): self = .array(items.map(MetadataValue.init))
        case .dictionary(let dictionary):
            self = .dictionary(Dictionary(dictionary.map { ($0.key, MetadataValue($0.value)) }) { first, _ in first })
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .array(let items): try container.encode(items)
        case .dictionary(let dictionary): try container.encode(dictionary)
        }
    }

    /// One line of text: strings as they are, everything else as compact JSON.
    var text: String {
        if case .string(let text) = self { return text }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
