// The import plan: run a plan file with options that override the plan's own, follow its
// progress, and read its report — or, when the plan or a record is wrong, its errors.
// Run it from the package's folder: `swift run RunningAPlan`.

// snippet.hide
import Foundation

// snippet.show
import SeedImport

// snippet.hide
let outputFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("seedkit-running-a-plan-\(ProcessInfo.processInfo.processIdentifier)").path
try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)

// snippet.show
// snippet.run
var options = ImportOptions()
options.store = outputFolder + "/Catalog.sqlite"  // instead of the plan's store:
options.onError = .skip  // bad records are refused and written to the rejects file
options.rejects = outputFolder + "/rejects.jsonl"
do {
    let importer = try Importer(planFile: "SeedData/Catalog/catalog-csv.yaml", options: options)
    let watcher = Task {
        for await step in importer.progress {
            print(step.phase, step.source, "\(step.records) records", "\(step.bytesRead) of \(step.bytesTotal) bytes")
        }
    }
    let report = try await importer.run()
    await watcher.value
    print(report.summary)
} catch let problems as PlanErrors {
    print(problems)  // every problem of the plan, each with its line and column
} catch let failure as ImportFailure {
    print(failure.reason)  // items.csv:4:11 (byte 62, record 3) field price: "12x" is not a number
}
// snippet.end

// snippet.swift-plan
// The same kind of plan, built in Swift: units from a CSV file, matched by name.
try "name\nkg\npiece\n".write(toFile: outputFolder + "/units.csv", atomically: true, encoding: .utf8)
var units = SourcePlan(file: "units.csv", entity: "Unit", key: ["name"])
units.mapping.attributes = ["name": AttributeMapping(field: "name")]
let plan = ImportPlan(
    model: FileManager.default.currentDirectoryPath + "/SeedData/Catalog/Catalog.yaml",
    store: "Units.sqlite", sources: [units], baseDirectory: outputFolder)
let report = try await Importer(plan: plan).run()
print(report.entities["Unit"]?.inserted ?? 0)  // 2
// snippet.end

// snippet.hide
try FileManager.default.removeItem(atPath: outputFolder)
