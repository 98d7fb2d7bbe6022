// Nested records from the data (docs/PlanFormat.md, "Conventions from the model"): a JSON object
// or array of objects under a relationship's field becomes records of the destination (the
// concrete sub-entity the relationship's `type` field names), matched by the destination's key;
// scalars stay references; JSON null clears a to-one and empties a to-many.
import Foundation
import Testing

@testable import SeedImport

@Suite struct ConventionNestedRecordsTests {
    static let tags = #"[{"tagID": "t1", "label": "one"}, {"tagID": "t2", "label": "two"}]"#
    static let people = """
        [
          {"personID": 1, "name": {"full": "Ada"},
           "address": {"addressID": 10, "street": "1 Main St", "city": "London"},
           "tags": [{"tagID": "t1", "label": "first"}, {"tagID": "t3", "label": "three"}],
           "pets": [{"petID": 1, "name": "Rex", "kind": "Dog", "barks": true},
                    {"petID": 2, "name": "Tom", "kind": "Cat", "lives": 9}],
           "work": {"company": {"code": "NC", "title": "New Co"}}},
          {"personID": 2, "name": {"full": "Bob"}, "tags": ["t1", "t2"], "work": {"company": "NC"},
           "pets": [{"petID": 3, "name": "Fido", "kind": "Dog", "barks": false}]}
        ]
        """

    static func imported() async throws -> ImportFixture {
        let fixture = try ConventionFixture.folder(
            files: ["tags.json": tags, "people.json": people],
            sources: [("tags.json", "Tag"), ("people.json", "Person")])
        let report = try await fixture.run("plan.yaml")
        #expect(report.errors.isEmpty)
        return fixture
    }

    static func summary(_ fixture: ImportFixture) throws -> [String] {
        try ConventionFixture.rows(
            fixture,
            """
            SELECT p.fullName, coalesce(a.street || ', ' || a.city, '-'), coalesce(c.title, '-'),
              coalesce((SELECT group_concat(label) FROM (SELECT t.label FROM Person_tags j JOIN Tag t ON t.pk = j.dst
               WHERE j.src = p.pk ORDER BY t.label)), '-')
            FROM Person p LEFT JOIN Address a ON a.pk = p.address LEFT JOIN Company c ON c.pk = p.employer
            ORDER BY p.fullName
            """)
    }

    @Test func objectsAndArraysOfObjectsAreNestedRecordsScalarsReferences() async throws {
        let fixture = try await Self.imported()
        // Ada's objects became an Address, a Company (matched by code, its relatedByAttribute) and
        // Tags matched by tagID (t1 updated, t3 inserted); Bob's scalars reference them.
        #expect(
            try Self.summary(fixture) == ["Ada|1 Main St, London|New Co|first,three", "Bob|-|New Co|first,two"])
        #expect(
            try ConventionFixture.rows(fixture, "SELECT tagID, label FROM Tag ORDER BY tagID") == [
                "t1|first", "t2|two", "t3|three",
            ])
        #expect(try ConventionFixture.rows(fixture, "SELECT count(*) FROM Company") == ["1"])
    }

    @Test func nestedRecordsBecomeTheSubEntityTheirTypeFieldNames() async throws {
        let fixture = try await Self.imported()
        let pets = try ConventionFixture.rows(
            fixture,
            """
            SELECT p.fullName, d.name, coalesce(d.barks, '-'), coalesce(d.lives, '-')
            FROM Person p JOIN Pet d ON d.owner = p.pk ORDER BY p.fullName, d.owner_position
            """)
        // Only a Dog's mapping has barks and only a Cat's has lives: each pet is the entity its kind names.
        #expect(pets == ["Ada|Rex|1|-", "Ada|Tom|-|9", "Bob|Fido|0|-"])
    }

    @Test func nullClearsAToOneAndEmptiesAToMany() async throws {
        let fixture = try await Self.imported()
        try fixture.write(
            "update.json", #"[{"personID": 1, "address": null, "tags": null, "pets": null, "work": {"company": null}}]"#
        )
        try fixture.write("update.yaml", ConventionFixture.plan([("update.json", "Person")]))
        let report = try await fixture.run("update.yaml")
        #expect(report.errors.isEmpty)
        #expect(try Self.summary(fixture) == ["Ada|-|-|-", "Bob|-|New Co|first,two"])
        // Ada's pets are no longer hers (Bob keeps his).
        #expect(try ConventionFixture.rows(fixture, "SELECT count(*) FROM Pet WHERE owner IS NOT NULL") == ["1"])
    }

    @Test func aTypeNamingNoSubEntityRefusesTheRecord() async throws {
        let fixture = try ConventionFixture.folder(
            files: ["people.json": #"[{"personID": 1, "pets": [{"petID": 1, "kind": "Fish"}]}]"#],
            sources: [("people.json", "Person")])
        let failure = try await #require(throws: ImportFailure.self) { try await fixture.run("plan.yaml") }
        #expect(failure.reason.contains("people.json:1:27"))
        #expect(failure.reason.contains("the nested record names no entity that Person.pets can hold"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("People.sqlite")))
    }

    /// In XML, an element with children is a nested record; one with text of its own (attributes
    /// or not) is a key.
    @Test func xmlElementsWithChildrenAreNestedRecordsAndTextIsAKey() async throws {
        let xml = """
            <people>
              <address><addressID>10</addressID><street>1 Main St</street><city>London</city></address>
              <person><personID>1</personID><tags><tagID>t1</tagID><label>one</label></tags>
                <tags><tagID>t2</tagID><label>two</label></tags><address kind="home">10</address></person>
              <person><personID>2</personID><tags>t2</tags></person>
            </people>
            """
        let fixture = try ConventionFixture.folder(
            files: ["addresses.xml": xml, "people.xml": xml],
            sources: [("addresses.xml", "Address"), ("people.xml", "Person")])
        try fixture.write(
            "plan.yaml",
            """
            model: People.yaml
            store: People.sqlite
            sources:
              - {file: addresses.xml, records: people/address, entity: Address}
              - {file: people.xml, records: people/person, entity: Person}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.errors.isEmpty)
        let rows = try ConventionFixture.rows(
            fixture,
            """
            SELECT p.personID, coalesce(a.street, '-'),
              (SELECT group_concat(label) FROM (SELECT t.label FROM Person_tags j JOIN Tag t ON t.pk = j.dst
               WHERE j.src = p.pk ORDER BY t.label))
            FROM Person p LEFT JOIN Address a ON a.pk = p.address ORDER BY p.personID
            """)
        #expect(rows == ["1|1 Main St|one,two", "2|-|two"])
        #expect(try ConventionFixture.rows(fixture, "SELECT count(*) FROM Address") == ["1"])
    }
}
