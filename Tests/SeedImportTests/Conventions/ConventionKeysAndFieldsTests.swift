// Keys and fields from the model (docs/PlanFormat.md, "Conventions from the model"): an entity's
// relatedByAttribute as its import key, references matched by relatedByAttribute or the default
// `<entity>ID`, mappedKeyName key paths with their fall-backs, a relationship's mappedKeyName
// whatever else the plan maps, and a relatedByAttribute naming no attribute.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct ConventionKeysAndFieldsTests {
    static let companies = #"[{"code": "AC", "title": "Acme"}, {"code": "GL", "title": "Globex"}]"#
    static let tags = #"[{"tagID": "t1", "label": "one"}, {"tagID": "t2", "label": "two"}]"#
    static let people = """
        [
          {"personID": 1, "name": {"full": "Ada Lovelace"}, "alias": "Countess", "work": {"company": "AC"},
           "tags": ["t1", "t2"]},
          {"personID": 2, "name": {"full": "Bob"}, "nick": "B", "handle": "bobby", "tags": ["t2"]},
          {"name": {"full": "Nobody"}, "handle": "anon"},
          {"personID": 1, "name": {"full": "Ada King"}, "work": {"company": "GL"}}
        ]
        """

    static func peopleFixture(_ people: String = people) throws -> ImportFixture {
        try ConventionFixture.folder(
            files: ["companies.json": companies, "tags.json": tags, "people.json": people],
            sources: [("companies.json", "Company"), ("tags.json", "Tag"), ("people.json", "Person")])
    }

    @Test func entityKeyPathsAndFallbacksComeFromTheModel() async throws {
        let fixture = try Self.peopleFixture()
        let report = try await fixture.run("plan.yaml")
        // The fourth record has Ada's key: it updates her (relatedByAttribute is Person's key);
        // the third has no key: it is inserted, not refused. Four records, three people.
        #expect(report.entities["Person"]?.inserted == 3)
        #expect(report.errors.isEmpty)
        let rows = try ConventionFixture.rows(
            fixture,
            """
            SELECT coalesce(p.personID, '-'), p.fullName, coalesce(p.nickname, '-'), coalesce(c.title, '-'),
              (SELECT group_concat(label) FROM (SELECT t.label FROM Person_tags j JOIN Tag t ON t.pk = j.dst
               WHERE j.src = p.pk ORDER BY t.label))
            FROM Person p LEFT JOIN Company c ON c.pk = p.employer ORDER BY p.fullName
            """)
        #expect(
            rows == [
                // mappedKeyName.1 (alias) read when nick is absent; a later update keeps it.
                "1|Ada King|Countess|Globex|one,two",
                // nick is present: the fall-backs are not read.
                "2|Bob|B|-|two",
                // neither nick nor alias: mappedKeyName.2 (handle).
                "-|Nobody|anon|-|NULL",
            ])
    }

    @Test func relationshipMappedKeyNameIsHonouredWhenThePlanMapsOtherFields() async throws {
        let fixture = try Self.peopleFixture()
        try fixture.write(
            "plan.yaml",
            """
            model: People.yaml
            store: People.sqlite
            sources:
              - {file: companies.json, entity: Company, key: [code]}
              - file: people.json
                entity: Person
                attributes: {personID: , fullName: }
                relationships: {employer: }
            """)
        _ = try await fixture.run("plan.yaml")
        let rows = try ConventionFixture.rows(
            fixture,
            "SELECT p.fullName, coalesce(c.code, '-') FROM Person p LEFT JOIN Company c ON c.pk = p.employer ORDER BY 1"
        )
        #expect(rows == ["Ada King|GL", "Bob|-", "Nobody|-"])
    }

    @Test func matchesByDefaultIdentifierWhenTheModelNamesNone() throws {
        let model = try ConventionFixture.loadModel(ConventionFixture.model)
        let person = try #require(model.entity(named: "Person"))
        let tags = try #require(person.relationship(named: "tags"))
        let employer = try #require(person.relationship(named: "employer"))
        #expect(try PlanConventions.effectiveMatch(for: tags, mapping: nil, model: model) == ["tagID"])
        #expect(try PlanConventions.effectiveMatch(for: employer, mapping: nil, model: model) == ["code"])
        #expect(PlanConventions.conventionalKey(of: person, model: model) == "personID")
        let nickname = try #require(person.attribute(named: "nickname"))
        #expect(
            PlanConventions.fields(userInfo: nickname.declaration.userInfo, name: "nickname") == [
                "nick", "alias", "handle",
            ])
        // An explicit key wins over the model's.
        var mapping = RecordMapping(entity: "Person")
        mapping.key = ["fullName"]
        #expect(PlanConventions.effectiveKey(of: mapping, entity: person, model: model) == ["fullName"])
    }

    /// A destination's relatedByAttribute naming no attribute of it: a plan error at the
    /// relationship when the plan maps it, left out (and noted) when only convention would.
    @Test func relatedByAttributeNamingNoAttribute() async throws {
        let broken = ConventionFixture.model.replacingOccurrences(
            of: "userInfo: {relatedByAttribute: code}", with: "userInfo: {relatedByAttribute: companyCode}")
        let fixture = try Self.peopleFixture()
        try fixture.write("People.yaml", broken)
        try fixture.write(
            "explicit.yaml",
            """
            model: People.yaml
            store: People.sqlite
            sources:
              - file: people.json
                entity: Person
                attributes: {fullName: }
                relationships:
                  employer: {missing: ignore}
            """)
        let failure = try await #require(throws: (any Error).self) { try await fixture.run("explicit.yaml") }
        #expect(
            "\(failure)".contains(
                "explicit.yaml:8:17 (sources[0].relationships.employer): 'companyCode' (from Company's relatedByAttribute) is not an attribute of Company"
            ))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("People.sqlite")))

        // By convention the relationship is simply not mapped; the rest imports.
        let report = try await fixture.run("plan.yaml")
        #expect(report.errors.isEmpty)
        #expect(report.entities["Person"]?.inserted == 3)
        let employers = try ConventionFixture.rows(fixture, "SELECT count(*) FROM Person WHERE employer IS NOT NULL")
        #expect(employers == ["0"])
    }

    @Test func entityKeyNamingNoAttributeIsAWarningAndRecordsInsert() throws {
        let broken = ConventionFixture.model.replacingOccurrences(
            of: "userInfo: {relatedByAttribute: personID}", with: "userInfo: {relatedByAttribute: id}")
        let model = try ConventionFixture.loadModel(broken)
        let problems = PlanValidator(checksFiles: false).validate(
            ImportPlan(sources: [SourcePlan(file: "people.json", entity: "Person")]), model: model)
        #expect(
            problems.map(\.description) == [
                "sources[0].entity: warning: Person's relatedByAttribute 'id' is not an attribute of Person that can identify objects, so records always insert: give key:, or fix the model"
            ])
    }
}

/// Conventional mapping checked against a CSV header (or a JSON source's first record) before anything is written.
@Suite struct ConventionalHeaderTests {
    @Test func fieldsTheHeaderLacksAreLeftOutAndNoted() async throws {
        // No column for nickname (nor its fall-backs), joined, updated or any relationship: they
        // are not mapped (the relationships would otherwise fail when the rows are written), and
        // the colour, whose value class no codec builds, is left out with one note.
        let fixture = try ConventionFixture.folder(
            files: ["people.csv": "personID,name.full,birthday\n1,Ada,10.12.1815\n2,Bob,\n"],
            sources: [("people.csv", "Person")])
        var dryRun = ImportOptions()
        dryRun.dryRun = true
        let report = try await fixture.run("plan.yaml", options: dryRun)
        #expect(report.errors.isEmpty)
        #expect(report.entities["Person"]?.inserted == 2)
        let notes = report.notes.map { $0.components(separatedBy: " (").first ?? $0 }
        #expect(
            notes == [
                "sources[0].attributes.favouriteColour: no transformable codec is registered as \"UIColorValueTransformer\"; left out",
                "sources[0].attributes.joined: not mapped", "sources[0].attributes.nickname: not mapped",
                "sources[0].attributes.updated: not mapped", "sources[0].relationships.address: not mapped",
                "sources[0].relationships.employer: not mapped", "sources[0].relationships.pets: not mapped",
                "sources[0].relationships.tags: not mapped",
            ])
        #expect(report.notes.contains { $0.contains("no column named nick, alias, handle in the header of") })

        _ = try await fixture.run("plan.yaml")
        let rows = try ConventionFixture.rows(
            fixture, "SELECT personID, fullName, coalesce(birthday, '-') FROM Person ORDER BY 1")
        #expect(rows.count == 2)
        #expect(rows[1] == "2|Bob|-")
    }

    @Test func fieldsTheFirstJSONRecordLacksStayMappedAndAreNoted() async throws {
        // A JSON record may hold fields the first one lacks: the first record only informs the
        // dry run's notes, and the later record's nickname and employer still import.
        let fixture = try ConventionFixture.folder(
            files: [
                "people.json": """
                [{"personID": 1, "name": {"full": "Ada"}},
                 {"personID": 2, "name": {"full": "Bob"}, "alias": "B"}]
                """
            ],
            sources: [("people.json", "Person")])
        var dryRun = ImportOptions()
        dryRun.dryRun = true
        let report = try await fixture.run("plan.yaml", options: dryRun)
        #expect(report.errors.isEmpty)
        let notes = report.notes.map { $0.replacingOccurrences(of: fixture.path(""), with: "") }
        #expect(
            notes.contains(
                "sources[0].attributes.nickname: no field nick, alias, handle in the first record of people.json (its fields: \"personID\", \"name\"); mapped for the records that have it"
            ))
        #expect(
            notes.contains { $0.hasPrefix("sources[0].relationships.employer: no field work.company in the first") })
        #expect(!notes.contains { $0.hasPrefix("sources[0].attributes.personID") })
        #expect(!notes.contains { $0.hasPrefix("sources[0].attributes.fullName") })

        _ = try await fixture.run("plan.yaml")
        let rows = try ConventionFixture.rows(
            fixture, "SELECT personID, fullName, coalesce(nickname, '-') FROM Person ORDER BY 1")
        #expect(rows == ["1|Ada|-", "2|Bob|B"])
    }
}
