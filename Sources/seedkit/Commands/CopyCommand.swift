// `seedkit copy --from SRC --to DST [--entities A,B] [--where "Entity: predicate"]…
// [--on-conflict update|keep|fail] [--batch-size N] [--json]`: deep copy of object graphs between stores.
import ArgumentParser
import DeepCopy
import Foundation
import GraphStore

/// Copies objects and their relationships from one store into another.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Deep-copy objects and their relationships into another store, merging by unique keys.",
        discussion: """
            The target is created with the source's model when it does not exist. Objects are \
            matched by their entity's unique constraint; entities without one are copied once each. \
            A failure leaves the target as it was.
            """)

    @Option(help: "The store to copy from (opened read-only).")
    var from: String

    @Option(help: "The store to copy into.")
    var to: String

    @Option(help: "Comma-separated entities to copy (default: all; sub-entities included).")
    var entities: String?

    @Option(
        name: .customLong("where"), help: "\"Entity: predicate\" — copy only matching objects of Entity (repeatable).")
    var filters: [String] = []

    @Option(
        name: .customLong("key"),
        help:
            "\"Entity: attr,attr\" — match Entity's objects by these attributes (repeatable; default: its unique constraint)."
    )
    var keys: [String] = []

    @Option(name: .customLong("on-conflict"), help: "update, keep or fail when a key matches a target object.")
    var onConflict: CopyConflictPolicy = .update

    @Option(
        name: .customLong("batch-size"),
        help: "Source rows per committed batch (default \(DeepCopyOptions().batchSize)).")
    var batchSize: Int?

    @Flag(help: "Print the report as JSON on standard output.")
    var json = false

    func validate() throws {
        for filter in filters where !filter.contains(":") {
            throw ValidationError("--where takes \"Entity: predicate\", got \"\(filter)\"")
        }
        for key in keys where !key.contains(":") {
            throw ValidationError("--key takes \"Entity: attr,attr\", got \"\(key)\"")
        }
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() throws {
        let report: CopyReport
        do {
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            let source = try PersistentStore.open(at: from, options: readOnly)
            let target = try PersistentStore.open(
                at: to, model: FileManager.default.fileExists(atPath: to) ? nil : source.model)
            var options = DeepCopyOptions()
            options.entities = entities.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            options.onConflict = onConflict
            if let batchSize { options.batchSize = batchSize }
            for filter in filters {
                let parts = filter.split(separator: ":", maxSplits: 1)
                let entity = parts[0].trimmingCharacters(in: .whitespaces)
                options.predicates[entity] = try FetchPredicate(format: String(parts[1]))
            }
            for key in keys {
                let parts = key.split(separator: ":", maxSplits: 1)
                options.keys[parts[0].trimmingCharacters(in: .whitespaces)] =
                    parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            report = try DeepCopier(from: source, to: target, options: options).run()
        } catch {
            throw DataFailure.exit("\(error)")
        }
        if json {
            try JSONOutput.print(report)
        } else {
            print(report.summary)
            for warning in report.warnings { print("warning: \(warning)") }
            print(String(format: "copied into %@ in %.2f s", to, report.seconds))
        }
    }
}

extension CopyConflictPolicy: ExpressibleByArgument {}
