// seedkit-bench: SeedKit's benchmark runner (see docs/Performance.md).
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
switch arguments.first {
case "context-insert":
    try await ContextInsertBenchmark.run(count: count, batchSize: 5000, path: "/tmp/seedkit-bench-context.sqlite")
default:
    print("usage: seedkit-bench context-insert [N]")
}
