// `seedkit inspect STORE [--json]`: a store's metadata and per-entity object counts, read from
// the store alone (it carries its model).
import ArgumentParser
import Foundation
import GraphStore

/// Prints a store's metadata and object counts.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's metadata and how many objects each entity has.")

    @Argument(help: "The store file.")
    var store: String

    @Flag(help: "Print {\"metadata\": {…}, \"entities\": {\"Item\": {\"count\": N}, …}} on standard output.")
    var json = false

    @OptionGroup var reading: StoreReadOptions

    struct Report: Encodable {
        struct Count: Encodable { var count: Int }
        var metadata: [String: String]
        var entities: [String: Count]
    }

    func run() throws {
        let report: Report
        do {
            let opened = try PersistentStore.open(at: store, options: reading.storeOptions)
            var metadata = try opened.metadata().values
            metadata[StoreMetadata.Key.modelJSON] = nil
            report = Report(
                metadata: metadata, entities: try opened.objectCounts().mapValues { Report.Count(count: $0) })
        } catch {
            throw DataFailure.exit("\(error)")
        }
        if json {
            try JSONOutput.print(report)
            return
        }
        print("store \(store)")
        for (key, value) in report.metadata.sorted(by: { $0.key < $1.key })
        where !key.hasPrefix(StoreMetadata.Key.entityHashPrefix) {
            print("  \(key): \(value)")
        }
        for (name, count) in report.entities.sorted(by: { $0.key < $1.key }) {
            print("  \(name): \(counted(count.count, "object"))")
        }
    }
}
