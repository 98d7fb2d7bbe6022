// `seedkit migrate` (docs/CLI.md; T-CLI): the data-loss gate (exit 1, the store's bytes
// unchanged, the drops listed), `--plan`, a dry run (no file left, not even the store's -wal or
// -shm), the text report, "nothing to do", `--json` with
// `--output`, and a mapping model whose migration policy the command line cannot run: refused
// by the policy's name unless skipped on purpose.
import Foundation
import GraphStore
import ModelFiles
import Testing

@Suite struct MigrateCommandTests {
    /// A folder with `Versions.json` (V1: Item name, note; V2: Item name, rating default 3) and
    /// `Store.sqlite` at V1 with three items, two with a note, then `moreItems` items named
    /// `Item 1`, `Item 2`, … without one.
    static func folder(moreItems: Int = 0) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seedkit-migrate-cli-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let v1 = try ModelBuilder("List")
            .entity("Item") { item in
                item.attribute("name", .string)
                item.attribute("note", .string)
            }
            .build()
        let v2 = try ModelBuilder("List")
            .entity("Item") { item in
                item.attribute("name", .string)
                item.attribute("rating", .integer32, optional: false, default: .integer(3))
            }
            .build()
        try ModelFile(v1).jsonData().write(to: URL(fileURLWithPath: folder + "/List.v1.json"))
        try ModelFile(v2).jsonData().write(to: URL(fileURLWithPath: folder + "/List.v2.json"))
        let versions = """
            {"versions": [{"name": "V1", "file": "List.v1.json"}, {"name": "V2", "file": "List.v2.json"}], "current": "V2"}
            """
        try Data(versions.utf8).write(to: URL(fileURLWithPath: folder + "/Versions.json"))
        let store = try PersistentStore.open(at: folder + "/Store.sqlite", model: v1)
        let context = try ObjectContext(store: store)
        for (name, note) in [("Apples", "ripe"), ("Bread", nil), ("Milk", "cold")] {
            let item = try context.insert("Item")
            try item.set("name", name)
            try item.set("note", note)
        }
        for number in stride(from: 1, through: moreItems, by: 1) {
            try context.insert("Item").set("name", "Item \(number)")
        }
        try context.save()
        return folder
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func theDataLossGatePlanReportAndNothingToDo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/Store.sqlite"
        let before = try Self.bytes(store)

        let refused = try CLIProcess.run(["migrate", "Store.sqlite", "--model", "Versions.json"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Item.note: 2 values"), "\(refused.stderr)")
        #expect(try Self.bytes(store) == before)

        let plan = try CLIProcess.run(["migrate", "Store.sqlite", "--model", "Versions.json", "--plan"], in: folder)
        #expect(plan.status == 1)
        #expect(
            plan.stdout
                == """
                Store.sqlite: V1 → V2, 1 step in 1 pass
                pass 1 (inferred): V1 → V2
                    Item.note: removed
                    Item.rating: added (default 3)
                drops Item.note: 2 values

                """)
        #expect(plan.stderr.contains("--allow-data-loss"))
        #expect(try Self.bytes(store) == before)

        let migrated = try CLIProcess.run(
            ["migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--quiet"], in: folder)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.isEmpty)
        let again = try CLIProcess.run(["migrate", "Store.sqlite", "--model", "Versions.json"], in: folder)
        #expect(again.status == 0)
        #expect(again.stdout == "Store.sqlite is at V2 (current): nothing to do\n")
    }

    @Test func aDryRunChecksEverythingAndWritesNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try Self.bytes(folder + "/Store.sqlite")
        let dry = try CLIProcess.run(
            ["migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--dry-run"], in: folder)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("checked (dry run, nothing written): Store.sqlite from V1 to V2: 1 step in 1 pass"))
        #expect(try Self.bytes(folder + "/Store.sqlite") == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.filter { $0.contains("seedkit-migrate") } == [])
        // Reading the store to plan and to count its rows leaves no -wal nor -shm beside it.
        #expect(names.filter { $0.hasPrefix("Store.sqlite-") } == [])
    }

    @Test func theTextAndJSONReports() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try CLIProcess.run(
            ["migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--output", "Text.sqlite"],
            in: folder)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["Item: 3 kept", "dropped Item.note: 2 values"])
        #expect(lines.last?.hasPrefix("migrated Text.sqlite from V1 to V2: 1 step in 1 pass (") == true)

        let json = try CLIProcess.run(
            [
                "migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--output", "Out.sqlite",
                "--json",
            ],
            in: folder)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "V1" && object["to"] as? String == "V2")
        #expect(object["changed"] as? Bool == true && object["output"] as? String == "Out.sqlite")
        let passes = try #require(object["passes"] as? [[String: Any]])
        #expect(passes.count == 1 && passes[0]["kind"] as? String == "inferred")
        let item = try #require((object["entities"] as? [String: Any])?["Item"] as? [String: Int])
        #expect(item == ["kept": 3, "created": 0, "dropped": 0])
        #expect(object["dataDropped"] as? [String] == ["Item.note: 2 values"])
        let connection = try SQLiteConnection(path: folder + "/Out.sqlite", mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare(
            "SELECT group_concat(name || rating, ',') FROM (SELECT * FROM Item ORDER BY pk)")
        #expect(try statement.step() && statement.string(0) == "Apples3,Bread3,Milk3")
    }

    @Test func aPolicyTheCommandLineCannotRunIsRefusedByNameUnlessSkipped() throws {
        let fixtures = ExitCodeTests.repository.appendingPathComponent(
            "Tests/StoreMigrationTests/Fixtures/CoreDataPlus/SampleModel")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seedkit-migrate-cli-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = fixtures.appendingPathComponent("SampleModel.xcdatamodeld").path
        let mapping = fixtures.appendingPathComponent("MappingModels/V2toV3.xcmappingmodel").path
        let store = try PersistentStore.open(
            at: folder + "/Cars.sqlite", model: try ModelVersionSet.load(from: model).model(named: "SampleModel2"))
        let context = try ObjectContext(store: store)
        let car = try context.insert("Car")
        try car.set("numberPlate", "AA-1")
        try car.set("maker", "Fiat")
        try context.save()
        let before = try Self.bytes(folder + "/Cars.sqlite")

        let arguments = ["migrate", "Cars.sqlite", "--model", model, "--to", "SampleModel3", "--mapping", mapping]
        let refused = try CLIProcess.run(arguments, in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("unregistered migration policy REPLACE_AT_RUNTIME.V2to3MakerPolicy"))
        #expect(refused.stderr.contains("--skip-policy NAME"))
        #expect(try Self.bytes(folder + "/Cars.sqlite") == before)

        // A folder is searched for mapping models: the fixture's is two levels down.
        let skipped = try CLIProcess.run(
            [
                "migrate", "Cars.sqlite", "--model", model, "--to", "SampleModel3", "--mapping", fixtures.path,
                "--skip-policy", "V2to3MakerPolicy", "--allow-data-loss",
            ], in: folder)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("warning: ") && skipped.stdout.contains("V2to3MakerPolicy"))
        #expect(skipped.stdout.contains("1 step in 1 pass"))
    }
}
