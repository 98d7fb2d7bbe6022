// Runs the built `seedkit` executable (or `seedkit-fuzz`) as a child process for CLI tests: exit
// codes, output, and killing it half-way.
import Foundation

/// The result of one `seedkit` run.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Starts and runs `seedkit`.
enum CLIProcess {
    /// The binary called `name` beside the test bundle (the test target depends on it, so it is built).
    static func executable(_ name: String) -> URL {
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

    /// Runs `program` (default `seedkit`) with `arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: String? = nil, program: String = "seedkit") throws
        -> CLIResult
    {
        let process = try start(arguments, in: directory, program: program)
        let stdout = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Starts `program` (default `seedkit`) without waiting.
    static func start(_ arguments: [String], in directory: String? = nil, program: String = "seedkit") throws
        -> Process
    {
        let process = Process()
        process.executableURL = executable(program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }
}
