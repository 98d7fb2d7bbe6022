// The CLI's contract (docs/CLI.md): exit 0 on success, 1 on a data or validation failure, 2 on a
// usage error, each failure with a one-line reason on stderr; `--json` report shapes.
import Foundation
import Testing
import TestSupport

@Suite struct ExitCodeTests {
    static let repository = Repository.root

    static func sampleFolder(_ sample: String = "Catalog") throws -> String {
        try ScratchFolder.copy(ofRepositoryFolder: "SeedData/" + sample, prefix: "seedkit-cli")
    }

    @Test func usageErrorsExitWith2() throws {
        let missing = try CLIProcess.run(["import"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Missing expected argument '<plan>'"))
        #expect(try CLIProcess.run(["import", "plan.yaml", "--batch-size", "0"]).status == 2)
        #expect(try CLIProcess.run(["frobnicate"]).status == 2)
        #expect(try CLIProcess.run(["--help"]).status == 0)
    }

    @Test func dataFailuresExitWith1AndOneLine() throws {
        let store = try CLIProcess.run(["inspect", "/nonexistent/store.sqlite"])
        #expect(store.status == 1)
        #expect(store.stderr == "seedkit: /nonexistent/store.sqlite: no store at this path\n")
        let folder = try Self.sampleFolder()
        try Data(
            "sku,name,price,quantity,listed,added,notes,unit,location,tags\nZ-1,Z,abc,1,yes,2026-01-01T00:00:00Z,,kg,A1,\n"
                .utf8
        )
        .write(to: URL(fileURLWithPath: folder + "/items.csv"))
        let bad = try CLIProcess.run(["import", "catalog-csv.yaml", "--store", folder + "/x.sqlite"], in: folder)
        #expect(bad.status == 1)
        #expect(
            bad.stderr.hasPrefix("seedkit: ")
                && bad.stderr.contains("items.csv:2:7 (byte 68, record 1) field price: \"abc\" is not a number"))
        #expect(bad.stderr.split(separator: "\n").count == 1)
        let plan = try CLIProcess.run(["import", "nothing.yaml"], in: folder)
        #expect(plan.status == 1)
    }

    @Test func importAndInspectPrintJSONReports() throws {
        let folder = try Self.sampleFolder()
        let imported = try CLIProcess.run(["import", "catalog-json.yaml", "--json"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any]
        let entities = report?["entities"] as? [String: [String: Int]]
        #expect(entities?["Item"] == ["inserted": 5, "updated": 0, "unchanged": 0, "rejected": 0])
        #expect(report?["errors"] as? [Any] != nil && report?["seconds"] as? Double != nil)
        let inspected = try CLIProcess.run(["inspect", "Catalog.sqlite", "--json"], in: folder)
        let inspection = try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any]
        #expect((inspection?["entities"] as? [String: [String: Int]])?["Tag"] == ["count": 3])
        #expect((inspection?["metadata"] as? [String: String])?["seed.version"] == "2026.11")
        let model = try CLIProcess.run(["model", "Catalog.sqlite", "--json"], in: folder)
        #expect(model.status == 0 && model.stdout.contains("\"ShoppingList\""))
    }
}

@Suite struct CopyDiffCommandTests {
    @Test func copyThenDiffIsEqualAndAFilteredCopyDiffers() throws {
        let folder = try ExitCodeTests.sampleFolder()
        #expect(try CLIProcess.run(["import", "catalog-csv.yaml", "--quiet"], in: folder).status == 0)
        let copied = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "Copy.sqlite", "--json"], in: folder)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("\"copied\" : 5"))
        let same = try CLIProcess.run(["diff", "Catalog.sqlite", "Copy.sqlite"], in: folder)
        #expect(same.status == 0 && same.stdout.isEmpty)
        let filtered = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "Cheap.sqlite", "--where", "Item: price < 2"], in: folder)
        #expect(filtered.status == 0)
        let different = try CLIProcess.run(["diff", "Catalog.sqlite", "Cheap.sqlite"], in: folder)
        #expect(different.status == 1)
        #expect(different.stdout.contains("Item[A-001]: only in A"))
        #expect(different.stderr == "seedkit: the stores differ (10 differences)\n")
        #expect(
            try CLIProcess.run(
                ["copy", "--from", "Catalog.sqlite", "--to", "X.sqlite", "--where", "no colon"], in: folder
            ).status == 2)
    }
}
