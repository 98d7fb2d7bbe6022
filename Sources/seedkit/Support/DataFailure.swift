// How a command reports a data or validation failure: one line on stderr, exit code 1.
// Usage errors are ArgumentParser's `ValidationError`s, which exit with code 2; work a signal
// cancelled passes through, for the root command to report (SignalCancellation).
import ArgumentParser
import Foundation

/// Prints `message` as one line on standard error and returns the exit code for a data failure.
///
/// Use it as `throw DataFailure.exit("items.csv:3:7: unterminated quote")`.
enum DataFailure {
    /// Writes `seedkit: <message>` to standard error and returns `ExitCode(1)` to throw.
    static func exit(_ message: String) -> ExitCode {
        report(message)
        return ExitCode(1)
    }

    /// The error to throw for `error`, a command's failure: work a signal cancelled
    /// (``CancelledBySignal``) as it is, for the root command to report; anything else as a data
    /// failure whose message is its description.
    static func exit(_ error: any Error) -> any Error {
        error is CancelledBySignal ? error : exit("\(error)")
    }

    /// Writes `seedkit: <message>` to standard error as one line, for a failure among several
    /// (each broken record `check` lists) before the command exits with `exit`.
    static func report(_ message: String) {
        let line = "seedkit: " + String(message.map { $0.isNewline ? " " : $0 }) + "\n"
        ProgressLine.endOpenLine()
        FileHandle.standardError.write(Data(line.utf8))
    }
}
