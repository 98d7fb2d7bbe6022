// Deep copy: copy chosen objects and their relationships from one store into another, merged by
// unique keys, then compare the two stores' object graphs.
// Run it from the package's folder: `swift run CopyingStores`.

// snippet.show
import DeepCopy
import GraphStore

// snippet.hide
import Foundation
import SeedKit

let outputFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("seedkit-copying-stores-\(ProcessInfo.processInfo.processIdentifier)").path
try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
let seedPath = try await SeedBuilder(planFile: "SeedData/Catalog/catalog-csv.yaml")
    .build(to: outputFolder + "/Seed.sqlite").path

// snippet.show
// snippet.copy
var readOnly = StoreOptions()
readOnly.readOnly = true
let seed = try PersistentStore.open(at: seedPath, options: readOnly)
let user = try PersistentStore.open(at: outputFolder + "/User.sqlite", model: seed.model)

var options = DeepCopyOptions()
options.predicates = ["Item": try FetchPredicate(format: "price < %@", 2.0)]
options.onConflict = .keep  // an object the user already has stays as it is
options.relationships = ["Item.tags": .cut]  // the items come without their tags
options.completionMetadata = ["seed.version": "2026.11"]  // written with the copy's last batch
let report = try DeepCopier(from: seed, to: user, options: options).run()
print(report.summary)
for warning in report.warnings { print("warning:", warning) }
// snippet.end

// snippet.diff
// Objects are compared by their unique keys, relationships by their destinations' keys.
for difference in try StoreDiff(seed, user).differences(limit: 5) {
    print(difference)  // Item[A-001]: only in A, …
}
// snippet.end

// snippet.hide
try FileManager.default.removeItem(atPath: outputFolder)
