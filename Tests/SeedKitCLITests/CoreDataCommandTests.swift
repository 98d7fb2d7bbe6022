// The commands on Core Data–layout stores (docs/CoreDataStores.md): `build --layout core-data`
// makes the Grocery Dude seed as one file with only Core Data's tables and the hashes
// `seedkit model` computes, byte-identical for the same inputs; `inspect` reads it without a
// model; `diff`, `export` and `copy` read it with the Xcode model (the version whose hashes equal
// the store's, or the named one, refused naming the entities that differ) and find it equal to
// the SeedKit-layout build; `copy` and `import` write new Core Data stores and upsert into
// existing ones (Z_MAX, Z_OPT, app metadata kept); a plan whose model is not an Xcode model is
// refused for core-data before any file is made, and a failed import leaves no file.
import Foundation
import GraphStore
import ModelFiles
import Testing

@Suite struct CoreDataCommandTests {
    /// A scratch copy of `SeedData/GroceryDude` (plan, XML, model).
    static func groceryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seedkit-coredata-cli-\(UUID().uuidString)"
        ).path
        try FileManager.default.copyItem(
            atPath: ExitCodeTests.repository.appendingPathComponent("SeedData/GroceryDude").path, toPath: folder)
        return folder
    }

    /// Runs `seedkit` in `folder` and expects exit 0.
    @discardableResult
    static func succeed(_ arguments: [String], in folder: String) throws -> CLIResult {
        let result = try CLIProcess.run(arguments, in: folder)
        #expect(result.status == 0, "seedkit \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Every row of `sql` on the database at `path`, columns joined by `|`.
    static func rows(_ sql: String, in path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<statement.columnCount).map { statement.isNull($0) ? "nil" : statement.string($0) }
                    .joined(separator: "|"))
        }
        return rows
    }

    static let model = "GroceryDude.xcdatamodeld"

    @Test func groceryDudeBuiltInCoreDataLayoutIsInspectedWithoutAModelAndEqualsTheSeedKitBuild() throws {
        let folder = try Self.groceryFolder()
        try Self.succeed(["build", "GroceryDude.yaml", "-o", "SeedKit.sqlite", "--quiet"], in: folder)
        try Self.succeed(
            ["build", "GroceryDude.yaml", "-o", "CoreData.sqlite", "--layout", "core-data", "--quiet"], in: folder)
        try Self.succeed(
            ["build", "GroceryDude.yaml", "-o", "Again.sqlite", "--layout", "core-data", "--quiet"], in: folder)
        let store = folder + "/CoreData.sqlite"
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: store))
                == Data(contentsOf: URL(fileURLWithPath: folder + "/Again.sqlite")))
        #expect(BuildCommandTests.sideFiles(store).isEmpty)
        #expect(
            try Self.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", in: store)
                == ["ZITEM", "ZLOCATION", "ZUNIT", "Z_METADATA", "Z_PRIMARYKEY"])
        #expect(try Self.rows("PRAGMA journal_mode", in: store) == ["delete"])
        #expect(try Self.rows("PRAGMA auto_vacuum", in: store) == ["2"])
        #expect(try Self.rows("PRAGMA page_size", in: store) == ["4096"])
        // Roots' Z_MAX is their table's highest key; sub-entities hold 0.
        #expect(
            try Self.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: store) == [
                "1|Item|0|14", "2|Location|0|12", "3|LocationAtHome|2|0", "4|LocationAtShop|2|0", "5|Unit|0|8",
            ])

        // inspect: no model needed; the hashes are the ones `seedkit model` computes for the Xcode model.
        let inspected = try Self.json(try Self.succeed(["inspect", "CoreData.sqlite", "--json"], in: folder).stdout)
        #expect(inspected["layout"] as? String == "core-data")
        let counts = try #require(inspected["entities"] as? [String: [String: Int]]).mapValues { $0["count"] ?? -1 }
        #expect(counts == ["Item": 14, "Location": 0, "LocationAtHome": 5, "LocationAtShop": 7, "Unit": 8])
        let metadata = try #require(inspected["metadata"] as? [String: Any])
        let summary = try Self.json(try Self.succeed(["model", Self.model, "--json"], in: folder).stdout)
        let entities = try #require(summary["entities"] as? [String: [String: Any]])
        #expect(
            metadata["NSStoreModelVersionHashes"] as? [String: String]
                == entities.mapValues { $0["coreDataVersionHash"] as? String ?? "" })
        #expect(
            metadata["NSStoreModelVersionHashesDigest"] as? String == summary["coreDataVersionHashesDigest"] as? String)
        #expect(metadata["NSStoreModelVersionChecksumKey"] as? String == summary["coreDataVersionChecksum"] as? String)
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        #expect(metadata["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(metadata["seed.version"] as? String == "1.0")
        #expect((metadata["seed.sources"] as? String)?.contains("DefaultData.xml") == true)
        let uuid = try #require(metadata["store.uuid"] as? String)
        #expect(try Self.rows("SELECT Z_UUID FROM Z_METADATA", in: store) == [uuid])
        let text = try Self.succeed(["inspect", "CoreData.sqlite"], in: folder).stdout
        #expect(text.contains("  layout: core-data\n") && text.contains("  Item: 14 objects\n"))

        // Without the model a Core Data store cannot be compared; with it, it equals the SeedKit build.
        let model = try CLIProcess.run(["model", "CoreData.sqlite"], in: folder)
        #expect(model.status == 1 && model.stderr.contains("does not hold its model (a Core Data store)"))
        let withoutModel = try CLIProcess.run(["diff", "SeedKit.sqlite", "CoreData.sqlite"], in: folder)
        #expect(withoutModel.status == 1 && withoutModel.stderr.contains("--model"))
        try Self.succeed(["diff", "SeedKit.sqlite", "CoreData.sqlite", "--model", Self.model], in: folder)
        for format in ["json", "csv"] {
            let fromSeedKit = try Self.succeed(
                ["export", "SeedKit.sqlite", "--entity", "Item", "--format", format], in: folder)
            let fromCoreData = try Self.succeed(
                ["export", "CoreData.sqlite", "--entity", "Item", "--format", format, "--model", Self.model], in: folder
            )
            #expect(fromCoreData.stdout == fromSeedKit.stdout)
            #expect(fromCoreData.stdout.contains("Coffee"))
        }
    }

    /// The Grocery Dude model as two versions: the original (`GroceryDude`) and `GroceryDude 2`
    /// (current), whose Unit has one more attribute.
    static func versionedModel(in folder: String) throws -> String {
        let bundle = folder + "/Versioned.xcdatamodeld"
        let original = folder + "/\(model)/GroceryDude.xcdatamodel/contents"
        let text = try String(contentsOfFile: original, encoding: .utf8)
        let changed = text.replacingOccurrences(
            of: "<entity name=\"Unit\" representedClassName=\"Unit\" syncable=\"YES\">",
            with:
                "<entity name=\"Unit\" representedClassName=\"Unit\" syncable=\"YES\">\n        <attribute name=\"symbol\" optional=\"YES\" attributeType=\"String\"/>"
        )
        #expect(changed != text)
        for (version, contents) in [("GroceryDude", text), ("GroceryDude 2", changed)] {
            try FileManager.default.createDirectory(
                atPath: bundle + "/\(version).xcdatamodel", withIntermediateDirectories: true)
            try contents.write(toFile: bundle + "/\(version).xcdatamodel/contents", atomically: true, encoding: .utf8)
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>GroceryDude 2.xcdatamodel</string></dict></plist>
            """
        try current.write(toFile: bundle + "/.xccurrentversion", atomically: true, encoding: .utf8)
        return bundle
    }

    @Test func theVersionWhoseHashesEqualTheStoresIsChosenAndAnotherIsRefusedNamingTheEntities() throws {
        let folder = try Self.groceryFolder()
        try Self.succeed(["build", "GroceryDude.yaml", "-o", "SeedKit.sqlite", "--quiet"], in: folder)
        try Self.succeed(
            ["build", "GroceryDude.yaml", "-o", "CoreData.sqlite", "--layout", "core-data", "--quiet"], in: folder)
        let bundle = try Self.versionedModel(in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/CoreData.sqlite"))
        // The current version (GroceryDude 2) does not fit the store; the first version does.
        try Self.succeed(["diff", "SeedKit.sqlite", "CoreData.sqlite", "--model", bundle], in: folder)
        let named = try CLIProcess.run(
            ["diff", "SeedKit.sqlite", "CoreData.sqlite", "--model", bundle, "--model-version", "GroceryDude 2"],
            in: folder)
        #expect(named.status == 1)
        #expect(named.stderr.hasPrefix("seedkit: ") && named.stderr.contains("incompatible model: Unit: version hash"))
        #expect(!named.stderr.contains("Item:"))
        let export = try CLIProcess.run(
            ["export", "CoreData.sqlite", "--entity", "Unit", "--model", bundle, "--model-version", "GroceryDude 2"],
            in: folder)
        #expect(export.status == 1 && export.stdout.isEmpty && export.stderr.contains("Unit: version hash"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/CoreData.sqlite")) == before)
        let usage = try CLIProcess.run(
            ["diff", "SeedKit.sqlite", "CoreData.sqlite", "--model-version", "X"], in: folder)
        #expect(usage.status == 2 && usage.stderr.contains("--model-version needs --model"))
    }

    @Test func copyReadsAndWritesCoreDataStoresAndMergesIntoOne() throws {
        let folder = try Self.groceryFolder()
        try Self.succeed(["build", "GroceryDude.yaml", "-o", "SeedKit.sqlite", "--quiet"], in: folder)
        try Self.succeed(
            ["build", "GroceryDude.yaml", "-o", "CoreData.sqlite", "--layout", "core-data", "--quiet"], in: folder)
        // Core Data → a new SeedKit store, SeedKit → a new Core Data store.
        try Self.succeed(
            ["copy", "--from", "CoreData.sqlite", "--to", "Back.sqlite", "--model", Self.model, "--quiet"], in: folder)
        try Self.succeed(["diff", "SeedKit.sqlite", "Back.sqlite"], in: folder)
        try Self.succeed(
            [
                "copy", "--from", "SeedKit.sqlite", "--to", "Copied.sqlite", "--layout", "core-data", "--model",
                Self.model,
                "--quiet",
            ], in: folder)
        try Self.succeed(["diff", "Copied.sqlite", "CoreData.sqlite", "--model", Self.model], in: folder)
        let inspected = try Self.json(try Self.succeed(["inspect", "Copied.sqlite", "--json"], in: folder).stdout)
        #expect(inspected["layout"] as? String == "core-data")

        // A user's Core Data store with an item of its own and an app key: the merge upserts by
        // key (the model has no uniqueness constraints: --key names them), hands out keys above Z_MAX, raises Z_OPT of what it updates, keeps the app key.
        let user = folder + "/User.sqlite"
        try FileManager.default.copyItem(atPath: folder + "/CoreData.sqlite", toPath: user)
        let connection = try SQLiteConnection(path: user, mode: .readWrite)
        try connection.execute("DELETE FROM ZITEM WHERE ZNAME = 'Coffee'")
        try connection.execute("UPDATE ZITEM SET ZQUANTITY = 99 WHERE ZNAME = 'Milk'")
        try connection.execute(
            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZQUANTITY) VALUES (40, 1, 1, 'Homemade jam', 2)")
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_ENT = 1")
        connection.close()
        let store = try PersistentStore.open(at: user, model: try ModelLoader.load(from: folder + "/" + Self.model))
        try store.setMetadata(["DefaultDataImported": "YES"])
        let optBefore = try Self.rows("SELECT Z_OPT FROM ZITEM WHERE ZNAME = 'Milk'", in: user)

        let merged = try Self.succeed(
            [
                "copy", "--from", "SeedKit.sqlite", "--to", "User.sqlite", "--model", Self.model, "--json",
                "--key", "Item: name", "--key", "Unit: name", "--key", "LocationAtHome: storedIn",
                "--key", "LocationAtShop: aisle",
            ], in: folder)
        let report = try Self.json(merged.stdout)
        let items = try #require((report["entities"] as? [String: [String: Any]])?["Item"])
        #expect(items["copied"] as? Int == 1 && items["updated"] as? Int == 1)
        #expect(try Self.rows("SELECT Z_PK > 40 FROM ZITEM WHERE ZNAME = 'Coffee'", in: user) == ["1"])
        #expect(try Self.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1", in: user) == ["41"])
        #expect(try Self.rows("SELECT ZQUANTITY FROM ZITEM WHERE ZNAME = 'Milk'", in: user) == ["1.0"])
        let optAfter = try Self.rows("SELECT Z_OPT FROM ZITEM WHERE ZNAME = 'Milk'", in: user)
        #expect(Int(optAfter.first ?? "") ?? 0 > Int(optBefore.first ?? "") ?? 0)
        #expect(try Self.rows("SELECT count(*) FROM ZITEM", in: user) == ["15"])
        #expect(try Self.rows("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: user) == [])
        let after = try Self.json(try Self.succeed(["inspect", "User.sqlite", "--json"], in: folder).stdout)
        #expect((after["metadata"] as? [String: Any])?["DefaultDataImported"] as? String == "YES")
    }

    /// A plan importing `items.csv` (name, quantity, unit) into `store` with the Grocery Dude
    /// model, with the plan-level lines `settings`.
    static func writePlan(_ name: String, store: String, settings: String = "", in folder: String) throws {
        let plan = """
            model: \(model)
            store: \(store)
            \(settings)
            sources:
              - file: items.csv
                entity: Item
                key: [name]
                attributes: {name: name, quantity: quantity}
                relationships:
                  unit: {field: unit, match: name, missing: create}
            """
        try plan.write(toFile: folder + "/\(name)", atomically: true, encoding: .utf8)
    }

    @Test func importWritesANewCoreDataStoreAndUpsertsIntoIt() throws {
        let folder = try Self.groceryFolder()
        try "name,quantity,unit\nTea,1,box\nMilk,2,l\nJam,1,jar\n".write(
            toFile: folder + "/items.csv", atomically: true, encoding: .utf8)
        try Self.writePlan("items.yaml", store: "Items.sqlite", in: folder)
        let store = folder + "/Items.sqlite"
        try Self.succeed(["import", "items.yaml", "--layout", "core-data", "--quiet"], in: folder)
        #expect(
            try Self.rows("SELECT ZNAME, ZQUANTITY, Z_OPT FROM ZITEM ORDER BY Z_PK", in: store) == [
                "Tea|1.0|1", "Milk|2.0|1", "Jam|1.0|1",
            ])
        #expect(
            try Self.rows(
                "SELECT i.ZNAME, u.ZNAME FROM ZITEM i JOIN ZUNIT u ON u.Z_PK = i.ZUNIT ORDER BY i.Z_PK", in: store)
                == ["Tea|box", "Milk|l", "Jam|jar"])
        #expect(
            try Self.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Item', 'Unit')", in: store) == ["3", "3"])
        #expect(try Self.rows("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: store) == [])

        // Again with one changed record and one new: an upsert by key, keys from Z_MAX, Z_OPT raised.
        try "name,quantity,unit\nTea,5,box\nMilk,2,l\nJam,1,jar\nRice,1,kg\n".write(
            toFile: folder + "/items.csv", atomically: true, encoding: .utf8)
        let again = try Self.json(try Self.succeed(["import", "items.yaml", "--json"], in: folder).stdout)
        let items = try #require((again["entities"] as? [String: [String: Int]])?["Item"])
        #expect(items["inserted"] == 1 && items["updated"] == 1 && items["unchanged"] == 2)
        #expect(
            try Self.rows("SELECT ZNAME, ZQUANTITY, Z_OPT FROM ZITEM ORDER BY Z_PK", in: store) == [
                "Tea|5.0|2", "Milk|2.0|1", "Jam|1.0|1", "Rice|1.0|1",
            ])
        #expect(
            try Self.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Item', 'Unit')", in: store) == ["4", "4"])
        #expect(try Self.rows("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: store) == [])

        // A run that fails half-way (a bad record after 2 batches of 1) leaves nothing of itself.
        try "name,quantity,unit\nTea,6,box\nPear,1,kg\nPlum,many,kg\n".write(
            toFile: folder + "/items.csv", atomically: true, encoding: .utf8)
        let failed = try CLIProcess.run(["import", "items.yaml", "--batch-size", "1"], in: folder)
        #expect(failed.status == 1 && failed.stderr.contains("items.csv:4"), "\(failed.stderr)")
        #expect(
            try Self.rows("SELECT ZNAME, ZQUANTITY, Z_OPT FROM ZITEM ORDER BY Z_PK", in: store) == [
                "Tea|5.0|2", "Milk|2.0|1", "Jam|1.0|1", "Rice|1.0|1",
            ])
        // Z_MAX may stay where the run's keys took it: Core Data goes on above it.
        #expect(
            try Self.rows(
                "SELECT Z_MAX >= (SELECT max(Z_PK) FROM ZITEM) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'", in: store)
                == ["1"])
        #expect(try Self.rows("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: store) == [])
        #expect(try Self.rows("PRAGMA integrity_check", in: store) == ["ok"])
    }

    @Test func aPlanWithoutAnXcodeModelOrAFailedImportLeavesNoCoreDataFile() throws {
        let folder = try Self.groceryFolder()
        try FileManager.default.copyItem(
            atPath: ExitCodeTests.repository.appendingPathComponent("SeedData/Quakes").path,
            toPath: folder + "/Quakes")
        let notXcode = try CLIProcess.run(
            ["import", "Quakes/quakes.yaml", "--store", "Quakes.sqlite", "--layout", "core-data"], in: folder)
        #expect(notXcode.status == 1)
        #expect(notXcode.stderr.contains("QuakesModel.yaml is not one (.xcdatamodeld or .xcdatamodel)"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/Quakes.sqlite"))

        try "name,quantity,unit\nTea,1,box\nMilk,lots,l\n".write(
            toFile: folder + "/items.csv", atomically: true, encoding: .utf8)
        try Self.writePlan("items.yaml", store: "Items.sqlite", in: folder)
        let failed = try CLIProcess.run(["import", "items.yaml", "--layout", "core-data"], in: folder)
        #expect(failed.status == 1 && failed.stderr.contains("items.csv"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/Items.sqlite"))
        #expect(BuildCommandTests.sideFiles(folder + "/Items.sqlite").isEmpty)
    }
}
