// Plans drafted from samples: on every SeedData sample (catalog as CSV, JSON and XML, Grocery Dude's
// XML, the quake feed), with and without the sample's model, the drafted plan imports the sample
// with no rejects; the catalog's CSV draft is what a person would write (types, key, the to-many
// by `;`); a mixed column falls back to string with a comment; types, date formats, keys and
// errors on their own.
import Foundation
import GraphStore
import ModelFiles
import PlanInference
import SeedImport
import Testing
import TestSupport

@Suite struct PlanInferenceTests {
    static let repository = Repository.root

    /// A SeedData sample to draft a plan for.
    struct Sample: Sendable, CustomStringConvertible {
        var files: [String]
        var model: String? = nil
        var entity: String? = nil
        /// Objects per entity after the import.
        var counts: [String: Int]
        var description: String { files.joined(separator: " ") + (model.map { " with \($0)" } ?? "") }
    }

    static let samples = [
        Sample(files: ["SeedData/Catalog/items.csv", "SeedData/Catalog/lists.csv"], counts: ["Item": 5, "List": 2]),
        Sample(files: ["SeedData/Catalog/catalog.json"], counts: ["Item": 5, "List": 2]),
        Sample(files: ["SeedData/Catalog/catalog.xml"], counts: ["Item": 5, "List": 2]),
        Sample(files: ["SeedData/GroceryDude/DefaultData.xml"], counts: ["Item": 15]),
        Sample(files: ["SeedData/Quakes/feed.json"], counts: ["Feature": 4]),
        Sample(
            files: ["SeedData/Catalog/items.csv", "SeedData/Catalog/lists.csv"], model: "SeedData/Catalog/Catalog.yaml",
            counts: ["Item": 5, "ShoppingList": 2, "Unit": 3, "Location": 3, "Tag": 3]),
        Sample(
            files: ["SeedData/GroceryDude/DefaultData.xml"], model: "SeedData/GroceryDude/GroceryDude.xcdatamodeld",
            // Item's relatedByAttribute (name) is its key by convention: the second "Apples" updates the first.
            counts: ["Item": 14, "Unit": 8, "LocationAtHome": 5, "LocationAtShop": 7]),
        Sample(
            files: ["SeedData/Quakes/feed.json"], model: "SeedData/Quakes/QuakesModel.yaml", entity: "Quake",
            counts: ["Quake": 4, "Network": 3]),
    ]

    /// A fresh temporary folder.
    static func folder() throws -> URL {
        let url = URL(fileURLWithPath: try ScratchFolder.make("seedkit-infer"))
        return url
    }

    static func path(_ relative: String) -> String {
        repository.appendingPathComponent(relative).path
    }

    /// Drafts into a new folder and writes the files; returns the folder.
    static func draft(_ files: [String], model: String? = nil, entity: String? = nil) throws -> (
        URL, PlanInference.Result
    ) {
        let output = try folder().appendingPathComponent("Draft")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let result = try PlanInference(files: files, folder: output.path, modelPath: model, entity: entity).run()
        try result.plan.write(to: output.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        try result.model?.write(to: output.appendingPathComponent("model.yaml"), atomically: true, encoding: .utf8)
        return (output, result)
    }

    /// Imports the drafted plan into a new store with rejects counted, not fatal.
    static func importDraft(in folder: URL) async throws -> (ImportReport, PersistentStore) {
        var options = ImportOptions()
        options.store = folder.appendingPathComponent("Draft.sqlite").path
        options.onError = .skip
        let report = try await Importer(planFile: folder.appendingPathComponent("plan.yaml").path, options: options)
            .run()
        return (report, try PersistentStore.open(at: folder.appendingPathComponent("Draft.sqlite").path))
    }

    @Test(arguments: samples) func theDraftOfASampleImportsItWithNoRejects(_ sample: Sample) async throws {
        let (folder, result) = try Self.draft(
            sample.files.map(Self.path), model: sample.model.map(Self.path), entity: sample.entity)
        #expect((result.model != nil) == (sample.model == nil))
        let (report, store) = try await Self.importDraft(in: folder)
        #expect(report.errors.isEmpty, "\(report.errors.prefix(3))\n\(result.plan)")
        #expect(report.entities.values.allSatisfy { $0.rejected == 0 }, "\(report.summary)")
        #expect(report.committed)
        let counts = try store.objectCounts()
        for (entity, count) in sample.counts {
            #expect(counts[entity] == count, "\(entity) in \(counts)\n\(result.plan)\n\(result.model ?? "")")
        }
    }

    @Test func theCatalogCSVDraftIsWhatAPersonWouldWrite() throws {
        let (folder, result) = try Self.draft([
            Self.path("SeedData/Catalog/items.csv"), Self.path("SeedData/Catalog/lists.csv"),
        ])
        let plan = result.plan
        #expect(plan.contains("\nmodel: model.yaml\nstore: Catalog.sqlite\nsources:\n"))
        #expect(plan.contains("  - file: ../../"), "paths relative to the plan's folder")
        #expect(
            plan.contains(
                "    entity: Item\n    key: [sku]  # a guess: sku has a value, a different one, in all 5 sampled records\n"
            ))
        for line in [
            "      sku: sku", "      price: price", "      quantity: quantity", "      listed: listed",
            "      added: {field: added, date: iso8601}", "      notes: {field: notes, null: [\"\"]}",
            "      tags: {field: tags, null: [\"\"]}",
        ] {
            #expect(plan.contains(line + "\n"), "\(line)")
        }
        #expect(plan.contains("    entity: List\n    key: [code]"))
        #expect(
            plan.contains(
                "      items: {field: items, split: \";\", match: sku}  # items named after Item: its values are Item.sku keys\n"
            ))
        let model = try #require(result.model)
        for line in [
            "  Item:", "      sku: {type: string, optional: false}  # the key (a guess, see the plan)",
            "      price: double", "      quantity: integer64",
            "      listed: boolean", "      added: date", "      notes: string",
            "      lists: {destination: List, inverse: items, toMany: true}", "    unique: [[sku]]",
            "      items: {destination: Item, inverse: lists, toMany: true}",
        ] {
            #expect(model.contains("\n" + line + "\n"), "\(line)")
        }
        // The files are what an import reads: the model loads, the plan names it.
        let loaded = try ModelLoader.load(from: folder.appendingPathComponent("model.yaml").path)
        #expect(loaded.entity(named: "Item")?.attribute(named: "added")?.type == .date)
        #expect(loaded.entity(named: "List")?.relationship(named: "items")?.isToMany == true)
    }

    @Test func aMixedColumnFallsBackToStringWithAComment() async throws {
        let folder = try Self.folder()
        let csv = folder.appendingPathComponent("readings.csv")
        try """
        station,value,taken,note
        S1,12,2026-01-05,
        S2,n/a,2026-01-06,calibrating
        S3,7,05/01/2026,
        S4,9,2026-01-08,ok

        """.write(to: csv, atomically: true, encoding: .utf8)
        let (output, result) = try Self.draft([csv.path])
        let model = try #require(result.model)
        #expect(
            model.contains(
                "      value: string  # mixed values in the sample (3 integer, 1 text; text such as \"n/a\"): read as string\n"
            ))
        #expect(model.contains("      taken: string  # dates in more than one format in the sample: read as string\n"))
        #expect(
            result.plan.contains(
                "      value: value  # mixed values in the sample (3 integer, 1 text; text such as \"n/a\"): read as string\n"
            ))
        #expect(model.contains("      station: {type: string, optional: false}"))
        let (report, store) = try await Self.importDraft(in: output)
        #expect(report.errors.isEmpty && report.entities["Reading"]?.inserted == 4, "\(report.summary)")
        let context = try ObjectContext(store: store)
        let values = try context.fetch(
            FetchRequest(entityName: "Reading", sortDescriptors: [FetchSortDescriptor("station")])
        )
        .map { try $0.get("value", as: String.self) }
        #expect(values == ["12", "n/a", "7", "9"])
    }

    @Test func typesDateFormatsAndKeysComeFromTheValues() throws {
        let folder = try Self.folder()
        let csv = folder.appendingPathComponent("Shipments.csv")
        try """
        Shipment ID,Weight (kg),Declared Value,Fragile,Sent,Tracking,Site,Count
        1001,2.5,12345678901234567.25,Y,31/01/2026 10:15,6F9619FF-8B86-D011-B42D-00C04FC964FF,https://example.com/a,3
        1002,3,0.10,n,01/02/2026 08:00,6F9619FF-8B86-D011-B42D-00C04FC964F0,https://example.com/b,
        1003,0.75,7,yes,02/02/2026 09:30,6F9619FF-8B86-D011-B42D-00C04FC964F1,https://example.com/c,12

        """.write(to: csv, atomically: true, encoding: .utf8)
        let (_, result) = try Self.draft([csv.path])
        let model = try #require(result.model)
        #expect(model.contains("\n  Shipment:\n"))
        for line in [
            "      shipmentId: {type: integer64, optional: false}  # the key (a guess, see the plan)",
            "      weightKg: double",
            "      declaredValue: decimal  # decimal: 12345678901234567.25 has more than 15 significant digits, which a double would round",
            "      fragile: boolean", "      sent: date", "      tracking: uuid", "      site: uri",
            "      count: integer64",
            "    unique: [[shipmentId]]",
        ] {
            #expect(model.contains("\n" + line + "\n"), "\(line)\n\(model)")
        }
        #expect(result.plan.contains("      shipmentId: \"Shipment ID\""))
        #expect(result.plan.contains("      weightKg: \"Weight (kg)\""))
        #expect(result.plan.contains("      sent: {field: Sent, date: \"dd/MM/yyyy HH:mm\"}\n"))
        #expect(result.plan.contains("    key: [shipmentId]  # a guess"))

        // A date that reads both day-first and month-first says so.
        let ambiguous = folder.appendingPathComponent("days.csv")
        try "day\n01/02/2026\n03/04/2026\n".write(to: ambiguous, atomically: true, encoding: .utf8)
        let days = try #require(try PlanInference(files: [ambiguous.path], folder: folder.path).run().model)
        #expect(days.contains("      day: date  # the sample also reads as MM/dd/yyyy: check the format\n"))
    }

    @Test func aModelKeyByConventionIsNamedInTheComment() throws {
        let (_, result) = try Self.draft(
            [Self.path("SeedData/GroceryDude/DefaultData.xml")],
            model: Self.path("SeedData/GroceryDude/GroceryDude.xcdatamodeld"))
        #expect(result.plan.contains("    # no key: the model's name is the key (docs/PlanFormat.md"))
    }

    @Test func sourcesWithoutAUniqueFieldHaveNoKey() throws {
        let (_, result) = try Self.draft([Self.path("SeedData/GroceryDude/DefaultData.xml")])
        #expect(result.plan.contains("    records: items/item\n    entity: Item\n    # no key: no field has a value"))
        #expect(result.summary.count == 1)
        #expect(result.summary.first?.hasSuffix("DefaultData.xml (items/item) → Item, no key, 15 records read") == true)
    }

    @Test func nestedJSONIsFlattenedOrNestedByTheModel() throws {
        let (_, drafted) = try Self.draft([Self.path("SeedData/Quakes/feed.json")])
        // Without a model: the features, their properties flattened; the coordinates are a list.
        #expect(drafted.plan.contains("    records: \"features[*]\"\n    entity: Feature\n    key: [id]"))
        #expect(drafted.plan.contains("      mag: properties.mag\n"))
        #expect(drafted.plan.contains("      code: properties.code\n"))
        #expect(drafted.plan.contains("      networkCode: properties.network.code\n"))
        #expect(drafted.plan.contains("    # geometry.coordinates: lists of values, left out"))
        // With the model: the network is a nested record, mag a flagged guess, time in epoch milliseconds.
        let (_, mapped) = try Self.draft(
            [Self.path("SeedData/Quakes/feed.json")], model: Self.path("SeedData/Quakes/QuakesModel.yaml"),
            entity: "Quake")
        let plan = mapped.plan
        #expect(plan.contains("      magnitude: properties.mag  # a guess: mag and magnitude share a prefix\n"))
        #expect(plan.contains("      time: {field: properties.time, date: epoch-ms}\n"))
        #expect(
            plan.contains(
                "      network:  # nested Network records\n        field: properties.network\n        nested:\n          entity: Network\n          key: [code]  # the unique constraint of Network\n"
            ))
        #expect(plan.contains("    # id: no property of Quake is named like it; left out\n"))
    }

    @Test func requestsThatDoNotFitAreErrors() throws {
        let output = try Self.folder().path
        func message(_ inference: PlanInference) -> String {
            do {
                _ = try inference.run()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message(PlanInference(files: [Self.path("README.md")], folder: output)).hasSuffix(
                "README.md: cannot tell the format from the extension (csv, tsv, json, ndjson, jsonl, xml)"))
        #expect(
            message(PlanInference(files: [Self.path("SeedData/Catalog/catalog.xml")], folder: output, entity: "Item"))
                == "--entity names the entity of one source, but the files hold 2: \(Self.path("SeedData/Catalog/catalog.xml")) (catalog/item), \(Self.path("SeedData/Catalog/catalog.xml")) (catalog/list)"
        )
        #expect(
            message(
                PlanInference(
                    files: [Self.path("SeedData/Quakes/feed.json")], folder: output,
                    modelPath: Self.path("SeedData/Quakes/QuakesModel.yaml")))
                == "\(Self.path("SeedData/Quakes/feed.json")): no entity of the model is named like 'features': give --entity (one of Network, Quake)"
        )
        #expect(
            message(PlanInference(files: [Self.path("SeedData/Catalog/items.csv")], folder: output, records: "x[*]"))
                == "\(Self.path("SeedData/Catalog/items.csv")): --records applies to JSON and XML files")
    }
}
