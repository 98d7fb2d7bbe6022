// A keyless source (always insert) into an entity with a unique constraint: a record repeating
// the constraint's values is a bad record like any other — refused at its position, naming the
// record that wrote the values first — never a store error when the run's indexes are built;
// and so is a record repeating any other constraint of the entity (a second one, a compound one).
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct UniqueConstraintTests {
    static let items = "sku,name\nA-1,Apples\nA-2,Pears\nA-1,Apples again\nA-3,Plums\nA-2,Pears again\n"

    static func fixture(batchSize: Int, onError: String = "abort") throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("items.csv", items)
        try fixture.write(
            "plan.yaml",
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            batchSize: \(batchSize)
            onError: \(onError)
            rejects: rejects.jsonl
            sources:
              - {file: items.csv, entity: Item, attributes: {sku: sku, name: name}}
            """)
        return fixture
    }

    @Test(arguments: [1, 2, 100])
    func aDuplicateStopsTheRunAtItsRecordNamingTheFirst(batchSize: Int) async throws {
        let fixture = try Self.fixture(batchSize: batchSize)
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        let items = fixture.path("items.csv")
        #expect(failure.reason.hasPrefix("\(items):4:1 (byte 30, record 3) field sku: "))
        #expect(failure.reason.contains("Item with key A-1 already exists (the entity's unique constraint"))
        #expect(failure.reason.hasSuffix("first written by the record at \(items):2:1 (byte 9, record 1)"))
        #expect(!failure.reason.contains("UNIQUE"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Catalog.sqlite")))
    }

    @Test(arguments: [1, 2, 100])
    func withSkipTheLaterDuplicatesAreRejected(batchSize: Int) async throws {
        let fixture = try Self.fixture(batchSize: batchSize, onError: "skip")
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Item"]?.inserted == 3)
        #expect(report.entities["Item"]?.rejected == 2)
        #expect(report.errors.map(\.line) == [4, 6])
        #expect(report.errors.map(\.field) == ["sku", "sku"])
        #expect(
            report.errors.last?.message.hasSuffix(
                "first written by the record at \(fixture.path("items.csv")):3:1 (byte 20, record 2)") == true)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT sku, name FROM Item ORDER BY sku") == [
                "A-1|Apples", "A-2|Pears", "A-3|Plums",
            ])
        let rejects = try String(contentsOfFile: fixture.path("rejects.jsonl"), encoding: .utf8)
        #expect(rejects.split(separator: "\n").count == 2)
        #expect(rejects.contains("Apples again") && rejects.contains("Pears again"))
    }

    @Test func aDuplicateOfAnObjectTheStoreHeldIsRefusedAtItsRecord() async throws {
        let fixture = try Self.fixture(batchSize: 100, onError: "skip")
        try fixture.write("items.csv", "sku,name\nA-1,Apples\n")
        _ = try await fixture.run("plan.yaml")
        try fixture.write("items.csv", "sku,name\nA-9,Figs\nA-1,Apples again\n")
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Item"]?.inserted == 1)
        #expect(report.errors.map(\.line) == [3])
        #expect(report.errors.first?.message.contains("Item with key A-1 already exists") == true)
        #expect(
            try ImportFixture.rows(fixture.path("Catalog.sqlite"), "SELECT sku, name FROM Item ORDER BY sku") == [
                "A-1|Apples", "A-9|Figs",
            ])
    }

    /// Members with three unique constraints: `[code]` (which guards the keyless source), `[email]`
    /// and `[first, last]`.
    static func members(_ rows: String, onError: String, batchSize: Int) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write(
            "Members.yaml",
            """
            name: Members
            entities:
              Member:
                attributes: {code: string, email: string, first: string, last: string}
                unique: [[code], [email], [first, last]]
            """)
        try fixture.write("members.csv", "code,email,first,last\n" + rows)
        try fixture.write(
            "plan.yaml",
            """
            model: Members.yaml
            store: Members.sqlite
            batchSize: \(batchSize)
            onError: \(onError)
            sources:
              - {file: members.csv, entity: Member}
            """)
        return fixture
    }

    @Test(arguments: [1, 100], [true, false])
    func repeatsOfEachConstraintAreRejectedNamingTheFirst(batchSize: Int, usesRowPath: Bool) async throws {
        let fixture = try Self.members(
            "M1,a@x,Ann,Lee\nM2,b@x,Bob,Ray\nM1,c@x,Cy,Dee\nM3,a@x,Dan,Fox\nM4,d@x,Bob,Ray\nM5,,Eve,\nM6,,Eve,\n",
            onError: "skip", batchSize: batchSize)
        var options = ImportOptions()
        options.usesRowPath = usesRowPath
        let report = try await fixture.run("plan.yaml", options: options)
        let members = fixture.path("members.csv")
        #expect(report.entities["Member"]?.inserted == 4)
        #expect(report.entities["Member"]?.rejected == 3)
        #expect(report.errors.map(\.line) == [4, 5, 6])
        #expect(report.errors.map(\.field) == ["code", "email", "first"])
        #expect(
            report.errors[1].description
                == "\(members):5:1 (byte 66, record 4) field email: Member with email a@x already exists "
                + "(the unique constraint [email] of Member); first written by the record at "
                + "\(members):2:1 (byte 22, record 1)")
        #expect(
            report.errors[2].message
                == "Member with first, last Bob, Ray already exists (the unique constraint [first, last] of Member); "
                + "first written by the record at \(members):3:1 (byte 37, record 2)")
        #expect(
            try ImportFixture.rows(
                fixture.path("Members.sqlite"), "SELECT code, coalesce(email, '-') FROM Member ORDER BY code")
                == ["M1|a@x", "M2|b@x", "M5|-", "M6|-"])
    }

    @Test(arguments: [true, false])
    func aRepeatOfTheSecondConstraintStopsTheRun(usesRowPath: Bool) async throws {
        let fixture = try Self.members(
            "M1,a@x,Ann,Lee\nM2,b@x,Bob,Ray\nM3,a@x,Dan,Fox\n", onError: "abort", batchSize: 1)
        var options = ImportOptions()
        options.usesRowPath = usesRowPath
        let failure = try await #require(throws: ImportFailure.self) {
            try await fixture.run("plan.yaml", options: options)
        }
        let members = fixture.path("members.csv")
        #expect(
            failure.reason.hasSuffix(
                "\(members):4:1 (byte 52, record 3) field email: Member with email a@x already exists "
                    + "(the unique constraint [email] of Member); first written by the record at "
                    + "\(members):2:1 (byte 22, record 1)"))
        #expect(!failure.reason.contains("UNIQUE"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Members.sqlite")))
    }

    /// In a store that holds data, the store's rules refuse them at the save; the refused
    /// records count as rejected, not inserted.
    @Test func repeatsOfAnObjectTheStoreHeldAreRejectedAndNotCounted() async throws {
        let fixture = try Self.members("M1,a@x,Ann,Lee\n", onError: "skip", batchSize: 100)
        _ = try await fixture.run("plan.yaml")
        try fixture.write("members.csv", "code,email,first,last\nM2,a@x,Bob,Ray\nM3,z@x,Ann,Lee\nM4,y@x,Cy,Dee\n")
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Member"]?.inserted == 1)
        #expect(report.entities["Member"]?.rejected == 2)
        #expect(report.errors.map(\.line) == [2, 3])
        #expect(
            try ImportFixture.rows(fixture.path("Members.sqlite"), "SELECT code FROM Member ORDER BY code")
                == ["M1", "M4"])
    }

    @Test func nullsInAnOptionalUniqueAttributeAreNoDuplicates() async throws {
        let fixture = try ImportFixture()
        try fixture.write(
            "Model.yaml",
            """
            name: Badges
            entities:
              Badge:
                attributes: {code: string, label: {type: string, optional: false}}
                unique: [[code]]
            """)
        try fixture.write("badges.csv", "code,label\n,first\nB1,second\n,third\nB1,fourth\n")
        try fixture.write(
            "plan.yaml",
            """
            model: Model.yaml
            store: Badges.sqlite
            onError: skip
            sources:
              - {file: badges.csv, entity: Badge}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Badge"]?.inserted == 3)
        #expect(report.errors.map(\.line) == [5])
        #expect(
            try ImportFixture.rows(
                fixture.path("Badges.sqlite"), "SELECT coalesce(code, '-'), label FROM Badge ORDER BY label")
                == ["-|first", "B1|second", "-|third"])
    }
}
