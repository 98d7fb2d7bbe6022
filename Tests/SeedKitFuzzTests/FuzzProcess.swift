// Runs the built `seedkit-fuzz` executable as a child process and collects its exit status and
// output.
import Foundation

/// The result of one `seedkit-fuzz` run.
struct FuzzResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum FuzzProcess {
    /// The `seedkit-fuzz` binary beside the test bundle (the test target depends on it).
    static var executable: URL {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        var folder = me.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("seedkit-fuzz")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return me.deletingLastPathComponent().appendingPathComponent("seedkit-fuzz")
    }

    /// Runs `seedkit-fuzz` with `arguments` (in `directory`, if given) and waits for it.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> FuzzResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return FuzzResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
