// Imports past the bounded key index: generated files with keys in shuffled order, repeated keys
// (in one batch and across batches), forward references and `missing: create` destinations,
// imported with limits so small that the staging table, the set-based pass after the load and
// the set-aside records do the work, give what the default limits (every key in the index) and
// the object path give: the same objects and links, the same counts, the same errors at the
// same positions.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct BoundedMemoryTests {
    /// The ways a run is limited: the defaults, a key index of 3 keys per lookup (references
    /// staged, repeated keys told by the filter), and that with a filter of one block (nearly
    /// every record set aside and applied after the load).
    static let limits: [(name: String, limits: ImportLimits)] = {
        var staged = ImportLimits()
        staged.keysPerLookup = 3
        var setAside = staged
        setAside.filterBits = 512
        return [("default", ImportLimits()), ("staged", staged), ("set aside", setAside)]
    }()

    /// 700 items in shuffled order, every 23rd repeating the sku of an earlier one (the one just
    /// before, or one far back) with other values; units, locations and tags created by
    /// reference; 40 lists of up to 6 items in order, one naming an item that never comes.
    static func catalog(seed: UInt64) -> (items: String, lists: String) {
        var random = SeededGenerator(seed: seed)
        let numbers = Array(0..<700).shuffled(using: &random)
        var items = "sku,name,price,quantity,listed,added,notes,unit,location,tags\n"
        var written: [Int] = []
        for (position, number) in numbers.enumerated() {
            var sku = number
            var name = "Item \(number)"
            if position % 23 == 22, let earlier = position % 46 == 45 ? written.last : written.first {
                sku = earlier
                name = "Again \(number)"
            }
            written.append(sku)
            let tags = (0..<(number % 4)).map { "tag-\((number * 7 + $0 * 5) % 29)" }.joined(separator: ";")
            items +=
                String(format: "I-%04d,", sku) + "\(name),\(number % 40).5,\(number % 9),"
                + "\(number % 3 == 0 ? "no" : "yes"),2026-03-\(String(format: "%02d", number % 28 + 1))T09:00:00Z,"
                + (number % 5 == 0 ? "\"a note, \(number)\"" : "")
                + ",unit-\(number % 6),aisle-\(number % 13),\(tags)\n"
        }
        var lists = "code,title,created,items\n"
        for number in 0..<40 {
            var members = (0..<(number % 6 + 1)).map { _ in
                String(format: "I-%04d", written[Int.random(in: 0..<written.count, using: &random)])
            }
            if number == 17 { members.insert("I-9999", at: 1) }
            lists += "L-\(number),List \(number),2026-04-01T08:00:00Z,\(members.joined(separator: ";"))\n"
        }
        return (items, lists)
    }

    /// RowPathTests' catalog plan with batches of 50, the policy `onError` and the lists' items `missing`.
    static func catalogPlan(missing: String, onError: String = "abort") -> String {
        RowPathTests.plan.replacingOccurrences(of: "batchSize: 100", with: "batchSize: 50")
            .replacingOccurrences(of: "onError: skip", with: "onError: \(onError)")
            .replacingOccurrences(of: "match: sku, missing: ignore", with: "match: sku, missing: \(missing)")
    }

    /// What a run gives: the store's objects independent of keys, the rows per table, and the report.
    struct Outcome: Equatable {
        let contents: [String]
        let rowCounts: [String]
        let entities: [String: EntityCounts]
        let errors: [RecordError]
    }

    static func outcome(_ fixture: ImportFixture, _ report: ImportReport, store: String) throws -> Outcome {
        let path = fixture.path(store)
        let counts = try ["Item", "Unit", "Location", "Tag", "ShoppingList", "Item_tags", "ShoppingList_items"].map {
            "\($0) " + (try ImportFixture.rows(path, "SELECT count(*) FROM \($0)").first ?? "")
        }
        #expect(try ImportFixture.rows(path, "PRAGMA integrity_check") == ["ok"])
        let leftovers = try ImportFixture.rows(path, "SELECT name FROM sqlite_master WHERE name LIKE 'seedkit_import%'")
        #expect(leftovers == [], "\(leftovers)")
        return Outcome(
            contents: try ImportFixture.catalogContents(path), rowCounts: counts, entities: report.entities,
            errors: report.errors)
    }

    /// Imports the catalog of `seed` with each of the limits, and through objects.
    func importCatalog(seed: UInt64, missing: String, onError: String = "abort") async throws -> [String: Outcome] {
        let fixture = try ImportFixture()
        let (items, lists) = Self.catalog(seed: seed)
        try fixture.write("items.csv", items)
        try fixture.write("lists.csv", lists)
        try fixture.write("plan.yaml", Self.catalogPlan(missing: missing, onError: onError))
        var outcomes: [String: Outcome] = [:]
        for (name, limits) in Self.limits {
            var options = ImportOptions()
            options.limits = limits
            options.store = fixture.path("\(name).sqlite")
            let report = try await fixture.run("plan.yaml", options: options)
            outcomes[name] = try Self.outcome(fixture, report, store: "\(name).sqlite")
        }
        var options = ImportOptions()
        options.usesRowPath = false
        options.store = fixture.path("objects.sqlite")
        let report = try await fixture.run("plan.yaml", options: options)
        outcomes["objects"] = try Self.outcome(fixture, report, store: "objects.sqlite")
        return outcomes
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func shuffledRepeatedKeysAndCreatedDestinationsBeyondTheIndex(seed: UInt64) async throws {
        let outcomes = try await importCatalog(seed: seed, missing: "ignore")
        let expected = try #require(outcomes["default"])
        for (name, outcome) in outcomes {
            #expect(outcome == expected, "\(name)")
        }
        // 700 records, every 23rd repeating an earlier sku: 670 items; 6 units, 13 aisles, 29 tags.
        #expect(expected.rowCounts.prefix(5) == ["Item 670", "Unit 6", "Location 13", "Tag 29", "ShoppingList 40"])
        #expect(expected.entities["Item"]?.inserted == 670)
        #expect((expected.entities["Item"]?.updated ?? 0) > 0)
        #expect(expected.errors.isEmpty)
        // The list that names a missing item keeps the others, in order.
        let list = try #require(expected.contents.first { $0.hasPrefix("L-17|") })
        #expect(!list.contains("I-9999"))
    }

    @Test func recordsThatNameManyKeysComeInSmallerBatches() async throws {
        let fixture = try ImportFixture()
        let items = (0..<24).map { number in
            String(format: "I-%04d", number)
                + ",Item \(number),1.5,1,yes,2026-03-01T09:00:00Z,,unit-\(number % 3),aisle-1,tag-\(number % 2)"
        }
        try fixture.write(
            "items.csv",
            "sku,name,price,quantity,listed,added,notes,unit,location,tags\n" + items.joined(separator: "\n") + "\n")
        // Each list names 8 items: a key and 8 references, so 3 lists reach a batch's 20 keys.
        let lists = (0..<12).map { number in
            "L-\(number),List \(number),2026-04-01T08:00:00Z,"
                + (0..<8).map { String(format: "I-%04d", (number * 5 + $0 * 3) % 24) }.joined(separator: ";")
        }
        try fixture.write("lists.csv", "code,title,created,items\n" + lists.joined(separator: "\n") + "\n")
        #expect(PreparedBatch.keyLimit(batchSize: 4) == 20)
        var contents: [String] = []
        for batchSize in [4, 100] {
            try fixture.write(
                "plan.yaml",
                RowPathTests.plan.replacingOccurrences(of: "batchSize: 100", with: "batchSize: \(batchSize)"))
            var options = ImportOptions()
            options.store = fixture.path("\(batchSize).sqlite")
            let importer = try Importer(planFile: fixture.path("plan.yaml"), options: options)
            let report = try await importer.run()
            #expect(report.entities["ShoppingList"]?.inserted == 12 && report.errors.isEmpty)
            var committed: [Int] = []
            for await step in importer.progress where step.phase == "reading" { committed.append(step.records) }
            if batchSize == 4 {
                // Items in batches of 4 records (at most 6 keys each), lists in batches of 3.
                #expect(committed == [4, 8, 12, 16, 20, 24, 27, 30, 33, 36])
            }
            contents.append(contentsOf: [
                try ImportFixture.catalogContents(fixture.path("\(batchSize).sqlite")).joined()
            ])
        }
        #expect(contents[0] == contents[1])
    }

    @Test func unresolvedReferencesBeyondTheIndexAreRefusedAtTheirPositions() async throws {
        let outcomes = try await importCatalog(seed: 7, missing: "reject", onError: "skip")
        let expected = try #require(outcomes["default"])
        for (name, outcome) in outcomes {
            #expect(outcome == expected, "\(name)")
        }
        #expect(expected.errors.count == 1)
        let error = try #require(expected.errors.first)
        #expect(error.file.hasSuffix("lists.csv") && error.line == 19 && error.field == "items")
        #expect(error.message.contains(#"no Item with sku = "I-9999" for relationship items (missing: reject)"#))
        // The list is left out whole.
        #expect(expected.entities["ShoppingList"]?.inserted == 39 && expected.entities["ShoppingList"]?.rejected == 1)
        #expect(!expected.contents.contains { $0.hasPrefix("L-17|") })
    }

    // MARK: - Forward references and created destinations in one entity

    /// 300 categories in shuffled order, each naming a parent: one that comes later, one that
    /// came before, or one no record defines; every 17th repeats the code of an earlier record.
    /// Also the number of categories the store must hold (codes and parents).
    static func categories(seed: UInt64) -> (text: String, categories: Int) {
        var random = SeededGenerator(seed: seed)
        let numbers = Array(0..<300).shuffled(using: &random)
        var text = "code,title,parent\n"
        var codes: [String] = []
        var named: Set<String> = []
        for (position, number) in numbers.enumerated() {
            let code = position % 17 == 16 ? codes[position / 2] : "C-\(number)"
            let parent =
                switch number % 4 {
                case 0: ""
                case 1: "C-\(numbers[min(299, position + 5)])"
                case 2: "C-\(numbers[position / 3])"
                default: "X-\(number % 11)"
                }
            codes.append(code)
            named.insert(code)
            if !parent.isEmpty { named.insert(parent) }
            text += "\(code),Title \(number),\(parent)\n"
        }
        return (text, named.count)
    }

    func importCategories(_ text: String, policy: String) async throws -> [String: Result<Outcome, ImportFailure>] {
        let fixture = try ImportFixture()
        try fixture.write("Shop.yaml", ConflictPolicyTests.model)
        try fixture.write("categories.csv", text)
        try fixture.write(
            "plan.yaml",
            ConflictPolicyTests.plan(policy).replacingOccurrences(of: "batchSize: 2", with: "batchSize: 20"))
        var outcomes: [String: Result<Outcome, ImportFailure>] = [:]
        for (name, limits) in Self.limits + [("objects", ImportLimits())] {
            var options = ImportOptions()
            options.limits = limits
            options.usesRowPath = name != "objects"
            options.store = fixture.path("\(name).sqlite")
            do {
                let report = try await fixture.run("plan.yaml", options: options)
                let contents = try ImportFixture.rows(
                    fixture.path("\(name).sqlite"),
                    "SELECT c.code, c.title, p.code FROM Category c LEFT JOIN Category p ON p.pk = c.parent ORDER BY c.code"
                )
                outcomes[name] = .success(
                    Outcome(contents: contents, rowCounts: [], entities: report.entities, errors: report.errors))
            } catch let failure as ImportFailure {
                #expect(!FileManager.default.fileExists(atPath: fixture.path("\(name).sqlite")))
                outcomes[name] = .failure(failure)
            }
        }
        return outcomes
    }

    @Test(arguments: ["update", "keep"])
    func forwardReferencesAndCreatedParentsBeyondTheIndex(policy: String) async throws {
        let (text, categories) = Self.categories(seed: 11)
        let outcomes = try await importCategories(text, policy: policy)
        let expected = try #require(try outcomes["default"]?.get())
        for (name, outcome) in outcomes {
            #expect(try outcome.get() == expected, "\(name)")
        }
        // Every code and every parent named once, the parents no record defines created empty.
        #expect(expected.entities["Category"]?.inserted == categories)
        #expect(expected.contents.count == categories)
        #expect(expected.contents.contains("X-3|NULL|NULL"))
        #expect((expected.entities["Category"]?.updated ?? 0) + (expected.entities["Category"]?.unchanged ?? 0) > 0)
    }

    @Test func aRepeatedKeyWithFailStopsAtItsRecordBeyondTheIndex() async throws {
        let outcomes = try await importCategories(Self.categories(seed: 5).text, policy: "fail")
        var reasons: Set<String> = []
        for (name, outcome) in outcomes {
            guard case .failure(let failure) = outcome else {
                Issue.record("\(name) should fail at the first repeated code")
                continue
            }
            reasons.insert(failure.reason)
        }
        #expect(reasons.count == 1)
        // The 17th record repeats the code of the 9th, and its error names both (whether the
        // key was still in the index, set aside past it, or found through objects).
        let reason = try #require(reasons.first)
        #expect(reason.contains("categories.csv:18:1 "))
        #expect(reason.contains("already exists (onConflict: fail); first written by the record at "))
        #expect(reason.hasSuffix("categories.csv:10:1 (byte 167, record 9)"))
    }
}
