// Runs an import for a command (`import`, later `build`), drawing progress and printing the
// report as text or JSON; failures become one line on stderr and exit code 1.
import ArgumentParser
import Foundation
import SeedImport

/// Runs imports for the CLI.
enum ImportRunner {
    /// Runs the plan at `planFile` and prints its report.
    static func run(planFile: String, options: ImportOptions, output: OutputOptions) async throws {
        let importer: Importer
        do {
            importer = try Importer(planFile: planFile, options: options)
        } catch {
            throw DataFailure.exit("\(error)")
        }
        let display = ProgressDisplay(enabled: !output.quiet && !output.json)
        let watcher = Task {
            for await step in importer.progress { display.show(step) }
        }
        do {
            let report = try await importer.run()
            _ = await watcher.value
            display.finish()
            try print(report, output: output, dryRun: options.dryRun)
        } catch let failure as ImportFailure {
            _ = await watcher.value
            display.finish()
            if output.json { try JSONOutput.print(failure.report) }
            throw DataFailure.exit(failure.reason)
        }
    }

    private static func print(_ report: ImportReport, output: OutputOptions, dryRun: Bool) throws {
        if output.json {
            try JSONOutput.print(report)
        } else if !output.quiet {
            for note in report.notes { Swift.print("note: \(note)") }
            Swift.print(report.summary)
            for error in report.errors.prefix(20) { Swift.print("rejected: \(error)") }
            let verb = dryRun ? "checked (dry run, nothing written)" : "imported into \(report.store)"
            Swift.print(counted(report.records, "record") + String(format: " %@ in %.2f s", verb, report.seconds))
        }
    }
}
