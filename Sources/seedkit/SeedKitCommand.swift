// The `seedkit` command-line tool: the root command and its subcommands.
// Exit codes (docs/CLI.md): 0 success, 1 data or validation failure, 2 usage error, 130 and 143
// a long command cancelled by SIGINT or SIGTERM (SignalCancellation).
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
    /// Work a signal cancelled ends with `seedkit: cancelled` and 128 + the signal's number.
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
        } catch let cancelled as CancelledBySignal {
            DataFailure.report("cancelled")
            exit(withError: ExitCode(cancelled.exitCode))
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
        return LineStartingLogHandler(handler: handler)
    }
}

/// A log handler that ends an open progress bar before each line it writes, so that log lines
/// start lines of their own (ProgressLine).
private struct LineStartingLogHandler: LogHandler {
    var handler: StreamLogHandler

    var logLevel: Logger.Level {
        get { handler.logLevel }
        set { handler.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { handler.metadata }
        set { handler.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { handler[metadataKey: key] }
        set { handler[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        ProgressLine.endOpenLine()
        handler.log(event: event)
    }
}
