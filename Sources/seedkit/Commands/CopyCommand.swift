// `seedkit copy --from SRC --to DST [--entities A,B] [--where "Entity: predicate"]…
// [--cut Entity.relationship]… [--bring-along Entity.relationship]…
// [--on-conflict update|keep|fail] [--batch-size N] [--model MODEL] [--layout seedkit|core-data]
// [--template EMPTY.sqlite] [--verify] [--json] [--quiet]`: deep copy of object graphs between
// stores (either may be a Core Data store, read and written with --model), with progress on
// standard error (docs/CLI.md); SIGINT or SIGTERM cancels it between batches, leaving the target
// as it was.
import ArgumentParser
import DeepCopy
import Foundation
import GraphStore
import ModelFiles

/// Copies objects and their relationships from one store into another.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Deep-copy objects and their relationships into another store, merging by unique keys.",
        discussion: """
            The target is created with the source's model when it does not exist. Objects are \
            matched by their entity's unique constraint; entities without one are copied once each. \
            A failure, Ctrl-C or SIGTERM leaves the target as it was (a target the copy created is \
            removed); a copy that was killed is undone by the next copy into the same target before \
            it starts. \
            A relationship links copied objects to the destinations copied anyway (a link to an \
            object left out stays unset), unless it is cut (--cut) or brings its destinations along \
            (--bring-along).
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

    @Option(
        name: .customLong("cut"),
        help: "Entity.relationship — never copy this relationship's links, nor its inverse's (repeatable).")
    var cuts: [String] = []

    @Option(
        name: .customLong("bring-along"),
        help:
            "Entity.relationship — copy the objects this relationship reaches from copied objects too, even those --entities or --where leave out, and link them (repeatable; transitive)."
    )
    var broughtAlong: [String] = []

    @Option(
        name: .customLong("on-conflict"),
        help:
            "update, keep or fail when a key matches a target object (update also gives its ordered lists the source's order; keep appends what they lacked)."
    )
    var onConflict: CopyConflictPolicy = .update

    @Option(
        name: .customLong("batch-size"),
        help: "Source rows per committed batch (default \(DeepCopyOptions().batchSize)).")
    var batchSize: Int?

    @OptionGroup var storeModel: StoreModelOptions

    @OptionGroup var newStore: NewStoreLayoutOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var reading: StoreReadOptions

    func validate() throws {
        for filter in filters where !filter.contains(":") {
            throw ValidationError("--where takes \"Entity: predicate\", got \"\(filter)\"")
        }
        for key in keys {
            let attributes = key.drop(while: { $0 != ":" }).dropFirst()
            guard key.contains(":"), attributes.contains(where: { $0 != "," && !$0.isWhitespace }) else {
                throw ValidationError("--key takes \"Entity: attr,attr\", got \"\(key)\"")
            }
        }
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
        for (flag, names) in [("--cut", cuts), ("--bring-along", broughtAlong)] {
            for name in names {
                let parts = name.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                    throw ValidationError("\(flag) takes Entity.relationship, got \"\(name)\"")
                }
            }
        }
        if let both = Set(cuts.map(Self.trimmed)).intersection(broughtAlong.map(Self.trimmed)).sorted().first {
            throw ValidationError("\(both) is given to both --cut and --bring-along")
        }
    }

    /// `Entity.relationship` without spaces around its parts.
    private static func trimmed(_ name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ".")
    }

    func run() async throws {
        let started = Date()
        let showsProgress = !output.quiet && !output.json
        let display = CopyProgressDisplay(enabled: showsProgress)
        let report: CopyReport
        do {
            let versions = try storeModel.versions()
            let source = try storeModel.open(from, options: reading.storeOptions, versions: versions)
            var options = try copyOptions()
            if showsProgress { options.batchProgress = { display.show($0) } }
            let to = self.to
            if FileManager.default.fileExists(atPath: to) {
                if newStore.isGiven {
                    throw ValidationError("\(to) exists: --layout and --template are for a new target")
                }
                let target = try storeModel.open(to, versions: versions)
                report = try await SignalCancellation.run { [options] in
                    try await BlockingWork.run(name: "seedkit.copy") { _ in
                        try DeepCopier(from: source, to: target, options: options).run()
                    }
                }
            } else {
                let (model, storeOptions) = (
                    try newTargetModel(source: source, versions: versions), newStore.storeOptions
                )
                report = try await SignalCancellation.run { [options] in
                    try await BlockingWork.run(name: "seedkit.copy") { _ in
                        try DeepCopier.copy(
                            from: source, toNewStoreAt: to, model: model, storeOptions: storeOptions, options: options)
                    }
                }
            }
            display.finish()
        } catch {
            display.finish()
            if output.json && !(error is CancelledBySignal) {
                try JSONOutput.print(JSONReport(failure: "\(error)", seconds: Date().timeIntervalSince(started)))
            }
            throw DataFailure.exit(error)
        }
        if output.json {
            try JSONOutput.print(JSONReport(report))
        } else if !output.quiet {
            print(report.summary)
            for warning in report.warnings { print("warning: \(warning)") }
            print(String(format: "copied into %@ in %.2f s", to, report.seconds))
        }
    }

    /// The model of a new target: the source's, unless a SeedKit source is copied into a new
    /// Core Data store and --model names the Xcode model to lay it out for.
    private func newTargetModel(source: PersistentStore, versions: ModelVersionSet?) throws -> ObjectModel? {
        guard let versions, newStore.chosen == .coreData,
            source.layout.rules.name != StoreLayoutKind.coreData.rawValue
        else { return nil }
        return try storeModel.chosen(from: versions, for: nil)
    }

    /// The copy's options from the flags (checked before any store is written).
    private func copyOptions() throws -> DeepCopyOptions {
        var options = DeepCopyOptions()
        options.entities = entities.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        options.onConflict = onConflict
        if let batchSize { options.batchSize = batchSize }
        for filter in filters {
            let parts = filter.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let entity = parts[0].trimmingCharacters(in: .whitespaces)
            options.predicates[entity] = try FetchPredicate(format: parts.count > 1 ? String(parts[1]) : "")
        }
        for name in cuts { options.relationships[Self.trimmed(name)] = .cut }
        for name in broughtAlong { options.relationships[Self.trimmed(name)] = .bringAlong }
        for key in keys {
            let parts = key.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            options.keys[parts[0].trimmingCharacters(in: .whitespaces)] =
                (parts.count > 1 ? parts[1] : "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        return options
    }
}

extension CopyCommand {
    /// The `--json` report (docs/CLI.md): per entity the counts every report has (`inserted`,
    /// `updated`, `unchanged`, `rejected`) beside the copy's own (`copied`, `matched`,
    /// `skipped`); the errors (the one that stopped a failed copy); warnings; seconds.
    struct JSONReport: Encodable {
        struct Counts: Encodable {
            var inserted: Int
            var updated: Int
            var unchanged: Int
            var rejected = 0
            var copied: Int
            var matched: Int
            var skipped: Int
        }

        struct Failure: Encodable {
            var message: String
        }

        var entities: [String: Counts] = [:]
        var errors: [Failure] = []
        var warnings: [String] = []
        var seconds: Double

        init(_ report: CopyReport) {
            entities = report.entities.mapValues { counts in
                Counts(
                    inserted: counts.copied, updated: counts.updated, unchanged: counts.unchanged,
                    copied: counts.copied, matched: counts.matched, skipped: counts.skipped)
            }
            warnings = report.warnings
            seconds = report.seconds
        }

        init(failure: String, seconds: Double) {
            errors = [Failure(message: failure)]
            self.seconds = seconds
        }
    }
}

extension CopyConflictPolicy: ExpressibleByArgument {}
