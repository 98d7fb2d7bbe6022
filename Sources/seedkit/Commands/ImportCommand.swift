// `seedkit import PLAN [--store STORE] [--on-error abort|skip] [--max-errors N] [--rejects FILE]
// [--batch-size N] [--dry-run] [--resume] [--json]`: run a plan into an existing or new store.
import ArgumentParser
import Foundation
import SeedImport

/// Runs an import plan.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the sources of a plan into a store (upsert by unique keys).")

    @Argument(help: "The plan file (YAML or JSON).")
    var plan: String

    @Option(help: "The target store (overrides the plan's store:).")
    var store: String?

    @Option(
        name: .customLong("on-error"),
        help: "abort: a bad record stops the run and nothing remains; skip: bad records go to the rejects file.")
    var onError: ErrorPolicyArgument?

    @Option(name: .customLong("max-errors"), help: "With skip: roll back after this many rejects.")
    var maxErrors: Int?

    @Option(help: "With skip: the JSON-lines file for rejected records.")
    var rejects: String?

    @Option(name: .customLong("batch-size"), help: "Records per save.")
    var batchSize: Int?

    @Flag(name: .customLong("dry-run"), help: "Do everything but commit; print the full report.")
    var dryRun = false

    @Flag(help: "Continue a killed run from its last checkpoint.")
    var resume = false

    @OptionGroup var newStore: NewStoreLayoutOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
        if let maxErrors, maxErrors < 0 { throw ValidationError("--max-errors cannot be negative") }
    }

    func run() async throws {
        var options = ImportOptions()
        options.store = store
        options.onError = onError?.policy
        options.maxErrors = maxErrors
        options.rejects = rejects
        options.batchSize = batchSize
        options.dryRun = dryRun
        options.resume = resume
        try await ImportRunner.run(planFile: plan, options: options, newStore: newStore, output: output)
    }
}

/// `--on-error` values.
enum ErrorPolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case abort
    case skip

    var policy: ErrorPolicy { self == .abort ? .abort : .skip }
}
