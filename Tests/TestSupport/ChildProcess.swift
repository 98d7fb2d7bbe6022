// Runs programs as child processes for tests: the package's own executables (`seedkit`,
// `seedkit-fuzz`, probes), found beside the test bundle, and system tools; waits for them and
// collects their output, or starts them to be signalled or killed half-way.
import Foundation

/// How a child process ended and what it wrote.
public struct ProcessResult: Sendable {
    /// The exit status (or the signal's number when it was killed).
    public let status: Int32
    /// Its standard output, as text.
    public let stdout: String
    /// Its standard error, as text.
    public let stderr: String
}

/// Starts and runs child processes.
public enum ChildProcess {
    /// The package's executable called `name` beside the test bundle (a test target that runs it
    /// depends on it, so it is built).
    public static func executable(_ name: String) -> URL {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        var folder = me.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return me.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs `executable` with `arguments` in `directory` and waits for it, collecting its output.
    public static func run(_ executable: URL, _ arguments: [String], in directory: String? = nil) throws
        -> ProcessResult
    {
        try finish(start(executable, arguments, in: directory))
    }

    /// Waits for `process` (started by ``start(_:_:in:)``) to end, collecting its output.
    public static func finish(_ process: Process) -> ProcessResult {
        let stdout = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs a system tool found on the `PATH` (`"gzip"`) with `arguments` in `directory`.
    public static func runTool(_ name: String, _ arguments: [String], in directory: String? = nil) throws
        -> ProcessResult
    {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, in: directory)
    }

    /// Starts `executable` with `arguments` in `directory` without waiting (its output goes to pipes).
    public static func start(_ executable: URL, _ arguments: [String], in directory: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }
}
