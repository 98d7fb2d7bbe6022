// Runs the built `seedkit` executable as a child process for CLI tests: exit codes, output,
// and killing it half-way.
import Foundation

/// The result of one `seedkit` run.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Starts and runs `seedkit`.
enum CLIProcess {
    /// The `seedkit` binary beside the test bundle (the test target depends on it, so it is built).
    static var executable: URL {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        var folder = me.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("seedkit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return me.deletingLastPathComponent().appendingPathComponent("seedkit")
    }

    /// Runs `seedkit` with `arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> CLIResult {
        let process = try start(arguments, in: directory)
        let stdout = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Starts `seedkit` without waiting.
    static func start(_ arguments: [String], in directory: String? = nil) throws -> Process {
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
