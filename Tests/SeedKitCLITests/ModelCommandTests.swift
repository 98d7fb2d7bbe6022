// `seedkit model MODEL` (docs/CLI.md): every sample model in SeedData loads and validates (exit 0)
// with the right entities in text and `--json`; a store reports the model it carries; an invalid
// model exits 1 with every problem on one stderr line; usage errors exit 2.
import Foundation
import Testing
import TestSupport

@Suite struct ModelCommandTests {
    /// A sample model: its path under SeedData, name and entity names.
    struct Sample: Sendable, CustomStringConvertible {
        var path: String
        var name: String
        var entities: Set<String>
        var description: String { path }
    }

    static let samples: [Sample] = [
        Sample(
            path: "SeedData/Catalog/Catalog.yaml", name: "Catalog",
            entities: ["Item", "Location", "ShoppingList", "Tag", "Unit"]),
        Sample(path: "SeedData/Quakes/QuakesModel.yaml", name: "Quakes", entities: ["Network", "Quake"]),
        Sample(path: "SeedData/Zoo/Zoo.yaml", name: "Zoo", entities: ["Animal", "Cat", "Dog", "Keeper", "Visit"]),
        Sample(
            path: "SeedData/GroceryDude/GroceryDude.xcdatamodeld", name: "GroceryDude",
            entities: ["Item", "Location", "LocationAtHome", "LocationAtShop", "Unit"]),
    ]

    static func path(_ relative: String) -> String {
        ExitCodeTests.repository.appendingPathComponent(relative).path
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// The samples list above is every model in SeedData: each `.xcdatamodeld`, and each YAML or
    /// JSON file with top-level `entities` (plans have `sources` instead).
    @Test func theSampleListCoversEveryModelInSeedData() throws {
        let root = Self.path("SeedData")
        var found: Set<String> = []
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") {
                found.insert("SeedData/" + relative)
                walker.skipDescendants()
            } else if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
                if text.split(separator: "\n").contains(where: { $0.hasPrefix("entities:") }) {
                    found.insert("SeedData/" + relative)
                }
            } else if relative.hasSuffix(".json") {
                let object = try? JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
                if let dictionary = object as? [String: Any], dictionary["entities"] != nil,
                    dictionary["sources"] == nil
                {
                    found.insert("SeedData/" + relative)
                }
            }
        }
        #expect(found == Set(Self.samples.map(\.path)))
    }

    @Test(arguments: samples) func aSampleModelSummarisesAsText(_ sample: Sample) throws {
        let result = try CLIProcess.run(["model", Self.path(sample.path)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header.hasPrefix("model \(sample.name) (\(sample.entities.count) entities) hash "))
        let words = header.split(separator: " ")
        #expect(words.count == 10 && words[5].count == 16 && words[6...8] == ["Core", "Data", "checksum"])
        let named = lines.dropFirst().map { line in
            String(line.drop(while: { $0 == " " }).prefix(while: { $0 != " " }))
        }
        #expect(named == sample.entities.sorted())
    }

    @Test(arguments: samples) func aSampleModelSummarisesAsJSON(_ sample: Sample) throws {
        let result = try CLIProcess.run(["model", Self.path(sample.path), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.json(result.stdout)
        #expect(
            Set(report.keys)
                == ["name", "hash", "entities", "coreDataVersionHashesDigest", "coreDataVersionChecksum"])
        #expect(report["name"] as? String == sample.name)
        let hash = try #require(report["hash"] as? String)
        #expect(hash.count == 64 && hash.allSatisfy(\.isHexDigit))
        let entities = try #require(report["entities"] as? [String: [String: Any]])
        #expect(Set(entities.keys) == sample.entities)
        for (name, entity) in entities {
            #expect(entity["attributes"] is [String: String], "\(name)")
            #expect(entity["relationships"] is [String: String], "\(name)")
            #expect(entity["uniqueConstraints"] is [[String]], "\(name)")
            #expect(entity["abstract"] is Bool, "\(name)")
            #expect((entity["hash"] as? String)?.count == 64, "\(name)")
        }
        // The text summary shows the same hash's first 16 digits, and the same checksum.
        let text = try CLIProcess.run(["model", Self.path(sample.path)])
        let checksum = try #require(report["coreDataVersionChecksum"] as? String)
        #expect(
            text.stdout.hasPrefix(
                "model \(sample.name) (\(sample.entities.count) entities) hash \(hash.prefix(16))"
                    + " Core Data checksum \(checksum)\n"))
    }

    @Test func theJSONDescribesAttributesRelationshipsAndInheritance() throws {
        let catalog = try Self.json(
            try CLIProcess.run(["model", Self.path("SeedData/Catalog/Catalog.yaml"), "--json"]).stdout)
        let item = try #require((catalog["entities"] as? [String: [String: Any]])?["Item"])
        #expect(
            item["attributes"] as? [String: String] == [
                "sku": "string", "name": "string", "price": "double?", "quantity": "integer32?",
                "listed": "boolean?", "added": "date?", "notes": "string?",
            ])
        let relationships = try #require(item["relationships"] as? [String: String])
        #expect(relationships["unit"] == "to-one Unit inverse items nullify")
        #expect(relationships["tags"] == "to-many Tag inverse items nullify")
        #expect(Set(relationships.keys) == ["unit", "location", "tags", "lists"])
        #expect(item["uniqueConstraints"] as? [[String]] == [["sku"]])
        #expect(item["parent"] == nil && item["abstract"] as? Bool == false)
        let list = try #require((catalog["entities"] as? [String: [String: Any]])?["ShoppingList"])
        #expect((list["relationships"] as? [String: String])?["items"] == "ordered to-many Item inverse lists nullify")
        let unit = try #require((catalog["entities"] as? [String: [String: Any]])?["Unit"])
        #expect((unit["relationships"] as? [String: String])?["items"] == "to-many Item inverse unit deny")

        let grocery = try Self.json(
            try CLIProcess.run(["model", Self.path("SeedData/GroceryDude/GroceryDude.xcdatamodeld"), "--json"]).stdout)
        let entities = try #require(grocery["entities"] as? [String: [String: Any]])
        #expect(entities["Location"]?["abstract"] as? Bool == true)
        #expect(entities["LocationAtHome"]?["parent"] as? String == "Location")
        #expect(entities["LocationAtShop"]?["parent"] as? String == "Location")
    }

    @Test func aStoreReportsTheModelItCarries() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Seed.sqlite", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        let fromFile = try Self.json(try CLIProcess.run(["model", "Catalog.yaml", "--json"], in: folder).stdout)
        let fromStore = try CLIProcess.run(["model", "Seed.sqlite", "--json"], in: folder)
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        let stored = try Self.json(fromStore.stdout)
        #expect(stored["name"] as? String == "Catalog")
        #expect(stored["hash"] as? String == fromFile["hash"] as? String)
        #expect(
            (stored["entities"] as? [String: Any]).map { Set($0.keys) } == [
                "Item", "Location", "ShoppingList", "Tag", "Unit",
            ])
    }

    @Test func anInvalidModelExits1WithEveryProblemOnOneLine() throws {
        let folder = try ScratchFolder.make("seedkit-model")
        let bad = """
            name: Catalog
            entities:
              Unit:
                attributes: {name: string}
              Item:
                attributes: {sku: string}
                relationships:
                  unit: {destination: Units}
                unique: [[code]]
            """
        try Data(bad.utf8).write(to: URL(fileURLWithPath: folder + "/Bad.yaml"))
        let result = try CLIProcess.run(["model", "Bad.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "seedkit: invalid model Bad.yaml (2 problems): Item.unit: destination entity 'Units' does not exist; "
                + "Item.unique constraint [code]: 'code' is not an attribute\n")
        let json = try CLIProcess.run(["model", "Bad.yaml", "--json"], in: folder)
        #expect(json.status == 1 && json.stdout.isEmpty)

        // An Xcode model whose relationship names a missing entity: its line, on one stderr line.
        let xcode = folder + "/Broken.xcdatamodel"
        try FileManager.default.createDirectory(atPath: xcode, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Owner" representedClassName="Owner">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="ghosts" toMany="YES" destinationEntity="Ghost"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: URL(fileURLWithPath: xcode + "/contents"))
        let broken = try CLIProcess.run(["model", "Broken.xcdatamodel"], in: folder)
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("seedkit: invalid model "))
        #expect(broken.stderr.contains("Owner.ghosts: line 5: destination entity 'Ghost' does not exist"))
        #expect(broken.stderr.split(separator: "\n").count == 1)

        for missing in ["Nothing.yaml", "Nothing.xcdatamodeld", "notes.txt", "Nothing.sqlite"] {
            let result = try CLIProcess.run(["model", missing], in: folder)
            #expect(result.status == 1, "\(missing)")
            #expect(
                result.stderr.hasPrefix("seedkit: ") && result.stderr.split(separator: "\n").count == 1, "\(missing)")
        }
    }

    @Test func usageErrorsExit2() throws {
        let none = try CLIProcess.run(["model"])
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("Error: Missing expected argument '<model>'\n"))
        let unknown = try CLIProcess.run(["model", Self.path("SeedData/Quakes/QuakesModel.yaml"), "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--frobnicate'\n"))
        #expect(unknown.stdout.isEmpty)
        #expect(try CLIProcess.run(["model", "--help"]).status == 0)
    }

    // MARK: - Core Data hashes and versions

    /// CoreDataPlus's three-version model (Tests/ModelFilesTests/Fixtures, MIT).
    static let sampleModel = path("Tests/ModelFilesTests/Fixtures/CoreDataPlus/SampleModel.xcdatamodeld")

    @Test func jsonCarriesCoreDataHashesAndAnotherVersionLoadsByName() throws {
        let current = try Self.json(try CLIProcess.run(["model", Self.sampleModel, "--json"]).stdout)
        let second = try CLIProcess.run(["model", Self.sampleModel, "--model-version", "SampleModel2", "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        let other = try Self.json(second.stdout)
        let entities = try #require(other["entities"] as? [String: [String: Any]])
        #expect(Set(entities.keys) == ["Car", "LuxuryCar", "Person", "SportCar"])
        for (name, entity) in entities {
            let hash = try #require(entity["coreDataVersionHash"] as? String, "\(name)")
            #expect(Data(base64Encoded: hash)?.count == 32)
        }
        let digest = try #require(other["coreDataVersionHashesDigest"] as? String)
        #expect(Data(base64Encoded: digest)?.count == 64)
        let checksum = try #require(other["coreDataVersionChecksum"] as? String)
        #expect(Data(base64Encoded: checksum)?.count == 32)
        #expect(checksum != current["coreDataVersionChecksum"] as? String)
        #expect((current["entities"] as? [String: Any])?["ExpensiveSportCar"] != nil)
    }

    @Test func versionsAreListedWithTheCurrentOneMarked() throws {
        let text = try CLIProcess.run(["model", Self.sampleModel, "--versions"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first == "model SampleModel: 3 versions, current SampleModel")
        #expect(lines.dropFirst().map { $0.prefix(15) } == ["* SampleModel  ", "  SampleModel2 ", "  SampleModel3 "])
        let json = try Self.json(try CLIProcess.run(["model", Self.sampleModel, "--versions", "--json"]).stdout)
        let versions = try #require(json["versions"] as? [[String: Any]])
        #expect(versions.map { $0["name"] as? String } == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(versions.map { $0["current"] as? Bool } == [true, false, false])
        let second = try Self.json(
            try CLIProcess.run(["model", Self.sampleModel, "--model-version", "SampleModel2", "--json"]).stdout)
        #expect(versions[1]["coreDataVersionChecksum"] as? String == second["coreDataVersionChecksum"] as? String)
        #expect(versions[1]["hash"] as? String == second["hash"] as? String)
    }

    @Test func anUnknownVersionIsADataFailureAndBothFlagsAUsageError() throws {
        let unknown = try CLIProcess.run(["model", Self.sampleModel, "--model-version", "Model 6"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr.hasPrefix("seedkit: ")
                && unknown.stderr.contains(
                    "there is no model version 'Model 6' (versions: SampleModel, SampleModel2, SampleModel3)")
        )
        let both = try CLIProcess.run(["model", Self.sampleModel, "--versions", "--model-version", "SampleModel2"])
        #expect(both.status == 2 && both.stderr.hasPrefix("Error: "))
    }
}
