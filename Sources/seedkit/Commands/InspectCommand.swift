// `seedkit inspect STORE [--json] [--model MODEL]`: a store's layout, metadata and per-entity
// object counts, read from the store alone: a SeedKit store carries its model; a Core
// Data–layout store needs none (its metadata property list is shown with its hashes in base64,
// its counts come from the entity numbers `Z_PRIMARYKEY` names). With a versioned model it also
// names the store's version: the one whose hashes equal the store's (the model hash of a SeedKit
// store, the entity version hashes of a Core Data one), or none, saying why.
import ArgumentParser
import Foundation
import GraphStore
import ModelFiles
import PropertyLists

/// Prints a store's layout, metadata and object counts.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's layout, metadata and how many objects each entity has.",
        discussion: """
            Works on SeedKit stores and on Core Data stores (no model needed). A Core Data store's \
            metadata is its Z_METADATA property list: binary values (the entity version hashes) in \
            base64, the store UUID as store.uuid. With --model, the store's version of that model \
            is named: the version whose hashes equal the store's.
            """)

    @Argument(help: "The store file.")
    var store: String

    @Flag(
        help:
            "Print {\"layout\": …, \"metadata\": {…}, \"entities\": {\"Item\": {\"count\": N}, …}} on standard output."
    )
    var json = false

    @Option(
        help: ArgumentHelp(
            "A versioned model (.xcdatamodeld, a versions file, or one model): name the store's version of it.",
            valueName: "model"))
    var model: String?

    @OptionGroup var reading: StoreReadOptions

    struct Report: Encodable {
        struct Count: Encodable { var count: Int }
        var layout: String
        var metadata: [String: MetadataValue]
        var entities: [String: Count]
        /// The store's version of `--model` (nil without it).
        var modelVersion: ModelVersionMatch?

        enum CodingKeys: String, CodingKey {
            case layout, metadata, entities, modelVersion, currentModelVersion, modelVersionNote
        }

        /// The keys of `--model` only with it, and `modelVersion` then null when no version matches.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(layout, forKey: .layout)
            try container.encode(metadata, forKey: .metadata)
            try container.encode(entities, forKey: .entities)
            guard let modelVersion else { return }
            try container.encode(modelVersion.name, forKey: .modelVersion)
            try container.encode(modelVersion.current, forKey: .currentModelVersion)
            try container.encodeIfPresent(modelVersion.note, forKey: .modelVersionNote)
        }
    }

    /// The version of `--model` a store was made with.
    struct ModelVersionMatch {
        /// The version whose hashes equal the store's; nil when none does.
        var name: String?
        /// The model's current version, when it names one.
        var current: String?
        /// Why no version matches (nil when one does).
        var note: String?

        /// The store's version among the versions of the model at `model`, from its `metadata`.
        ///
        /// - Throws: ``ModelError`` when the model cannot be loaded.
        init(of metadata: StoreMetadata, model: String) throws {
            let versions = try ModelVersionSet.load(from: model)
            name = versions.version(matching: metadata)?.name
            current = versions.currentName
            guard name == nil else { return }
            let names = versions.names.joined(separator: ", ")
            if metadata.coreDataEntityHashes != nil {
                note = "no version of \(model) (\(names)) has the store's entity version hashes"
            } else if metadata.modelHash != nil {
                note = "no version of \(model) (\(names)) has the store's model hash"
            } else {
                note = "the store records no model hash to match with \(model)"
            }
        }

        /// One line of text: the version (and whether it is the current one), or the note.
        var text: String {
            guard let name else { return "none: \(note ?? "")" }
            guard let current else { return name }
            return name == current ? "\(name) (current)" : "\(name) (the current version is \(current))"
        }
    }

    func run() throws {
        let report: Report
        do {
            let summary = try PersistentStore.summary(at: store, verifyIntegrity: reading.verify)
            report = Report(
                layout: summary.layout, metadata: Self.metadata(summary.metadata),
                entities: summary.objectCounts.mapValues { Report.Count(count: $0) },
                modelVersion: try model.map { try ModelVersionMatch(of: summary.metadata, model: $0) })
        } catch {
            throw DataFailure.exit("\(error)")
        }
        if json {
            try JSONOutput.print(report)
            return
        }
        print("store \(store)")
        print("  layout: \(report.layout)")
        if let modelVersion = report.modelVersion { print("  model version: \(modelVersion.text)") }
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
