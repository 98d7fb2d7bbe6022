// Benchmark: first launch with a bundled seed (docs/Performance.md: ≤ 1.5× a plain file copy of the seed).
// Times SeedLoader.prepare() for a missing store — the copy branch: temporary file, fsync,
// atomic rename — and prints the time, throughput and peak RSS. tools/bench.py runs it as
// `seedkit-bench first-launch SEED STORE` next to `cp SEED STORE`.
import Foundation
import GraphStore
import SeedKit

/// Times the first launch of an app whose store does not exist yet.
enum FirstLaunchBenchmark {
    static func run(seed: String, store: String) async throws {
        try StoreFiles.remove(store)
        let loader = SeedLoader(seed: .store(seed), store: store)
        var outcome: SeedLoader.Outcome?
        let seconds = try await ProcessStats.timeAsync { outcome = try await loader.prepare() }
        guard case .copiedSeed = outcome else {
            throw FirstLaunchBenchmarkError("expected a copy of the seed, got \(outcome.map { "\($0)" } ?? "nothing")")
        }
        let bytes = (try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
        print(
            String(
                format: "first launch: %d bytes in %.3f s = %.1f MB/s, peak RSS %.1f MiB", bytes, seconds,
                Double(bytes) / 1e6 / max(seconds, 1e-9), ProcessStats.peakResidentMiB()))
    }
}

/// A first-launch benchmark that did not do what it measures.
struct FirstLaunchBenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
