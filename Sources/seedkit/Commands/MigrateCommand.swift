// `seedkit migrate STORE --model MODEL [--to VERSION] [--mapping PATH]... [--chain A,B,C]
// [--output OUT] [--backup PATH] [--plan | --dry-run] [--allow-data-loss] [--widen]
// [--truncate-to-many] [--skip-policy NAME]... [--batch-size N] [--json] [--quiet]`: migrates a
// store to a version of its model (docs/CLI.md, docs/Migration.md), with progress on standard
// error. Exit 0: migrated, or nothing to do; 1: the store cannot be migrated (nothing changed);
// 2: usage; 130 or 143: cancelled by Ctrl-C (SIGINT) or SIGTERM, the store as it was. Unlike
// the library, the command refuses a migration that drops data unless told.
import ArgumentParser
import Foundation
import GraphStore
import ModelFiles
import StoreMigration

/// Migrates a store to another version of its model.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to another version of its model.",
        discussion: """
            MODEL is a versioned model (an .xcdatamodeld, or a versions file) or one model. The \
            store's version is the version with its model hash; without one, the store's own model \
            is migrated directly. The versions are walked in the order their names give (or --chain), \
            each step inferred or run by a mapping model (--mapping). The store is replaced only \
            when the new file is complete: at any instant it is the old store or the new one. A \
            migration that would drop values, objects or links stops unless --allow-data-loss.
            """)

    @Argument(help: "The store to migrate.")
    var store: String

    @Option(help: "The model: an .xcdatamodeld, a versions file, or one model file.")
    var model: String

    @Option(help: "The version to migrate to (default: the model's current version).")
    var to: String?

    @Option(
        name: .customLong("mapping"),
        help: "An .xcmappingmodel, or a folder searched for them (repeatable).")
    var mappings: [String] = []

    @Option(help: "The order of the versions: A,B,C (a list), or A:B,B:C (edges, which may lead back).")
    var chain: String?

    @Option(help: "Write the migrated store here and leave STORE as it is.")
    var output: String?

    @Option(help: "Keep the old store file here before the new one replaces it.")
    var backup: String?

    @Flag(help: "Print the versions, passes and changes, and the data the first pass drops; write nothing.")
    var plan = false

    @Flag(
        name: .customLong("dry-run"), help: "Build the new file and check it, then delete it; the store is untouched.")
    var dryRun = false

    @Flag(name: .customLong("allow-data-loss"), help: "Migrate even when values, objects or links are dropped.")
    var allowDataLoss = false

    @Flag(help: "Infer attribute types that widen without loss: Integer 16 → 32 → 64, Float → Double.")
    var widen = false

    @Flag(
        name: .customLong("truncate-to-many"),
        help: "A to-many that became to-one keeps its first destination (by position, then key).")
    var truncateToMany = false

    @Option(
        name: .customLong("skip-policy"),
        help: "Run the mappings naming this migration policy class without it (repeatable).")
    var skippedPolicies: [String] = []

    @Option(name: .customLong("batch-size"), help: "Source rows per committed batch (default 50000).")
    var batchSize: Int?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if plan && dryRun { throw ValidationError("--plan and --dry-run cannot be combined") }
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
        if output != nil && backup != nil {
            throw ValidationError("--backup keeps the old store when it is replaced; with --output it is not")
        }
    }

    func run() async throws {
        let started = Date()
        let migrator: StoreMigrator
        do {
            migrator = try makeMigrator()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error, started: started)
        }
        if plan {
            try printPlan(migrator, started: started)
            return
        }
        let display = MigrationProgressDisplay(enabled: !outputOptions.quiet && !outputOptions.json)
        let watcher = Task {
            for await progress in migrator.progress { display.show(progress) }
        }
        let report: MigrationReport
        do {
            // Ctrl-C or SIGTERM cancels the migration between batches: its files are removed
            // and the store is as it was (docs/CLI.md, "Cancelling").
            let output = self.output
            report = try await SignalCancellation.run {
                if let output { return try await migrator.run(into: output) }
                return try await migrator.run()
            }
            _ = await watcher.value
            display.finish()
        } catch {
            _ = await watcher.value
            display.finish()
            throw fail(error, started: started)
        }
        if outputOptions.json {
            try JSONOutput.print(JSONReport(report))
        } else if !outputOptions.quiet {
            printText(report)
        }
    }

    // MARK: - Source and options

    private func makeMigrator() throws -> StoreMigrator {
        let versions = try ModelVersionSet.load(from: model)
        var files: [String] = []
        for path in mappings { files += try Self.mappingModels(at: path) }
        var mappingModels: [MappingModel] = []
        for file in files {
            mappingModels.append(try MappingModelReader.readMappingModel(at: URL(fileURLWithPath: file)))
        }
        let source = MigrationSource(
            versions: versions, mappings: mappingModels, mappingFiles: files, chain: try chain.map(Self.chain))
        var options = MigrationOptions()
        options.target = to
        options.backup = backup
        options.allowDataLoss = allowDataLoss
        options.inferLosslessWidening = widen
        options.truncateToMany = truncateToMany
        options.skippedPolicies = Set(skippedPolicies)
        options.dryRun = dryRun
        if let batchSize { options.batchSize = batchSize }
        return StoreMigrator(store: store, source: source, options: options)
    }

    /// `A,B,C` (a list) or `A:B,B:C` (edges).
    static func chain(_ text: String) throws -> MigrationChain {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.contains(where: { $0.contains(":") }) else { return try MigrationChain(parts) }
        var edges: [String: String] = [:]
        for part in parts {
            let ends = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard ends.count == 2, !ends[0].isEmpty, !ends[1].isEmpty else {
                throw ValidationError("--chain takes A,B,C or A:B,B:C, got \"\(text)\"")
            }
            guard edges[ends[0]] == nil else { throw ValidationError("--chain names '\(ends[0])' as a source twice") }
            edges[ends[0]] = ends[1]
        }
        return try MigrationChain(edges)
    }

    /// The mapping models at `path`: the path itself, or those in a folder (4 levels deep at most).
    static func mappingModels(at path: String) throws -> [String] {
        let url = URL(fileURLWithPath: path)
        if url.pathExtension.lowercased() == "xcmappingmodel" || url.lastPathComponent.lowercased() == "xcmapping.xml" {
            return [path]
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("--mapping \(path): not an .xcmappingmodel and not a folder")
        }
        var found: [String] = []
        func search(_ folder: URL, depth: Int) {
            guard depth <= 4,
                let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
            else { return }
            for name in names.sorted() {
                let child = folder.appendingPathComponent(name)
                if name.lowercased().hasSuffix(".xcmappingmodel") {
                    found.append(child.path)
                } else if (try? child.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                    search(child, depth: depth + 1)
                }
            }
        }
        search(url, depth: 1)
        return found
    }

    // MARK: - Output

    private func printPlan(_ migrator: StoreMigrator, started: Date) throws {
        let plan: MigrationPlan
        do {
            plan = try migrator.plan()
        } catch {
            throw fail(error, started: started)
        }
        let refused = !allowDataLoss && !plan.dataDropped.isEmpty
        if outputOptions.json {
            try JSONOutput.print(JSONPlan(plan, refused: refused))
        } else if !outputOptions.quiet {
            if plan.isUpToDate {
                print(upToDate(plan.targetVersion))
            } else {
                let steps = plan.passes.reduce(0) { $0 + $1.steps.count }
                print(
                    "\(store): \(plan.sourceName) → \(plan.targetVersion), \(counted(steps, "step")) in \(counted(plan.passes.count, "pass", "passes"))"
                )
                for (index, pass) in plan.passes.enumerated() {
                    print("pass \(index + 1) (\(pass.kind.rawValue)): \(pass.from) → \(pass.to)")
                    for step in pass.steps {
                        if pass.steps.count > 1 || step.mapping != nil {
                            print("  \(step.from) → \(step.to)" + (step.mapping.map { " (mapping \($0))" } ?? ""))
                        }
                        for change in step.changes { print("    \(change)") }
                    }
                }
                for line in plan.dataDropped { print("drops \(line)") }
                for warning in plan.warnings { print("warning: \(warning)") }
            }
        }
        if refused {
            throw DataFailure.exit(
                "the migration would drop data (" + plan.dataDropped.joined(separator: "; ")
                    + "): pass --allow-data-loss to migrate anyway")
        }
    }

    private func printText(_ report: MigrationReport) {
        guard !report.passes.isEmpty else {
            print(upToDate(report.to))
            return
        }
        if !report.summary.isEmpty { print(report.summary) }
        for line in report.dataDropped { print("dropped \(line)") }
        for warning in report.warnings { print("warning: \(warning)") }
        let what = "\(counted(report.steps, "step")) in \(counted(report.passes.count, "pass", "passes"))"
        let verb = report.dryRun ? "checked (dry run, nothing written): \(store)" : "migrated \(report.output)"
        print(String(format: "%@ from %@ to %@: %@ (%.2f s)", verb, report.from, report.to, what, report.seconds))
        if let backup = report.backup { print("the old store is kept at \(backup)") }
    }

    private func upToDate(_ version: String) -> String {
        let current = to == nil ? " (current)" : ""
        return "\(store) is at \(version)\(current): nothing to do"
    }

    /// Prints a failure (JSON when asked) and returns the exit to throw; a cancellation by a
    /// signal passes through, for the root command to report.
    private func fail(_ error: any Error, started: Date) -> any Error {
        if error is CancelledBySignal { return error }
        if outputOptions.json {
            try? JSONOutput.print(
                JSONReport(failure: "\(error)", store: store, seconds: Date().timeIntervalSince(started)))
        }
        if error is CancellationError { return DataFailure.exit("cancelled") }
        if let error = error as? MigrationError, case .unregisteredPolicy = error.kind {
            return DataFailure.exit(
                "\(error) (the command line cannot run migration policies: migrate from Swift, or pass --skip-policy NAME)"
            )
        }
        return DataFailure.exit("\(error)")
    }
}

extension MigrateCommand {
    /// The `--json` report (docs/CLI.md).
    struct JSONReport: Encodable {
        struct Pass: Encodable {
            var from: String
            var to: String
            var kind: String
            var mapping: String?
        }

        var store: String
        var output: String?
        var from: String?
        var to: String?
        var passes: [Pass] = []
        var entities: [String: MigrationReport.EntityCounts] = [:]
        var dataDropped: [String] = []
        var warnings: [String] = []
        var seconds: Double
        var changed: Bool
        var dryRun = false
        var backup: String?
        var error: String?

        init(_ report: MigrationReport) {
            store = report.store
            output = report.output
            from = report.from
            to = report.to
            passes = report.passes.map { Pass(from: $0.from, to: $0.to, kind: $0.kind.rawValue, mapping: $0.mapping) }
            entities = report.entities
            dataDropped = report.dataDropped
            warnings = report.warnings
            seconds = report.seconds
            changed = report.changed
            dryRun = report.dryRun
            backup = report.backup
        }

        init(failure: String, store: String, seconds: Double) {
            self.store = store
            self.seconds = seconds
            changed = false
            error = failure
        }
    }

    /// The `--plan --json` output.
    struct JSONPlan: Encodable {
        struct Step: Encodable {
            var from: String
            var to: String
            var kind: String
            var mapping: String?
            var changes: [String]
        }

        struct Pass: Encodable {
            var from: String
            var to: String
            var kind: String
            var steps: [Step]
        }

        var store: String
        var from: String
        var to: String
        var passes: [Pass]
        var dataDropped: [String]
        var warnings: [String]
        var refused: Bool

        init(_ plan: MigrationPlan, refused: Bool) {
            store = plan.store
            from = plan.sourceName
            to = plan.targetVersion
            passes = plan.passes.map { pass in
                Pass(
                    from: pass.from, to: pass.to, kind: pass.kind.rawValue,
                    steps: pass.steps.map {
                        Step(from: $0.from, to: $0.to, kind: $0.kind.rawValue, mapping: $0.mapping, changes: $0.changes)
                    })
            }
            dataDropped = plan.dataDropped
            warnings = plan.warnings
            self.refused = refused
        }
    }
}
