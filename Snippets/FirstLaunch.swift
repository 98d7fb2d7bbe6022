// First launch: bring the seed an app ships with into the user's store — copied when there is
// none, merged when the seed is newer, nothing when it is the same. Run it from the package's
// folder: `swift run FirstLaunch`.

// snippet.hide
import Foundation

// snippet.show
import SeedKit

// snippet.hide
let outputFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("seedkit-first-launch-\(ProcessInfo.processInfo.processIdentifier)").path
try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
// At build time (seedkit build, or the SeedKitPlugin build plugin): the seed store the app bundles.
let seedPath = try await SeedBuilder(planFile: "SeedData/Catalog/catalog-csv.yaml")
    .build(to: outputFolder + "/Seed.sqlite").path
let supportDirectory = outputFolder + "/Application Support"

// snippet.show
// snippet.prepare
// At every start-up, before opening the store.
let loader = SeedLoader(seed: .store(seedPath), store: supportDirectory + "/App.sqlite")
let watcher = Task {
    for await step in loader.progress {
        print(step.phase, step.completed, step.total ?? 0)
    }
}
switch try await loader.prepare() {
case .copiedSeed(let version):
    print("first launch: seed \(version ?? "-") copied")
case .merged(let version, let report):
    print("seed \(version) merged:\n\(report.summary)")
case .imported(let version, let report):
    print("seed \(version ?? "-") imported:\n\(report.summary)")
case .upToDate(let version):
    print("up to date (seed \(version))")
case .storeIsNewer(let store, let seed):
    print("the store's seed \(store) is newer than the app's \(seed)")
}
await watcher.value
let store = try PersistentStore.open(at: supportDirectory + "/App.sqlite")
// snippet.end

// snippet.options
// The app's model guards against a seed built for another one; `.respectUserChanges` (the
// default) keeps what the user changed or deleted when a newer seed is merged.
var options = SeedLoaderOptions()
options.model = store.model
options.upgradePolicy = .respectUserChanges
let again = try await SeedLoader(seed: .store(seedPath), store: supportDirectory + "/App.sqlite", options: options)
    .prepare()
print(again)  // upToDate(version: "2026.11")
// snippet.end

// snippet.hide
try FileManager.default.removeItem(atPath: outputFolder)
