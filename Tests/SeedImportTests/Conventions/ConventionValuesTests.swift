// Dates and values from the model (docs/PlanFormat.md, "Conventions from the model"): the
// dateFormat userInfo, UnixTime, JSON numbers as seconds since 1970, MagicalRecord's default
// format, and an attribute whose value class no codec builds.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

/// Dates and values from the model: dateFormat userInfo, UnixTime, JSON numbers, MagicalRecord's
/// default format, and an attribute no codec builds, left out with one note per run.
@Suite struct ConventionValuesTests {
    @Test func datesFollowTheModelsFormats() async throws {
        let people = """
            [
              {"personID": 1, "birthday": "10.12.1815", "joined": "1700000000", "updated": "2026-11-22T10:15:00GMT",
               "favouriteColour": "ff0000"},
              {"personID": 2, "birthday": 0, "joined": 1700000000.5, "updated": 1795342500, "favouriteColour": "00ff00"}
            ]
            """
        let fixture = try ConventionFixture.folder(files: ["people.json": people], sources: [("people.json", "Person")])
        let report = try await fixture.run("plan.yaml")
        #expect(report.errors.isEmpty)
        // Besides the fields the first record lacks (ConventionalHeaderTests), one note: the colour.
        #expect(
            report.notes.filter { !$0.contains("in the first record of") } == [
                "sources[0].attributes.favouriteColour: no transformable codec is registered as \"UIColorValueTransformer\"; left out (map it with a codec to import it)"
            ])
        let rows = try ConventionFixture.rows(
            fixture,
            """
            SELECT personID, strftime('%Y-%m-%dT%H:%M:%S', birthday, 'unixepoch'),
              joined, strftime('%Y-%m-%dT%H:%M:%S', updated, 'unixepoch'),
              coalesce(favouriteColour, '-')
            FROM Person ORDER BY personID
            """)
        #expect(
            rows == [
                "1|1815-12-10T00:00:00|1700000000.0|2026-11-22T10:15:00|-",
                "2|1970-01-01T00:00:00|1700000000.5|2026-11-22T10:15:00|-",
            ])
    }

    /// Listed in the plan, such an attribute imports once a codec is registered under its
    /// transformer's name.
    @Test func explicitMappingGivesTheValueClassACodec() async throws {
        TransformableCodecs.shared.register(DataTransformableCodec(), as: "ConventionTestSwatch")
        let fixture = try ConventionFixture.folder(
            files: ["people.json": #"[{"personID": 1, "colour": "/wAA"}]"#], sources: [("people.json", "Person")])
        try fixture.write(
            "People.yaml",
            ConventionFixture.model.replacingOccurrences(
                of: "transformer: UIColorValueTransformer", with: "transformer: ConventionTestSwatch"))
        try fixture.write(
            "plan.yaml",
            """
            model: People.yaml
            store: People.sqlite
            sources:
              - file: people.json
                entity: Person
                attributes: {personID: , favouriteColour: colour}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.notes.isEmpty)
        #expect(try ConventionFixture.rows(fixture, "SELECT hex(favouriteColour) FROM Person") == ["FF0000"])
    }
}
