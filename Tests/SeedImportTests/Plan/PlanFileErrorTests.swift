// Tests for the problems reading a plan file reports: each kind, with its exact line:column and
// key path, in YAML and JSON; and that every problem of a plan is reported, not just the first.
import Foundation
import Testing

@testable import SeedImport
import TestSupport

@Suite("Plan files: parse errors")
struct PlanFileErrorTests {
    // MARK: - Schema

    @Test func reportsUnknownKeysWithASuggestion() {
        #expect(
            parseProblems(
                """
                sources:
                  - file: items.csv
                    entity: Item
                    atributes: {sku: sku}
                    relationships:
                      unit: {feild: unit, colour: red}
                """
            ) == [
                "plan.yaml:4:5 (sources[0].atributes): unknown key 'atributes'; did you mean 'attributes'?",
                "plan.yaml:6:14 (sources[0].relationships.unit.feild): unknown key 'feild'; did you mean 'field'?",
                "plan.yaml:6:27 (sources[0].relationships.unit.colour): unknown key 'colour'",
            ])
    }

    @Test func reportsUnknownKeysInJSON() {
        #expect(
            parseProblems(#"{"batchsize": 10, "sources": []}"#, syntax: .json) == [
                "plan.json:1:2 (batchsize): unknown key 'batchsize'; did you mean 'batchSize'?"
            ])
    }

    @Test func reportsValuesOfTheWrongType() {
        #expect(
            parseProblems(
                """
                batchSize: many
                maxErrors: "5"
                seed: 2026
                sources:
                  - file: [a.csv]
                    entity: Item
                    key: {sku: 1}
                    csv: {header: maybe}
                    attributes: [sku]
                    relationships:
                      unit: [unit]
                """
            ) == [
                "plan.yaml:1:12 (batchSize): expected a whole number, found 'many'",
                "plan.yaml:2:12 (maxErrors): expected a whole number, found the quoted text \"5\"",
                "plan.yaml:3:7 (seed): expected a mapping, found '2026'",
                "plan.yaml:5:11 (sources[0].file): expected a text, found a list",
                "plan.yaml:7:10 (sources[0].key): expected a text or a list of texts, found a mapping",
                "plan.yaml:8:19 (sources[0].csv.header): expected true or false, found 'maybe'",
                "plan.yaml:9:17 (sources[0].attributes): expected a mapping, found a list",
                "plan.yaml:11:13 (sources[0].relationships.unit): expected a field name or a mapping of options, found a list",
            ])
    }

    @Test func reportsWrongTypesInJSON() {
        #expect(
            parseProblems(
                #"""
                {"sources": {"file": "a.csv"},
                 "onError": true}
                """#, syntax: .json
            ) == [
                "plan.json:1:13 (sources): expected a list, found a mapping",
                "plan.json:2:13 (onError): onError must be one of abort, skip, not 'true'",
            ])
    }

    @Test func reportsWordsOutsideTheirChoices() {
        #expect(
            parseProblems(
                """
                onError: abourt
                sources:
                  - file: items.csv
                    format: yaml
                    entity: Item
                    onConflict: replace
                    relationships:
                      tags: {missing: skip, members: add-all}
                """
            ) == [
                "plan.yaml:1:10 (onError): onError must be one of abort, skip, not 'abourt'; did you mean 'abort'?",
                "plan.yaml:4:13 (sources[0].format): format must be one of csv, tsv, json, ndjson, xml, not 'yaml'",
                "plan.yaml:6:17 (sources[0].onConflict): onConflict must be one of update, keep, fail, not 'replace'",
                "plan.yaml:8:23 (sources[0].relationships.tags.missing): missing must be one of create, reject, ignore, not 'skip'",
                "plan.yaml:8:38 (sources[0].relationships.tags.members): members must be one of add, replace, not 'add-all'",
            ])
    }

    @Test func reportsMissingRequiredKeys() {
        #expect(
            parseProblems(
                """
                sources:
                  - format: csv
                  - file: items.json
                    entity: ~
                    relationships:
                      location: {nested: {key: aisle}}
                """
            ) == [
                "plan.yaml:2:5 (sources[0].file): missing key 'file' (the file to import)",
                "plan.yaml:2:5 (sources[0].entity): missing key 'entity' (the entity its records become)",
                "plan.yaml:3:5 (sources[1].entity): 'entity' must not be empty: it names the entity its records become",
                "plan.yaml:6:26 (sources[1].relationships.location.nested.entity): missing key 'entity' (the entity nested records become)",
            ])
    }

    @Test func rejectsAPlanThatIsNotAMapping() {
        #expect(parseProblems("- file: items.csv") == ["plan.yaml:1:1: expected a mapping, found a list"])
        #expect(parseProblems("") == ["plan.yaml: the plan is empty"])
        #expect(parseProblems("# nothing but a comment\n") == ["plan.yaml: the plan is empty"])
    }

    @Test func rejectsKeysThatAreNotNames() {
        #expect(parseProblems("? [a, b]\n: 1\n") == ["plan.yaml:1:3: a key must be a name, not a list"])
    }

    // MARK: - Syntax

    @Test func reportsYAMLSyntaxErrorsAtTheirPosition() {
        let problems = parseProblems(
            """
            sources:
              - file: items.csv
                 entity: Item
            """)
        #expect(problems == ["plan.yaml:3:12: invalid YAML: mapping values are not allowed in this context"])
    }

    @Test func reportsJSONSyntaxErrorsAtTheirPosition() {
        #expect(
            parseProblems(#"{"sources": [{"file": "a.csv"}"#, syntax: .json) == [
                "plan.json:2:1: invalid JSON: did not find expected ',' or ']' (while parsing a flow sequence at 1:13)"
            ])
    }

    @Test func reportsDuplicateKeys() {
        #expect(
            parseProblems(
                """
                batchSize: 1
                sources: []
                batchSize: 2
                """
            ) == ["plan.yaml:1:1: duplicate key 'batchSize': each key may appear once in a mapping"])
    }

    @Test func reportsControlCharactersAtTheirPosition() {
        let problems = parseProblems("model: a\nstore: b\u{1}\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("plan.yaml:2:9: invalid YAML:") == true)
    }

    // MARK: - Files

    @Test func reportsAPlanFileThatCannotBeRead() {
        let path = planFixtures + "/no-such-plan.yaml"
        #expect(throws: PlanErrors([PlanError(file: path, message: "cannot read the plan file: no such file")])) {
            try PlanFile.load(from: path)
        }
    }

    @Test func reportsAPlanFileThatIsNotUTF8() throws {
        let path = ScratchFolder.path("plan", suffix: ".yaml")
        try Data([0x6D, 0x3A, 0x20, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: PlanErrors([PlanError(file: path, message: "the plan file is not valid UTF-8")])) {
            try ImportPlan.load(from: path)
        }
    }

    // MARK: - All at once

    @Test func reportsEveryProblemInFileOrder() {
        let problems = parseProblems(
            """
            batchSize: lots
            sources:
              - file: items.csv
                entitty: Item
              - file: lists.csv
                entity: ShoppingList
                onConflict: merge
            rejectz: r.jsonl
            """)
        #expect(
            problems == [
                "plan.yaml:1:12 (batchSize): expected a whole number, found 'lots'",
                "plan.yaml:3:5 (sources[0].entity): missing key 'entity' (the entity its records become)",
                "plan.yaml:4:5 (sources[0].entitty): unknown key 'entitty'; did you mean 'entity'?",
                "plan.yaml:7:17 (sources[1].onConflict): onConflict must be one of update, keep, fail, not 'merge'",
                "plan.yaml:8:1 (rejectz): unknown key 'rejectz'; did you mean 'rejects'?",
            ])
    }

    @Test func stopsAtAnAliasBomb() throws {
        // Each level's nested mapping holds the previous level ten times: 10^6 mappings to walk.
        var lines = ["n0: &n0 {entity: Tag}"]
        for level in 1...6 {
            let uses = (0..<10).map { "r\($0): {nested: *n\(level - 1)}" }.joined(separator: ", ")
            lines.append("n\(level): &n\(level) {entity: Tag, relationships: {\(uses)}}")
        }
        lines.append("sources: [{file: a.json, entity: Item, relationships: {tags: {nested: *n6}}}]")
        let error = try #require(throws: PlanErrors.self) {
            try PlanFile.parse(
                lines.joined(separator: "\n"), syntax: .yaml, source: "plan.yaml", baseDirectory: ".", nodeBudget: 5_000
            )
        }
        #expect(
            error.errors.last?.description
                == "plan.yaml: the plan is too large (more than 5000 values, aliases expanded)")
    }

    @Test func describesErrorsListsAsOneLineEach() {
        let errors = PlanErrors([
            PlanError(file: "plan.yaml", position: PlanPosition(line: 2, column: 3), keyPath: "sources", message: "a"),
            PlanError(file: "plan.yaml", message: "b"),
        ])
        #expect(errors.description == "plan.yaml:2:3 (sources): a\nplan.yaml: b")
    }
}
