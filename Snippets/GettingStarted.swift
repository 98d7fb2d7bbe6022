// Getting started: build the sample catalog's plan into a seed store, open the store and fetch
// from it. Run it from the package's folder: `swift run GettingStarted`.

// snippet.hide
import Foundation

// snippet.show
import SeedKit

// snippet.hide
let outputFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("seedkit-getting-started-\(ProcessInfo.processInfo.processIdentifier)").path
try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)

// snippet.show
// snippet.build
// A plan names the model, the sources and how records become objects.
// The builder runs it into one validated, self-contained store file.
let built = try await SeedBuilder(planFile: "SeedData/Catalog/catalog-csv.yaml")
    .build(to: outputFolder + "/Catalog.sqlite")
print(built.report.summary)
print("built \(built.path) (sha256 \(built.checksum.prefix(16))…)")
// snippet.end

// snippet.fetch
// A store carries its model: open it, then fetch through a context.
let store = try PersistentStore.open(at: built.path)
let context = try BackgroundContext(store: store)
let cheapest = try await context.perform { context in
    let request = FetchRequest(
        entityName: "Item",
        predicate: try FetchPredicate(format: "price < %@", 2.0),
        sortDescriptors: [FetchSortDescriptor("price")])
    return try context.fetch(request).map { item in
        let name = try item.get("name", as: String.self) ?? "?"
        let unit = try item.related("unit")?.get("name", as: String.self) ?? "-"
        return "\(name) per \(unit)"
    }
}
print(cheapest)
// snippet.end

// snippet.hide
try FileManager.default.removeItem(atPath: outputFolder)
