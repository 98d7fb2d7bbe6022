// `seedkit build PLAN [-o OUT] [--json] [--quiet]`: a fresh, validated, reproducible, single-file
// seed store; SIGINT or SIGTERM cancels the build, which leaves OUT as it was and no temporary file.
import ArgumentParser
import Foundation
import SeedImport
import SeedKit

/// Builds a seed store.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a seed store from a plan: validated, single-file, byte-identical for the same inputs.")

    @Argument(help: "The plan file (YAML or JSON).")
    var plan: String

    @Option(name: .shortAndLong, help: "The store to write (default: the plan's store:).")
    var output: String?

    @OptionGroup var reporting: OutputOptions

    /// The `--json` report: the import report's keys at the top level (`entities`, `errors`,
    /// `seconds`, … as docs/CLI.md asks of every import, build and copy) plus `path` and `checksum`.
    struct Report: Encodable {
        var build: ImportReport
        var path: String
        var checksum: String

        private enum CodingKeys: String, CodingKey {
            case path, checksum
        }

        func encode(to encoder: any Encoder) throws {
            try build.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(checksum, forKey: .checksum)
        }
    }

    func run() async throws {
        let result: SeedBuilder.Result
        let display = ProgressDisplay(enabled: !reporting.quiet && !reporting.json)
        do {
            let (plan, output) = (self.plan, self.output)
            result = try await SignalCancellation.run {
                try await SeedBuilder(planFile: plan).build(to: output) { display.show($0) }
            }
            display.finish()
        } catch let failure as ImportFailure {
            display.finish()
            if reporting.json { try JSONOutput.print(failure.report) }
            throw DataFailure.exit(failure.reason)
        } catch {
            display.finish()
            throw DataFailure.exit(error)
        }
        if reporting.json {
            try JSONOutput.print(Report(build: result.report, path: result.path, checksum: result.checksum))
        } else if !reporting.quiet {
            print(result.report.summary)
            print("built \(result.path) (sha256 \(result.checksum.prefix(16))…)")
        }
    }
}
