// `seedkit export STORE --entity E [--format csv|json|ndjson|xml] [-o FILE] [--model MODEL]
// [--verify]`: one record per object in key order (sub-entities' included, with their entity's
// name; objects without a unique key with their ID), in a form that imports back through a plan
// naming only entity and key (and entityField for sub-entities). A Core Data store is read with
// its Xcode model (--model). FILE is written aside and renamed when complete: never half-written
// (not even by Ctrl-C).
import ArgumentParser
import Foundation
import GraphStore
import SeedImport

/// Exports one entity's objects.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one entity's objects as CSV, JSON, NDJSON or XML.",
        discussion: """
            Attributes are written by name (dates in ISO 8601 UTC, binary as base64); relationships \
            as the destination's unique key (to-one) or a list of keys (to-many, in order when \
            ordered; joined by ';' in CSV). An entity with sub-entities brings theirs: every \
            sub-entity's attributes and relationships, and an 'entity' column naming each object's \
            entity (a plan's entityField routes records by it). Objects of an entity without a \
            unique key get an 'object-id' column: the ID that relationships to them hold (a plan \
            re-links them with key: [object-id] and match: object-id).
            """)

    @Argument(help: "The store file.")
    var store: String

    @Option(help: "The entity to export (its sub-entities are included).")
    var entity: String

    @Option(help: "csv, json, ndjson or xml (default: from the output file's extension, else csv).")
    var format: ExportFormat?

    @Option(name: .shortAndLong, help: "The output file (default: standard output).")
    var output: String?

    @OptionGroup var reading: StoreReadOptions
    @OptionGroup var storeModel: StoreModelOptions

    func run() throws {
        let chosen =
            format ?? output.flatMap { ExportFormat(rawValue: URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            ?? .csv
        do {
            let opened = try storeModel.open(store, options: reading.storeOptions, versions: try storeModel.versions())
            let exporter = try Exporter(store: opened, entity: entity, format: chosen)
            guard let output else {
                _ = try exporter.export(to: nil)
                return
            }
            let count = try Self.export(with: exporter, to: output)
            FileHandle.standardError.write(Data("exported \(counted(count, "\(entity) object"))\n".utf8))
        } catch {
            throw DataFailure.exit("\(error)")
        }
    }

    /// Writes the export to `FILE.seedkit-export` and renames it to `output` when complete, so
    /// `output` is never half-written: a failure, Ctrl-C or SIGTERM removes the temporary file and
    /// leaves `output` as it was. Returns the objects written.
    private static func export(with exporter: Exporter, to output: String) throws -> Int {
        let temporary = output + ".seedkit-export"
        do {
            let count = try SignalCancellation.endingAtOnce(cleanup: { unlink(temporary) }) {
                try exporter.export(to: temporary)
            }
            guard rename(temporary, output) == 0 else {
                throw StoreError(.fileSystem("cannot write: \(String(cString: strerror(errno)))"), path: output)
            }
            return count
        } catch {
            unlink(temporary)
            throw error
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
