// GroceryApp's start-up: bring the bundled seed (Grocery.sqlite, built by SeedKitPlugin from
// Seed/Grocery.seed.yaml) into the user's store, then open the store and print what it holds.
//
//   swift run GroceryApp [STORE]     (default: $TMPDIR/GroceryApp/Grocery.sqlite)
//
// The first run copies the seed; later runs find the store up to date.
import Foundation
import GraphStore
import SeedKit

guard let seed = Bundle.module.path(forResource: "Grocery", ofType: "sqlite") else {
    FileHandle.standardError.write(Data("GroceryApp: the bundled seed Grocery.sqlite is missing\n".utf8))
    exit(1)
}
let storePath =
    CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("GroceryApp/Grocery.sqlite").path

do {
    let loader = SeedLoader(seed: .store(seed), store: storePath)
    let outcome = try await loader.prepare()
    switch outcome {
    case .copiedSeed(let version): print("first launch: copied seed \(version ?? "-") to \(storePath)")
    case .merged(let version, let report): print("merged seed \(version):\n\(report.summary)")
    case .imported(let version, _): print("imported seed \(version ?? "-")")
    case .upToDate(let version): print("store up to date (seed \(version))")
    case .storeIsNewer(let store, let seed): print("store has seed \(store), newer than the bundled \(seed)")
    }
    let store = try PersistentStore.open(at: storePath)
    for (entity, count) in try store.objectCounts().sorted(by: { $0.key < $1.key }) {
        print("  \(entity): \(count)")
    }
} catch {
    FileHandle.standardError.write(Data("GroceryApp: \(error)\n".utf8))
    exit(1)
}
