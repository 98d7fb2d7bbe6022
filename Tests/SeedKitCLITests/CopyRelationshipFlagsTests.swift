// `seedkit copy --cut` and `--bring-along` (docs/CLI.md): lists copied with the items
// they reach and those items' units (two levels), walked in the copy; items a `--where` left out
// brought along by the lists that hold them (the copy then equals its source); a cut relationship
// shows in `seedkit diff`, whose `--limit` stops early. Bad names exit 1 and leave no store;
// malformed or contradictory flags are usage errors.
import Foundation
import GraphStore
import Testing

@Suite struct CopyRelationshipFlagsTests {
    /// Each list with its items' skus in order, and each item with its unit, location and tags.
    static func walk(_ path: String) throws -> [String] {
        let store = try PersistentStore.open(at: path)
        let context = try ObjectContext(store: store)
        var lines: [String] = []
        for list in try context.fetch(
            FetchRequest(entityName: "ShoppingList", sortDescriptors: [FetchSortDescriptor("code")]))
        {
            let skus = try list.relatedObjects("items").map { try $0.get("sku", as: String.self) ?? "" }
            lines.append("\(try list.get("code", as: String.self) ?? "")|" + skus.joined(separator: ","))
        }
        for item in try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("sku")])) {
            let tags = try item.relatedObjects("tags").map { try $0.get("name", as: String.self) ?? "" }.sorted()
            lines.append(
                [
                    try item.get("sku", as: String.self) ?? "",
                    try item.related("unit")?.get("name", as: String.self) ?? "-",
                    try item.related("location")?.get("aisle", as: String.self) ?? "-", tags.joined(separator: ","),
                ].joined(separator: "|"))
        }
        return lines
    }

    @Test func bringAlongCopiesWhatTheListsReachAndTheirUnits() throws {
        let folder = try CopyBuildOutputTests.catalog()
        let copied = try CLIProcess.run(
            [
                "copy", "--from", "Catalog.sqlite", "--to", "Lists.sqlite", "--entities", "ShoppingList",
                "--bring-along", "ShoppingList.items", "--bring-along", "Item.unit", "--json",
            ], in: folder)
        #expect(copied.status == 0, "\(copied.stderr)")
        let entities = try #require(
            try CopyBuildOutputTests.json(copied.stdout)["entities"] as? [String: [String: Int]])
        #expect(entities["Item"]?["inserted"] == 4 && entities["Unit"]?["inserted"] == 3)
        #expect(entities["Tag"] == nil && entities["Location"] == nil)
        #expect(
            try Self.walk(folder + "/Lists.sqlite") == [
                "L-1|A-003,A-001,A-005", "L-2|A-005,A-004", "A-001|kg|-|", "A-003|l|-|", "A-004|pack|-|",
                "A-005|pack|-|",
            ])
    }

    @Test func itemsAWhereLeftOutComeAlongWithTheirLists() throws {
        let folder = try CopyBuildOutputTests.catalog()
        let copied = try CLIProcess.run(
            [
                "copy", "--from", "Catalog.sqlite", "--to", "Along.sqlite", "--where", "Item: price < 2",
                "--bring-along", "ShoppingList.items", "--quiet",
            ], in: folder)
        #expect(copied.status == 0, "\(copied.stderr)")
        let diff = try CLIProcess.run(["diff", "Catalog.sqlite", "Along.sqlite"], in: folder)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(try Self.walk(folder + "/Along.sqlite") == Self.walk(folder + "/Catalog.sqlite"))
    }

    @Test func aCutRelationshipShowsInDiffWhichStopsAtItsLimit() throws {
        let folder = try CopyBuildOutputTests.catalog()
        let copied = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "Cut.sqlite", "--cut", "Item.tags", "--quiet"], in: folder)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try Self.walk(folder + "/Cut.sqlite").filter { $0.hasPrefix("A-") }.allSatisfy { $0.hasSuffix("|") })
        let diff = try CLIProcess.run(["diff", "Catalog.sqlite", "Cut.sqlite"], in: folder)
        #expect(diff.status == 1)
        #expect(diff.stdout.split(separator: "\n").first == "Item[A-001].tags: [fresh, fruit] ≠ []")
        #expect(diff.stdout.contains("Tag[fresh].items: [A-001, A-003] ≠ []"))
        #expect(diff.stderr == "seedkit: the stores differ (7 differences)\n")

        let limited = try CLIProcess.run(["diff", "Catalog.sqlite", "Cut.sqlite", "--limit", "2"], in: folder)
        #expect(limited.status == 1)
        #expect(
            limited.stdout == """
                Item[A-001].tags: [fresh, fruit] ≠ []
                Item[A-002].tags: [fruit] ≠ []
                … more (stopped after 2; --limit N shows more)

                """)
        #expect(limited.stderr == "seedkit: the stores differ (more than 2 differences)\n")
        let json = try CLIProcess.run(["diff", "Catalog.sqlite", "Cut.sqlite", "--limit", "3", "--json"], in: folder)
        let report = try CopyBuildOutputTests.json(json.stdout)
        #expect(json.status == 1)
        #expect(report["equal"] as? Bool == false && report["complete"] as? Bool == false)
        #expect((report["differences"] as? [String])?.count == 3)
        #expect(try CLIProcess.run(["diff", "Catalog.sqlite", "Cut.sqlite", "--limit", "0"], in: folder).status == 2)
    }

    @Test func badRelationshipNamesFailAndMalformedFlagsAreUsageErrors() throws {
        let folder = try CopyBuildOutputTests.catalog()
        let failures: [[String]] = [
            ["--cut", "Item.nope"], ["--bring-along", "Nope.items"],
            ["--cut", "Item.location", "--bring-along", "Location.items"],
        ]
        for flags in failures {
            let failed = try CLIProcess.run(
                ["copy", "--from", "Catalog.sqlite", "--to", "New.sqlite"] + flags, in: folder)
            #expect(failed.status == 1, "\(flags)")
            #expect(failed.stderr.hasPrefix("seedkit: ") && failed.stderr.split(separator: "\n").count == 1, "\(flags)")
            #expect(CopyBuildOutputTests.storeFiles(folder + "/New.sqlite").isEmpty, "\(flags)")
        }
        let usage: [[String]] = [
            ["--cut", "Item"], ["--bring-along", "Item."], ["--cut", "Item.unit", "--bring-along", "Item.unit"],
        ]
        for flags in usage {
            let result = try CLIProcess.run(
                ["copy", "--from", "Catalog.sqlite", "--to", "New.sqlite"] + flags, in: folder)
            #expect(result.status == 2, "\(flags)")
        }
    }
}
