// Runs `seedkit-loader-probe` (Tests/Probes/SeedLoaderProbe) as a child process that stops at a
// named point of SeedLoader.prepare() (a migration's stop points included), and kills it there
// with SIGKILL.
import Foundation
import Testing
import TestSupport

enum LoaderProbe {
    /// The probe binary beside the test bundle (the test target depends on it, so it is built).
    static var executable: URL { ChildProcess.executable("seedkit-loader-probe") }

    /// Runs the probe on `seed` and `store` to its end and returns what it printed (`outcome …`
    /// and `commits N`, the transactions that changed object rows of the store).
    static func run(seed: String, store: String, batchSize: Int = 25) throws -> String {
        let result = try ChildProcess.run(executable, [seed, store, "--batch-size", "\(batchSize)"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The number of data commits a complete probe run printed (`commits N`).
    static func commits(in output: String) -> Int? {
        output.split(separator: "\n").first { $0.hasPrefix("commits ") }.flatMap { Int($0.dropFirst(8)) }
    }

    /// Starts the probe on `seed` and `store` (with the probe's `options`, such as `--versions
    /// FILE`), waits until it reports that it paused at `point` (for example `copying:1`,
    /// `merging:3`, `commit:2` or `migration:built`), and kills it with SIGKILL there. Returns the
    /// line the probe printed (empty when it ended without pausing).
    @discardableResult
    static func killAt(
        _ point: String, seed: String, store: String, batchSize: Int = 25, options: [String] = []
    ) throws -> String {
        let process = try ChildProcess.start(
            executable, [seed, store, "--pause", point, "--batch-size", "\(batchSize)"] + options)
        var printed = Data()
        while let output = process.standardOutput as? Pipe, !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the probe ended without pausing
            printed += chunk
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the probe ended by itself: \(process.terminationStatus)")
        return String(decoding: printed, as: UTF8.self)
    }
}
