// `seedkit inspect STORE --model MODEL` (docs/CLI.md): the store's version of a versioned model,
// the one whose hashes equal the store's — a SeedKit store's model hash (before and after a
// migration), a Core Data–layout store's entity version hashes (CoreDataPlus's SampleModel
// fixture) — in text and in `--json`, and `null` with a note naming the versions when none
// matches. Without `--model` the JSON has none of these keys.
import Foundation
import GraphStore
import ModelFiles
import Testing

@Suite struct InspectModelVersionTests {
    /// Runs `seedkit inspect arguments…` in `folder`, expects exit 0 and returns standard output.
    static func inspect(_ arguments: [String], in folder: String) throws -> String {
        let result = try CLIProcess.run(["inspect"] + arguments, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The line of `inspect`'s text output that names the model version.
    static func versionLine(_ text: String) -> String? {
        text.split(separator: "\n").map(String.init).first { $0.hasPrefix("  model version:") }
    }

    /// Runs `inspect arguments` in text and in JSON and checks both: the text's version line is
    /// `line`, the JSON's `modelVersion` is `version` (null when nil) and `currentModelVersion` is
    /// `current`, with a `modelVersionNote` exactly when no version matches. Returns the JSON.
    @discardableResult
    static func expectVersion(
        _ arguments: [String], in folder: String, line: String, version: String?, current: String?
    ) throws -> [String: Any] {
        #expect(versionLine(try inspect(arguments, in: folder)) == line)
        let json = try CoreDataCommandTests.json(try inspect(arguments + ["--json"], in: folder))
        #expect(json.keys.contains("modelVersion"))
        #expect(json["modelVersion"] as? String == version)
        #expect(json["currentModelVersion"] as? String == current)
        #expect(json.keys.contains("modelVersionNote") == (version == nil))
        return json
    }

    @Test func aSeedKitStoreIsNamedByItsModelHashBeforeAndAfterAMigration() throws {
        let folder = try MigrateCommandTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["Store.sqlite", "--model", "Versions.json"]
        try Self.expectVersion(
            arguments, in: folder, line: "  model version: V1 (the current version is V2)", version: "V1", current: "V2"
        )

        let migrated = try CLIProcess.run(
            ["migrate", "Store.sqlite", "--model", "Versions.json", "--allow-data-loss", "--quiet"], in: folder)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        try Self.expectVersion(
            arguments, in: folder, line: "  model version: V2 (current)", version: "V2", current: "V2")

        // One model file that is not the store's (it was V1's): no version matches.
        let note = "no version of List.v1.json (List) has the store's model hash"
        let other = try Self.expectVersion(
            ["Store.sqlite", "--model", "List.v1.json"], in: folder, line: "  model version: none: " + note,
            version: nil, current: "List")
        #expect(other["modelVersion"] is NSNull)
        #expect(other["modelVersionNote"] as? String == note)

        let plain = try CoreDataCommandTests.json(try Self.inspect(["Store.sqlite", "--json"], in: folder))
        #expect(plain.keys.filter { $0.lowercased().contains("modelversion") } == [])
        #expect(Self.versionLine(try Self.inspect(["Store.sqlite"], in: folder)) == nil)
    }

    @Test func aCoreDataStoreIsNamedByItsEntityVersionHashes() throws {
        let repository = ExitCodeTests.repository
        let model = repository.appendingPathComponent(
            "Tests/CoreDataStoresTests/Fixtures/CoreDataPlus/SampleModel.xcdatamodeld"
        ).path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seedkit-inspect-version-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = StoreOptions()
        options.layout = .coreData
        do {
            let store = try PersistentStore.open(
                at: folder + "/Cars.sqlite", model: try ModelVersionSet.load(from: model).model(named: "SampleModel2"),
                options: options)
            let context = try ObjectContext(store: store)
            try context.insert("Car").set("numberPlate", "AA-1")
            try context.save()
        }

        let json = try Self.expectVersion(
            ["Cars.sqlite", "--model", model], in: folder,
            line: "  model version: SampleModel2 (the current version is SampleModel)", version: "SampleModel2",
            current: "SampleModel")
        #expect(json["layout"] as? String == "core-data")

        // Another project's versioned model: none of its versions has these entity hashes.
        let shop = repository.appendingPathComponent("Tests/ModelFilesTests/Fixtures/XcodeModels/Shop.xcdatamodeld")
            .path
        let none = try Self.expectVersion(
            ["Cars.sqlite", "--model", shop], in: folder,
            line: "  model version: none: no version of \(shop) (Shop, Shop 2) has the store's entity version hashes",
            version: nil, current: "Shop 2")
        #expect(none["modelVersion"] is NSNull)
    }
}
