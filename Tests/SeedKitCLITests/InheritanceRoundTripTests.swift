// Export → import → diff for a model with an abstract parent and two sub-entities and an entity
// without a unique key (SeedData/Zoo), in every format (docs/CLI.md, `seedkit export`): the
// parent's export holds every sub-entity's attributes and an `entity` column that a plan's
// `entityField` routes back; the keyless entity's export holds an `object-id` column that the
// relationships to it name, so the files join and a plan keyed and matched by it re-imports the
// links — with the ordered list in its order; `seedkit diff` then exits 0.
import Foundation
import GraphStore
import Testing

@Suite struct InheritanceRoundTripTests {
    /// The zoo sample imported, with Rex's visits put out of key order (so only a re-import that
    /// keeps the list's order compares equal).
    static func zoo() throws -> String {
        let folder = try ExitCodeTests.sampleFolder("Zoo")
        let imported = try CLIProcess.run(["import", "zoo.yaml", "--quiet"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let context = try ObjectContext(store: try PersistentStore.open(at: folder + "/Zoo.sqlite"))
        let rex = try #require(
            try context.fetch(FetchRequest(entityName: "Dog", predicate: try FetchPredicate(format: "name == 'Rex'")))
                .first)
        try rex.moveRelated(in: "visits", from: 1, to: 0)
        try context.save()
        return folder
    }

    /// The plan re-importing the export files of `format` (relationships to visits by their identity).
    static func plan(_ format: String, visits: Bool = true) -> String {
        let split = format == "csv" ? "split: \";\", " : ""
        let animals =
            visits
            ? """
              - file: Animal.\(format)
                entity: Animal
                entityField: entity
                key: [name]
                relationships:
                  keeper: keeper
                  visits: {\(split)match: object-id, missing: reject, members: replace}
            """ : "  - {file: Animal.\(format), entity: Animal, entityField: entity, key: [name]}"
        return """
            model: ../Zoo.yaml
            store: Copy.sqlite
            sources:
              - {file: Keeper.\(format), entity: Keeper, key: [name]}
            \(animals)
              - {file: Visit.\(format), entity: Visit, key: [object-id]}

            """
    }

    /// Exports Keeper, Animal and Visit into `folder/name` as `format` and writes the plan there.
    static func export(_ folder: String, into name: String, format: String, plan: String) throws -> String {
        let files = folder + "/" + name
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        for entity in ["Keeper", "Animal", "Visit"] {
            let exported = try CLIProcess.run(
                ["export", "Zoo.sqlite", "--entity", entity, "-o", "\(name)/\(entity).\(format)"], in: folder)
            #expect(exported.status == 0, "\(exported.stderr)")
        }
        try Data(plan.utf8).write(to: URL(fileURLWithPath: files + "/plan.yaml"))
        return files
    }

    @Test(arguments: ["csv", "json", "ndjson", "xml"])
    func exportingEveryEntityAndImportingTheFilesGivesAnEqualStore(format: String) throws {
        let folder = try Self.zoo()
        let files = try Self.export(folder, into: "Export", format: format, plan: Self.plan(format))
        let imported = try CLIProcess.run(["import", "Export/plan.yaml"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.split(separator: "\n").prefix(7) == [
                "Keeper.\(format) → Keeper: 2 records read, 0 rejected",
                "Animal.\(format) → Animal: 4 records read, 0 rejected",
                "Visit.\(format) → Visit: 4 records read, 0 rejected",
                "Cat: 2 inserted, 0 updated, 0 unchanged, 0 rejected",
                "Dog: 2 inserted, 0 updated, 0 unchanged, 0 rejected",
                "Keeper: 2 inserted, 0 updated, 0 unchanged, 0 rejected",
                "Visit: 4 inserted, 0 updated, 0 unchanged, 0 rejected",
            ])
        let diff = try CLIProcess.run(["diff", "Zoo.sqlite", "Export/Copy.sqlite"], in: folder)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: files + "/Copy.sqlite"))
    }

    @Test func withoutTheIdentityTheOrderedListIsLost() throws {
        let folder = try Self.zoo()
        _ = try Self.export(folder, into: "Export", format: "csv", plan: Self.plan("csv", visits: false))
        let imported = try CLIProcess.run(["import", "Export/plan.yaml", "--quiet"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let diff = try CLIProcess.run(["diff", "Zoo.sqlite", "Export/Copy.sqlite"], in: folder)
        #expect(diff.status == 1)
        #expect(diff.stdout.contains("Dog[Rex].visits"), "\(diff.stdout)")
    }

    @Test func theExportsJoin() throws {
        let folder = try Self.zoo()
        let animals = try CLIProcess.run(["export", "Zoo.sqlite", "--entity", "Animal"], in: folder)
        let visits = try CLIProcess.run(["export", "Zoo.sqlite", "--entity", "Visit"], in: folder)
        #expect(animals.status == 0 && visits.status == 0)
        let animalRows = animals.stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let visitRows = visits.stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(animalRows.first == ["entity", "born", "name", "indoor", "lives", "breed", "keeper", "visits"])
        #expect(visitRows.first == ["object-id", "day", "note", "animal"])
        #expect(animalRows.dropFirst().map { "\($0[0]) \($0[2])" } == ["Dog Rex", "Cat Tom", "Dog Fido", "Cat Kitty"])
        // Every visit's identity is in the list of exactly the animal the visit names, in the list's order.
        var listed: [String: String] = [:]
        for row in animalRows.dropFirst() {
            for id in row[7].split(separator: ";") where id != "\"\"" { listed[String(id)] = String(row[2]) }
        }
        #expect(listed.count == 4)
        for row in visitRows.dropFirst() {
            #expect(row[0].hasPrefix("x-seedkit://") && listed[String(row[0])] == String(row[3]))
        }
        let rex = try #require(animalRows.first { $0[2] == "Rex" })
        let notes = rex[7].split(separator: ";").map { id in visitRows.first { $0[0] == id }?[2] ?? "?" }
        #expect(notes == ["vaccine", "first check"])
    }
}
