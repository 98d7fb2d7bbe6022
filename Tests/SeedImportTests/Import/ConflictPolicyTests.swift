// Conflict policies inside one run: a record repeating a key follows the policy wherever the
// earlier record is (same batch or a saved one), while a destination created for a reference
// (`missing: create`) takes its own record's values whatever the policy — through objects and
// through the row path alike.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct ConflictPolicyTests {
    static let model = """
        name: Shop
        entities:
          Category:
            attributes: {code: {type: string, optional: false}, title: string}
            relationships:
              parent: {destination: Category, inverse: children}
              children: {destination: Category, inverse: parent, toMany: true}
            unique: [[code]]
        """

    /// Batches of two: C-2 is created by C-1's reference and filled in the same batch; C-4 is
    /// created in the second batch and filled in the third; C-1 comes again in the second.
    static let categories = "code,title,parent\nC-1,One,C-2\nC-2,Two,\nC-3,Three,C-4\nC-1,Changed,\nC-4,Four,\n"

    static func plan(_ policy: String) -> String {
        """
        model: Shop.yaml
        store: Shop.sqlite
        batchSize: 2
        sources:
          - file: categories.csv
            entity: Category
            key: [code]
            onConflict: \(policy)
            attributes: {code: code, title: title}
            relationships: {parent: {field: parent, match: code, missing: create}}
        """
    }

    func run(_ policy: String, rowPath: Bool, categories: String = categories) async throws -> (
        ImportFixture, Result<ImportReport, Error>
    ) {
        let fixture = try ImportFixture()
        try fixture.write("Shop.yaml", Self.model)
        try fixture.write("categories.csv", categories)
        try fixture.write("plan.yaml", Self.plan(policy))
        var options = ImportOptions()
        options.usesRowPath = rowPath
        do {
            return (fixture, .success(try await fixture.run("plan.yaml", options: options)))
        } catch {
            return (fixture, .failure(error))
        }
    }

    static func contents(_ fixture: ImportFixture) throws -> [String] {
        try ImportFixture.rows(
            fixture.path("Shop.sqlite"),
            "SELECT c.code, c.title, p.code FROM Category c LEFT JOIN Category p ON p.pk = c.parent ORDER BY c.code")
    }

    @Test(arguments: [true, false])
    func keepKeepsTheFirstRecordAndFillsCreatedDestinations(rowPath: Bool) async throws {
        let (fixture, result) = try await run("keep", rowPath: rowPath)
        let report = try result.get()
        #expect(report.entities["Category"]?.inserted == 4)
        #expect(report.entities["Category"]?.unchanged == 1)
        #expect(try Self.contents(fixture) == ["C-1|One|C-2", "C-2|Two|NULL", "C-3|Three|C-4", "C-4|Four|NULL"])
    }

    @Test(arguments: [true, false])
    func updateTakesTheLaterRecord(rowPath: Bool) async throws {
        let (fixture, result) = try await run("update", rowPath: rowPath)
        let report = try result.get()
        #expect(report.entities["Category"]?.inserted == 4)
        #expect(report.entities["Category"]?.updated == 1)
        // The repeated record's empty parent field clears the mapped relationship.
        #expect(try Self.contents(fixture) == ["C-1|Changed|NULL", "C-2|Two|NULL", "C-3|Three|C-4", "C-4|Four|NULL"])
    }

    @Test(arguments: [true, false])
    func aRecordCanReferToItself(rowPath: Bool) async throws {
        let (fixture, result) = try await run(
            "update", rowPath: rowPath, categories: "code,title,parent\nC-1,One,C-1\nC-2,Two,C-1\n")
        let report = try result.get()
        #expect(report.entities["Category"]?.inserted == 2)
        #expect(try Self.contents(fixture) == ["C-1|One|C-1", "C-2|Two|C-1"])
    }

    @Test(arguments: [true, false])
    func failStopsAtTheRepeatedKeyOnly(rowPath: Bool) async throws {
        let (fixture, result) = try await run("fail", rowPath: rowPath)
        guard case .failure(let error) = result, let failure = error as? ImportFailure else {
            Issue.record("the run should fail at the repeated C-1")
            return
        }
        #expect(failure.reason.contains("categories.csv:5:"))
        #expect(failure.reason.contains("Category with key C-1 already exists"))
        // Both records: the one that repeats the key and the one that wrote it first.
        #expect(failure.reason.contains("; first written by the record at "))
        #expect(failure.reason.hasSuffix("categories.csv:2:1 (byte 18, record 1)"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Shop.sqlite")))
    }

    /// With `skip`, every repeated key is refused at its record, naming the record of this run
    /// that wrote the key first — in the same batch, in an earlier one, or set aside past a key
    /// index of one key — and none for a key the store held before the run.
    @Test(arguments: [(true, 0), (true, 1), (false, 0), (false, -1)])
    func failNamesTheRecordThatWroteTheKeyFirst(rowPath: Bool, keysPerLookup: Int) async throws {
        let fixture = try ImportFixture()
        try fixture.write("Shop.yaml", Self.model)
        let plan = Self.plan("fail").replacingOccurrences(of: "batchSize: 2", with: "batchSize: 2\nonError: skip")
        try fixture.write("plan.yaml", plan)
        var options = ImportOptions()
        options.usesRowPath = rowPath
        if keysPerLookup > 0 { options.limits.keysPerLookup = keysPerLookup }
        if keysPerLookup < 0 {
            // Into a store holding C-9 already: everything goes through objects.
            try fixture.write("categories.csv", "code,title,parent\nC-9,Nine,\n")
            _ = try await fixture.run("plan.yaml", options: options)
        }
        // C-1 again in the same batch (records 3 and 4) and in a later one (record 6), C-9 in
        // the last batch.
        try fixture.write(
            "categories.csv",
            "code,title,parent\nC-1,One,\nC-2,Two,\nC-3,Three,\nC-3,Again,\nC-4,Four,\nC-1,Again,\nC-9,Nine,\n")
        let report = try await fixture.run("plan.yaml", options: options)
        let messages = report.errors.map { "\($0.line) \($0.message)" }
        var expected = [
            "5 Category with key C-3 already exists (onConflict: fail); first written by the record at "
                + "\(fixture.path("categories.csv")):4:1 (byte 36, record 3)",
            "7 Category with key C-1 already exists (onConflict: fail); first written by the record at "
                + "\(fixture.path("categories.csv")):2:1 (byte 18, record 1)",
        ]
        if keysPerLookup < 0 { expected.append("8 Category with key C-9 already exists (onConflict: fail)") }
        #expect(messages == expected)
        #expect(report.entities["Category"]?.inserted == (keysPerLookup < 0 ? 4 : 5))
    }
}
