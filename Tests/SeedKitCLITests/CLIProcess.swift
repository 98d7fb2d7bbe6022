// Runs the built `seedkit` executable (or `seedkit-fuzz`) as a child process for CLI tests: exit
// codes, output, and killing it half-way (through the shared ChildProcess of TestSupport).
import Foundation
import TestSupport

/// The result of one `seedkit` run.
typealias CLIResult = ProcessResult

/// Starts and runs `seedkit`.
enum CLIProcess {
    /// The package's executable called `name`.
    static func executable(_ name: String) -> URL {
        ChildProcess.executable(name)
    }

    /// Runs `program` (default `seedkit`) with `arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: String? = nil, program: String = "seedkit") throws
        -> CLIResult
    {
        try ChildProcess.run(executable(program), arguments, in: directory)
    }

    /// Starts `program` (default `seedkit`) without waiting.
    static func start(_ arguments: [String], in directory: String? = nil, program: String = "seedkit") throws
        -> Process
    {
        try ChildProcess.start(executable(program), arguments, in: directory)
    }
}
