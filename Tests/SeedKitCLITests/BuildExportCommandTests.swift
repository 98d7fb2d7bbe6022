// `seedkit build` and `seedkit export` (docs/FirstLaunch.md, docs/CLI.md): a build exits 0, prints its report and
// checksum, writes a single file with no side files, and two builds of the same inputs are
// byte-identical; a failed build exits 1 and leaves the output as it was; an export of a built
// store has the documented content in every format and imports back through a plan naming only
// entities and keys; usage errors exit 2 with the reason on the first stderr line.
// (The JSON shape of build reports is checked in CopyBuildOutputTests.)
import Foundation
import Testing

@Suite struct BuildCommandTests {
    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func sideFiles(_ path: String) -> [String] {
        ["-wal", "-shm", "-journal", ".building"].map { path + $0 }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
    }

    @Test func aBuildExits0AndPrintsItsReportAndChecksum() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Seed.sqlite"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        let lines = built.stdout.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.dropLast()) == [
                "items.csv → Item: 5 records read, 0 rejected",
                "lists.csv → ShoppingList: 2 records read, 0 rejected",
                "Item: 5 inserted, 0 updated, 0 unchanged, 0 rejected",
                "Location: 3 inserted, 0 updated, 0 unchanged, 0 rejected",
                "ShoppingList: 2 inserted, 0 updated, 0 unchanged, 0 rejected",
                "Tag: 3 inserted, 0 updated, 0 unchanged, 0 rejected",
                "Unit: 3 inserted, 0 updated, 0 unchanged, 0 rejected",
            ])
        let last = try #require(lines.last)
        #expect(last.hasPrefix("built Seed.sqlite (sha256 ") && last.hasSuffix("…)"))
        let shown = last.dropFirst("built Seed.sqlite (sha256 ".count).dropLast(2)
        #expect(shown.count == 16 && shown.allSatisfy(\.isHexDigit))
        #expect(FileManager.default.fileExists(atPath: folder + "/Seed.sqlite"))
        #expect(Self.sideFiles(folder + "/Seed.sqlite").isEmpty)

        let quiet = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Quiet.sqlite", "--quiet"], in: folder)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test func twoBuildsOfTheSameInputsAreByteIdentical() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let first = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "First.sqlite"], in: folder)
        let second = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Second.sqlite"], in: folder)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(try Self.bytes(folder + "/First.sqlite") == Self.bytes(folder + "/Second.sqlite"))
        #expect(
            first.stdout.split(separator: "\n").last?.split(separator: " ").last
                == second.stdout.split(separator: "\n").last?.split(separator: " ").last)

        // Rebuilding over an existing file gives the same bytes again.
        let again = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "First.sqlite", "--quiet"], in: folder)
        #expect(again.status == 0)
        #expect(try Self.bytes(folder + "/First.sqlite") == Self.bytes(folder + "/Second.sqlite"))
        #expect(Self.sideFiles(folder + "/First.sqlite").isEmpty)

        // Without -o the plan's store: is written.
        let planStore = try CLIProcess.run(["build", "catalog-csv.yaml", "--quiet"], in: folder)
        #expect(planStore.status == 0, "\(planStore.stderr)")
        #expect(try Self.bytes(folder + "/Catalog.sqlite") == Self.bytes(folder + "/First.sqlite"))
    }

    @Test func theThreeCatalogPlansBuildTheSameGraphWithTheirOwnSourceChecksums() throws {
        let folder = try ExitCodeTests.sampleFolder()
        for format in ["csv", "json", "xml"] {
            let built = try CLIProcess.run(
                ["build", "catalog-\(format).yaml", "-o", "\(format).sqlite", "--quiet"], in: folder)
            #expect(built.status == 0, "\(format): \(built.stderr)")
        }
        for other in ["json", "xml"] {
            let diff = try CLIProcess.run(["diff", "csv.sqlite", "\(other).sqlite"], in: folder)
            #expect(diff.status == 0, "\(other): \(diff.stdout)\(diff.stderr)")
            #expect(try Self.bytes(folder + "/csv.sqlite") != Self.bytes(folder + "/\(other).sqlite"))
        }
        let inspected = try CLIProcess.run(["inspect", "csv.sqlite", "--json"], in: folder)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        let metadata = try #require(report["metadata"] as? [String: String])
        #expect(metadata["seed.version"] == "2026.11")
        #expect(metadata["seed.generator"]?.hasPrefix("seedkit ") == true)
        let sources = try #require(
            try JSONSerialization.jsonObject(with: Data((metadata["seed.sources"] ?? "").utf8)) as? [String: String])
        #expect(Set(sources.keys) == ["items.csv", "lists.csv"])
        #expect(sources.values.allSatisfy { $0.count == 64 })
    }

    @Test func aFailedBuildExits1AndLeavesTheOutputAsItWas() throws {
        let folder = try ExitCodeTests.sampleFolder()
        #expect(
            try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Seed.sqlite", "--quiet"], in: folder).status == 0)
        let before = try Self.bytes(folder + "/Seed.sqlite")
        try Data(
            "sku,name,price,quantity,listed,added,notes,unit,location,tags\nZ-1,Z,abc,1,yes,2026-01-01T00:00:00Z,,kg,A1,\n"
                .utf8
        ).write(to: URL(fileURLWithPath: folder + "/items.csv"))
        for output in ["Seed.sqlite", "New.sqlite"] {
            let failed = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", output], in: folder)
            #expect(failed.status == 1)
            #expect(failed.stdout.isEmpty)
            #expect(
                failed.stderr == "seedkit: items.csv:2:7 (byte 68, record 1) field price: \"abc\" is not a number\n")
            #expect(Self.sideFiles(folder + "/" + output).isEmpty)
        }
        #expect(try Self.bytes(folder + "/Seed.sqlite") == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/New.sqlite"))

        let missing = try CLIProcess.run(["build", "nothing.yaml"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "seedkit: nothing.yaml: cannot read the plan file: no such file\n")
    }

    @Test func usageErrorsExit2() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let cases: [([String], String)] = [
            (["build"], "Missing expected argument '<plan>'"),
            (["build", "catalog-csv.yaml", "-o"], "Missing value for '-o <output>'"),
            (["build", "catalog-csv.yaml", "--frobnicate"], "Unknown option '--frobnicate'"),
        ]
        for (arguments, reason) in cases {
            let result = try CLIProcess.run(arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: \(reason)\n"), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/Catalog.sqlite"))
    }
}

@Suite struct ExportCommandTests {
    /// A sample folder with the catalog built into `Seed.sqlite`.
    static func built() throws -> String {
        let folder = try ExitCodeTests.sampleFolder()
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Seed.sqlite", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        return folder
    }

    static func export(_ arguments: [String], in folder: String) throws -> String {
        let result = try CLIProcess.run(["export", "Seed.sqlite"] + arguments, in: folder)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(arguments)")
        return result.stdout
    }

    @Test func csvHasAttributesByNameThenRelationshipsAsKeys() throws {
        let folder = try Self.built()
        #expect(
            try Self.export(["--entity", "ShoppingList"], in: folder) == """
                code,created,title,items
                L-1,2026-01-08T10:00:00Z,Weekly shop,A-003;A-001;A-005
                L-2,2026-01-09T08:00:00Z,Breakfast,A-005;A-004

                """)
        let items = try Self.export(["--entity", "Item", "--format", "csv"], in: folder)
        let lines = items.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "added,listed,name,notes,price,quantity,sku,lists,location,tags,unit")
        #expect(lines[1] == "2026-01-05T09:00:00Z,true,Apples,,2.49,120,A-001,L-1,A1,fruit;fresh,kg")
        #expect(lines[2] == "2026-01-05T09:05:00Z,true,Bananas,Fair trade,1.19,80,A-002,\"\",A1,fruit,kg")
        #expect(items.contains("\"Milk, whole\",\"Keep \"\"cold\"\"\",0.99,40,A-003,L-1,B4,"))
        #expect(items.contains("Crème fraîche,\"Two\nlines\",1.79,25,A-004,L-2,B4,dairy,pack\n"))
        #expect(items.hasSuffix("2026-01-07T06:00:00Z,true,Bread & butter,,3.1,10,A-005,L-1;L-2,C2,\"\",pack\n"))

        // The export reads back as 5 well-formed CSV records.
        try Data(items.utf8).write(to: URL(fileURLWithPath: folder + "/Item.csv"))
        #expect(try CLIProcess.run(["check", "Item.csv"], in: folder).stdout == "Item.csv: 5 records\n")
    }

    @Test func jsonAndNDJSONHoldTypedValuesAndKeyLists() throws {
        let folder = try Self.built()
        let json = try Self.export(["--entity", "Item", "--format", "json"], in: folder)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(items.map { $0["sku"] as? String } == ["A-001", "A-002", "A-003", "A-004", "A-005"])
        let apples = items[0]
        #expect(
            Set(apples.keys) == [
                "added", "listed", "name", "notes", "price", "quantity", "sku", "lists", "location", "tags", "unit",
            ])
        #expect(apples["name"] as? String == "Apples" && apples["price"] as? Double == 2.49)
        #expect(apples["quantity"] as? Int == 120 && apples["listed"] as? Bool == true)
        #expect(apples["added"] as? String == "2026-01-05T09:00:00Z")
        #expect(apples["notes"] is NSNull)
        #expect(apples["unit"] as? String == "kg" && apples["location"] as? String == "A1")
        #expect(Set(apples["tags"] as? [String] ?? []) == ["fruit", "fresh"])
        #expect(apples["lists"] as? [String] == ["L-1"])
        #expect(items[3]["notes"] as? String == "Two\nlines" && items[3]["name"] as? String == "Crème fraîche")
        #expect(items[4]["tags"] as? [String] == [] && items[4]["lists"] as? [String] == ["L-1", "L-2"])

        let ndjson = try Self.export(["--entity", "ShoppingList", "--format", "ndjson"], in: folder)
        let lines = ndjson.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let lists = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(lists[0]["code"] as? String == "L-1" && lists[0]["title"] as? String == "Weekly shop")
        #expect(lists[0]["items"] as? [String] == ["A-003", "A-001", "A-005"])
        #expect(lists[1]["items"] as? [String] == ["A-005", "A-004"])
    }

    @Test func xmlHasOneElementPerObject() throws {
        let folder = try Self.built()
        let xml = try Self.export(["--entity", "ShoppingList", "--format", "xml"], in: folder)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<export entity=\"ShoppingList\">\n"))
        #expect(
            xml.contains(
                "<ShoppingList><code>L-2</code><created>2026-01-09T08:00:00Z</created><title>Breakfast</title>"
                    + "<items>A-005</items><items>A-004</items></ShoppingList>"))
        #expect(xml.contains("</export>"))
        try Data(xml.utf8).write(to: URL(fileURLWithPath: folder + "/lists.xml"))
        let checked = try CLIProcess.run(["check", "lists.xml", "--records", "export/ShoppingList"], in: folder)
        #expect(checked.stdout == "lists.xml: 2 records\n", "\(checked.stderr)")
    }

    @Test func anOutputFileTakesItsFormatFromItsExtension() throws {
        let folder = try Self.built()
        let written = try CLIProcess.run(["export", "Seed.sqlite", "--entity", "Unit", "-o", "Unit.json"], in: folder)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty)
        #expect(written.stderr == "exported 3 Unit objects\n")
        let units = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/Unit.json")))
                as? [[String: Any]])
        #expect(units.map { $0["name"] as? String } == ["kg", "l", "pack"])
        #expect(units[0]["items"] as? [String] == ["A-001", "A-002"])
    }

    /// The round trip docs/CLI.md shows: every entity exported, one plan naming only entities and
    /// keys, the same object graph back (relationships included).
    @Test(arguments: ["csv", "ndjson"]) func anExportOfEveryEntityImportsBackToTheSameGraph(_ format: String) throws {
        let folder = try Self.built()
        try FileManager.default.createDirectory(atPath: folder + "/Export", withIntermediateDirectories: true)
        let keys = [
            ("Unit", "name"), ("Location", "aisle"), ("Tag", "name"), ("Item", "sku"), ("ShoppingList", "code"),
        ]
        var plan = "model: ../Catalog.yaml\nstore: Copy.sqlite\nsources:\n"
        for (entity, key) in keys {
            let result = try CLIProcess.run(
                ["export", "Seed.sqlite", "--entity", entity, "-o", "Export/\(entity).\(format)"], in: folder)
            #expect(result.status == 0, "\(entity): \(result.stderr)")
            plan += "  - {file: \(entity).\(format), entity: \(entity), key: [\(key)]}\n"
        }
        try Data(plan.utf8).write(to: URL(fileURLWithPath: folder + "/Export/plan.yaml"))
        let imported = try CLIProcess.run(["import", "Export/plan.yaml", "--quiet"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let diff = try CLIProcess.run(["diff", "Seed.sqlite", "Export/Copy.sqlite"], in: folder)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
    }

    /// Leaving out the destinations of to-many relationships drops those links (they are
    /// ignored by convention) — why docs/CLI.md exports every entity.
    @Test func aPlanWithoutTheToManyDestinationsLosesThoseLinks() throws {
        let folder = try Self.built()
        for entity in ["Unit", "Item"] {
            #expect(
                try CLIProcess.run(
                    ["export", "Seed.sqlite", "--entity", entity, "-o", "\(entity).out.csv"], in: folder
                )
                .status == 0)
        }
        let plan = """
            model: Catalog.yaml
            store: Partial.sqlite
            sources:
              - {file: Unit.out.csv, entity: Unit, key: [name]}
              - {file: Item.out.csv, entity: Item, key: [sku]}
            """
        try Data(plan.utf8).write(to: URL(fileURLWithPath: folder + "/partial.yaml"))
        #expect(try CLIProcess.run(["import", "partial.yaml", "--quiet"], in: folder).status == 0)
        let diff = try CLIProcess.run(["diff", "Seed.sqlite", "Partial.sqlite"], in: folder)
        #expect(diff.status == 1)
        #expect(diff.stdout.contains("Item[A-001].tags: [fresh, fruit] ≠ []"))
        #expect(diff.stdout.contains("Item[A-005].lists: [L-1, L-2] ≠ []"))
        #expect(diff.stdout.contains("Tag[fruit]: only in A"))
    }

    @Test func failuresExit1AndUsageErrorsExit2() throws {
        let folder = try Self.built()
        let unknown = try CLIProcess.run(["export", "Seed.sqlite", "--entity", "Nope"], in: folder)
        #expect(unknown.status == 1)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr == "seedkit: unknown entity \"Nope\"\n")
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        let missing = try CLIProcess.run(["export", "Missing.sqlite", "--entity", "Item"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "seedkit: Missing.sqlite: no store at this path\n")

        let cases: [([String], String)] = [
            (["export", "Seed.sqlite"], "Missing expected argument '--entity <entity>'"),
            (["export", "--entity", "Item"], "Missing expected argument '<store>'"),
            (
                ["export", "Seed.sqlite", "--entity", "Item", "--format", "yaml"],
                "The value 'yaml' is invalid for '--format <format>'. Please provide one of 'csv', 'json', 'ndjson' or 'xml'."
            ),
        ]
        for (arguments, reason) in cases {
            let result = try CLIProcess.run(arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: \(reason)\n"), "\(arguments): \(result.stderr)")
        }
    }
}
