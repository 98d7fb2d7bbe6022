// The `seedkit` command-line tool: the root command and its subcommands.
// Exit codes (docs/CLI.md): 0 success, 1 data or validation failure, 2 usage error.
import ArgumentParser
import Foundation
import Logging

@main
struct SeedKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedkit",
        abstract: "Bulk data into a Core Data–style object store, and object graphs between stores.",
        version: SeedKitVersion.current,
        subcommands: [
            BuildCommand.self,
            ImportCommand.self,
            CopyCommand.self,
            DiffCommand.self,
            InspectCommand.self,
            ExportCommand.self,
            MigrateCommand.self,
            ModelCommand.self,
            CheckCommand.self,
            GenerateCommand.self,
            PlanCommand.self,
        ]
    )

    /// Runs the command; usage errors exit with 2 (docs/CLI.md) instead of ArgumentParser's 64.
    /// A bare `seedkit` (no subcommand) is a usage error too: the reason and the help on stderr.
    static func main() async {
        LoggingSystem.bootstrap(logHandler)
        do {
            var command = try parseAsRoot()
            if command is SeedKitCommand {
                let text = "Error: Missing expected subcommand.\n\n" + helpMessage()
                FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }

    /// The libraries' log lines go to standard error, from the level `SEEDKIT_LOG_LEVEL` names
    /// (`trace`, `debug`, `info`, `notice`, `warning`, the default, `error` or `critical`).
    private static func logHandler(label: String) -> any LogHandler {
        var handler = StreamLogHandler.standardError(label: label)
        let level = ProcessInfo.processInfo.environment["SEEDKIT_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        handler.logLevel = level ?? .warning
        return handler
    }
}
