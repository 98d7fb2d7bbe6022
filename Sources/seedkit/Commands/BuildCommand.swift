// `seedkit build PLAN [-o OUT] [--json]`: a fresh, validated, reproducible, single-file seed store.
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

    struct Report: Encodable {
        var build: ImportReport
        var path: String
        var checksum: String
    }

    func run() async throws {
        let result: SeedBuilder.Result
        do {
            result = try await SeedBuilder(planFile: plan).build(to: output)
        } catch let failure as ImportFailure {
            if reporting.json { try JSONOutput.print(failure.report) }
            throw DataFailure.exit(failure.reason)
        } catch {
            throw DataFailure.exit("\(error)")
        }
        if reporting.json {
            try JSONOutput.print(Report(build: result.report, path: result.path, checksum: result.checksum))
        } else if !reporting.quiet {
            print(result.report.summary)
            print("built \(result.path) (sha256 \(result.checksum.prefix(16))…)")
        }
    }
}
