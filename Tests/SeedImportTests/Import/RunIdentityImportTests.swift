// The run identity (`key: [object-id]`, `match: object-id`; PlanConventions.identityKey): records
// of an entity without a unique key identified by their `object-id` field for the length of a
// run, so references to them resolve — across batches, forwards and backwards, in a store the
// run creates and in one that holds data — while nothing of it is stored (a second run inserts
// them again) and a run using it does not resume — however few keys the run's key index holds.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct RunIdentityImportTests {
    static let visits = """
        object-id,day,note,animal
        v1,2024-01-10T09:00:00Z,first check,
        v2,2024-02-02T09:00:00Z,teeth,
        v3,2024-03-01T09:00:00Z,vaccine,

        """

    static let animals = """
        kind,name,born,breed,indoor,lives,keeper,visits
        Dog,Rex,,Collie,,,Ann,v3;v1
        Cat,Tom,,,true,9,Ann,v2

        """

    /// The zoo with identified visits, the animals' sources listing them, in `order`.
    static func fixture(visitsFirst: Bool, animals: String = animals) throws -> ImportFixture {
        let fixture = try EntityFieldImportTests.zoo()
        try fixture.write("visits.csv", visits)
        try fixture.write("animals.csv", animals)
        let sources = [
            "  - {file: visits.csv, entity: Visit, key: [object-id], attributes: {day: day, note: note}}",
            """
              - file: animals.csv
                entity: Animal
                entityField: kind
                key: [name]
                relationships:
                  keeper: {match: name}
                  visits: {split: ";", match: object-id, missing: reject, members: replace}
            """,
        ]
        try fixture.write(
            "identities.yaml",
            "model: Zoo.yaml\nstore: Zoo.sqlite\nbatchSize: 1\nsources:\n"
                + (visitsFirst ? sources : sources.reversed()).joined(separator: "\n") + "\n")
        return fixture
    }

    static let expected = [
        "Dog name=Rex breed=Collie keeper=[Ann] visits=[vaccine,first check]",
        "Cat name=Tom indoor=true lives=9 keeper=[Ann] visits=[teeth]",
    ]

    /// Also with a key index of one key per lookup: the identities it cannot hold are found in
    /// the run's identity table.
    @Test(arguments: [true, false], [1, 1 << 16])
    func referencesToIdentifiedRecordsResolveInANewStore(visitsFirst: Bool, keysPerLookup: Int) async throws {
        let fixture = try Self.fixture(visitsFirst: visitsFirst)
        var options = ImportOptions()
        options.limits.keysPerLookup = keysPerLookup
        let report = try await fixture.run("identities.yaml", options: options)
        #expect(report.entities["Visit"]?.inserted == 3 && report.errors.isEmpty)
        #expect(try EntityFieldImportTests.objects(fixture.path("Zoo.sqlite"), "Animal") == Self.expected)
    }

    @Test(arguments: [true, false])
    func referencesToIdentifiedRecordsResolveInAStoreThatHoldsData(visitsFirst: Bool) async throws {
        let fixture = try Self.fixture(visitsFirst: visitsFirst)
        try fixture.write("keepers.csv", "name\nAnn\nBob\n")
        try fixture.write(
            "keepers.yaml",
            "model: Zoo.yaml\nstore: Zoo.sqlite\nsources: [{file: keepers.csv, entity: Keeper, key: [name], attributes: {name: name}}]\n"
        )
        _ = try await fixture.run("keepers.yaml")
        _ = try await fixture.run("identities.yaml")
        #expect(try EntityFieldImportTests.objects(fixture.path("Zoo.sqlite"), "Animal") == Self.expected)
        // Identities are not stored: a second run inserts the visits again (the animals, keyed
        // by name, now list the new ones).
        let again = try await fixture.run("identities.yaml")
        #expect(again.entities["Visit"]?.inserted == 3)
        #expect(try EntityFieldImportTests.objects(fixture.path("Zoo.sqlite"), "Visit", by: "day").count == 6)
        #expect(try EntityFieldImportTests.objects(fixture.path("Zoo.sqlite"), "Animal") == Self.expected)
    }

    @Test func anIdentityNoRecordHasIsAMissingReference() async throws {
        let fixture = try Self.fixture(
            visitsFirst: true, animals: "kind,name,born,breed,indoor,lives,keeper,visits\nDog,Rex,,,,,Ann,v1;v7\n")
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("identities.yaml") }
        #expect(
            failure.reason.hasSuffix(
                "animals.csv:2:17 (byte 64, record 1) field visits: no Visit with object-id = \"v7\" for relationship visits (missing: reject)"
            ))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("Zoo.sqlite")))
    }

    @Test func aPlanUsingIdentitiesSaysSo() throws {
        let plan = try PlanFile.load(from: try Self.fixture(visitsFirst: true).path("identities.yaml")).plan
        #expect(plan.usesRunIdentities)
        let zoo = try PlanFile.load(from: try EntityFieldImportTests.zoo().path("zoo.yaml")).plan
        #expect(!zoo.usesRunIdentities)
    }
}
