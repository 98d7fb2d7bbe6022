// seedkit-bench: SeedKit's benchmark runner (see docs/Performance.md). tools/bench.py finds the
// subcommands in the usage line printed without arguments.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "context-insert":
        let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
        try await ContextInsertBenchmark.run(count: count, batchSize: 5000, path: "/tmp/seedkit-bench-context.sqlite")
    case "first-launch" where arguments.count == 3:
        try await FirstLaunchBenchmark.run(seed: arguments[1], store: arguments[2])
    default:
        print("usage: seedkit-bench context-insert [N] | seedkit-bench first-launch SEED STORE")
        exit(arguments.isEmpty ? 0 : 2)
    }
} catch {
    FileHandle.standardError.write(Data("seedkit-bench: \(error)\n".utf8))
    exit(1)
}
