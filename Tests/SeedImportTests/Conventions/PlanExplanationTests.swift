// `seedkit plan explain`'s text: the effective mapping of each source with where each part came
// from (plan, model userInfo, default), and what convention mapping leaves out.
import Foundation
import Testing

@testable import SeedImport

@Suite struct PlanExplanationTests {
    @Test func explainsWhereEachPartComesFrom() throws {
        let fixture = try ConventionFixture.folder(files: ["people.json": "[]"], sources: [("people.json", "Person")])
        try fixture.write(
            "explicit.yaml",
            """
            model: People.yaml
            sources:
              - file: people.json
                entity: Person
                key: [fullName]
                attributes: {fullName: who, updated: {date: epoch}}
                relationships: {employer: {match: title, missing: ignore}}
            """)
        let convention = try PlanExplanation(try ValidatedPlan(file: fixture.path("plan.yaml"))).lines
        #expect(convention.first == "sources[0] people.json → Person")
        #expect(
            convention.contains("  key: personID (model: Person's relatedByAttribute; a record without it is inserted)")
        )
        #expect(convention.contains("  fullName ← name.full (model: mappedKeyName)"))
        #expect(convention.contains("  nickname ← nick, then alias, then handle (model: mappedKeyName … .2)"))
        #expect(convention.contains("  birthday ← birthday (default: the name); date dd.MM.yyyy (model: dateFormat)"))
        #expect(
            convention.contains(
                "  employer ← work.company (model: mappedKeyName); match code (model: Company's relatedByAttribute); missing: create"
            ))
        #expect(
            convention.contains(
                "  tags ← tags (default: the name); match tagID (default: tagID); missing: ignore; members: add"))
        #expect(convention.contains("    objects: nested Dog records where kind is Dog (model: type)"))
        #expect(convention.contains("      key: petID (the reference's match; a record without it is inserted)"))
        #expect(convention.suffix(2).first == "left out:")

        let explicit = try PlanExplanation(try ValidatedPlan(file: fixture.path("explicit.yaml"))).lines
        #expect(
            explicit == [
                "sources[0] people.json → Person", "  key: fullName (plan)", "  fullName ← who (plan)",
                "  updated ← updated (default: the name); date epoch (plan)",
                "  employer ← work.company (model: mappedKeyName); match title (plan); missing: ignore",
            ])
    }
}
