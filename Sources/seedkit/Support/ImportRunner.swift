// Runs an import for `seedkit import`, drawing progress and printing the report as text or JSON;
// failures become one line on stderr and exit code 1; SIGINT and SIGTERM cancel the run
// (SignalCancellation), which leaves the store as it was.
import ArgumentParser
import Foundation
import SeedImport

/// Runs imports for the CLI.
enum ImportRunner {
    /// Runs the plan at `planFile` (a new store laid out as `newStore` says) and prints its report.
    static func run(
        planFile: String, options: ImportOptions, newStore: NewStoreLayoutOptions, output: OutputOptions
    ) async throws {
        let importer: Importer
        do {
            importer = try Importer(
                planFile: planFile, options: options, layout: newStore.chosen, template: newStore.absoluteTemplate)
        } catch {
            throw DataFailure.exit("\(error)")
        }
        let display = ProgressDisplay(enabled: !output.quiet && !output.json)
        let watcher = Task {
            for await step in importer.progress { display.show(step) }
        }
        let report: ImportReport
        do {
            report = try await SignalCancellation.run { try await importer.run() }
            await watcher.value
            display.finish()
        } catch {
            // A run that fails before it starts never ends the progress stream.
            watcher.cancel()
            await watcher.value
            display.finish()
            guard let failure = error as? ImportFailure else { throw error }
            if output.json { try JSONOutput.print(failure.report) }
            throw DataFailure.exit(failure.reason)
        }
        try print(report, output: output, dryRun: options.dryRun)
    }

    private static func print(_ report: ImportReport, output: OutputOptions, dryRun: Bool) throws {
        if output.json {
            try JSONOutput.print(report)
        } else if !output.quiet {
            for note in report.notes { Swift.print("note: \(note)") }
            Swift.print(report.summary)
            for error in report.errors.prefix(20) { Swift.print("rejected: \(error)") }
            let verb = dryRun ? "checked (dry run, nothing written)" : "imported into \(report.store)"
            Swift.print(
                counted(report.records, "record") + " read, \(report.rejected) rejected; "
                    + String(format: "%@ in %.2f s", verb, report.seconds))
        }
    }
}
