// `seedkit plan infer`, `plan explain` and `plan schema` (docs/CLI.md): a draft written next to the
// samples passes `seedkit import --dry-run` and imports; existing drafts are kept unless --force;
// what does not fit is an error; explain prints each source's mapping and fails as import would
// on a plan that does not validate; the schema printed is the committed file's bytes.
import Foundation
import Testing

@Suite struct PlanCommandTests {
    @Test func aDraftOfTheCatalogPassesADryRunAndImports() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let infer = try CLIProcess.run(["plan", "infer", "items.csv", "lists.csv", "-o", "Draft"], in: folder)
        #expect(infer.status == 0, "\(infer.stderr)")
        #expect(
            infer.stdout == """
                items.csv → Item, key [sku], 5 records read
                lists.csv → List, key [code], 2 records read
                wrote Draft/plan.yaml and Draft/model.yaml; check it with: seedkit import Draft/plan.yaml --dry-run

                """)
        let plan = try String(contentsOfFile: folder + "/Draft/plan.yaml", encoding: .utf8)
        #expect(plan.contains("\n  - file: ../items.csv\n"))
        let dryRun = try CLIProcess.run(["import", "Draft/plan.yaml", "--dry-run", "--quiet"], in: folder)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let run = try CLIProcess.run(["import", "Draft/plan.yaml", "--json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let entities = try #require(report["entities"] as? [String: [String: Int]])
        #expect(entities["Item"]?["inserted"] == 5 && entities["Item"]?["rejected"] == 0)
        #expect(entities["List"]?["inserted"] == 2 && entities["List"]?["rejected"] == 0)

        // The draft is kept unless --force.
        let again = try CLIProcess.run(["plan", "infer", "items.csv", "-o", "Draft"], in: folder)
        #expect(again.status == 1)
        #expect(again.stderr == "seedkit: Draft/plan.yaml and Draft/model.yaml exist: give --force to replace\n")
        #expect(try String(contentsOfFile: folder + "/Draft/plan.yaml", encoding: .utf8) == plan)
        #expect(try CLIProcess.run(["plan", "infer", "items.csv", "-o", "Draft", "--force"], in: folder).status == 0)

        // With the model: a plan only, its model: the given one.
        let mapped = try CLIProcess.run(
            ["plan", "infer", "items.csv", "lists.csv", "--model", "Catalog.yaml", "-o", "Mapped"], in: folder)
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Mapped/model.yaml"))
        #expect(
            try String(contentsOfFile: folder + "/Mapped/plan.yaml", encoding: .utf8).contains(
                "\nmodel: ../Catalog.yaml\n"))
        #expect(try CLIProcess.run(["import", "Mapped/plan.yaml", "--dry-run", "--quiet"], in: folder).status == 0)
    }

    @Test func explainPrintsTheMappingOrFailsLikeImport() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let explained = try CLIProcess.run(["plan", "explain", "catalog-csv.yaml"], in: folder)
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.hasPrefix("sources[0] items.csv → Item\n  key: sku (plan)\n"))
        #expect(
            explained.stdout.contains(
                "\n  tags ← tags (plan); match name (plan); missing: create; split \";\"; members: add\n"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/Catalog.sqlite"))
        try "model: Catalog.yaml\nsources:\n  - {file: items.csv, entity: Itme}\n".write(
            toFile: folder + "/bad.yaml", atomically: true, encoding: .utf8)
        let bad = try CLIProcess.run(["plan", "explain", "bad.yaml"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("(sources[0].entity): unknown entity 'Itme'; did you mean 'Item'?"))
    }

    @Test func requestsThatDoNotFitAreErrors() throws {
        let folder = try ExitCodeTests.sampleFolder()
        #expect(try CLIProcess.run(["plan", "infer", "items.csv"], in: folder).status == 2)
        #expect(try CLIProcess.run(["plan", "infer", "items.csv", "-o", "D", "--sample", "0"], in: folder).status == 2)
        let format = try CLIProcess.run(["plan", "infer", "Catalog.yaml", "-o", "D"], in: folder)
        #expect(format.status == 1)
        #expect(
            format.stderr
                == "seedkit: Catalog.yaml: cannot tell the format from the extension (csv, tsv, json, ndjson, jsonl, xml)\n"
        )
        let entity = try CLIProcess.run(["plan", "infer", "catalog.xml", "--entity", "Item", "-o", "D"], in: folder)
        #expect(entity.status == 1)
        #expect(entity.stderr.hasPrefix("seedkit: --entity names the entity of one source, but the files hold 2: "))
        let broken = try CLIProcess.run(["plan", "infer", "missing.csv", "-o", "D"], in: folder)
        #expect(broken.status == 1 && broken.stderr.hasPrefix("seedkit: ") && broken.stderr.contains("missing.csv"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/D"))
    }

    @Test func theSchemaPrintedIsTheCommittedFile() throws {
        let result = try CLIProcess.run(["plan", "schema"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let file = try Data(
            contentsOf: ExitCodeTests.repository.appendingPathComponent("schemas/seedkit-plan.schema.json"))
        #expect(Data(result.stdout.utf8) == file)
    }
}
