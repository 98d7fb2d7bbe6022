// The plan files' JSON Schema: the committed schemas/seedkit-plan.schema.json is PlanSchema.json
// byte for byte; it names exactly the keys the plan decoder allows; every plan in SeedData/ and in
// the docs (YAML blocks and here-documents, and the docs' attribute and relationship fragments)
// validates; a plan with an unknown key, a misspelt choice or a missing file does not; and the
// YAML forms the decoder accepts (5_000, 0x1388, yes/No/ON, one text for a list, null) pass.
import Foundation
import Testing
import Yams

@testable import SeedImport

@Suite struct PlanSchemaTests {
    static let repository = ImportFixture.repository

    static func validator() throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: try JSONValue(yaml: try #require(try Yams.compose(yaml: PlanSchema.json))))
    }

    static func problems(_ yaml: String, against validator: JSONSchemaValidator) throws -> [String] {
        try validator.problems(of: try JSONValue(yaml: try #require(try Yams.compose(yaml: yaml))))
    }

    @Test func theCommittedSchemaFileIsTheOneSeedkitPrints() throws {
        let file = try Data(contentsOf: Self.repository.appendingPathComponent("schemas/seedkit-plan.schema.json"))
        #expect(String(decoding: file, as: UTF8.self) == PlanSchema.json)
        // It is JSON, and says which draft it follows.
        let object = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func theSchemaNamesExactlyTheKeysTheDecoderAllows() throws {
        guard case .object(let schema) = try JSONValue(yaml: try #require(try Yams.compose(yaml: PlanSchema.json))),
            case .object(let definitions)? = schema["$defs"]
        else { throw SchemaError("no $defs") }
        func keys(_ value: JSONValue?) -> Set<String> {
            guard case .object(let object)? = value, case .object(let properties)? = object["properties"] else {
                return []
            }
            return Set(properties.keys)
        }
        func objectBranch(_ value: JSONValue?) -> JSONValue? {
            guard case .object(let object)? = value, case .array(let choices)? = object["anyOf"] else { return nil }
            return choices.first { keys($0) != [] }
        }
        #expect(keys(.object(schema)) == Set(PlanFileKeys.plan))
        guard case .object(let top)? = schema["properties"] else { throw SchemaError("no properties") }
        #expect(keys(top["seed"]) == Set(PlanFileKeys.seed))
        #expect(keys(definitions["source"]) == Set(PlanFileKeys.source))
        guard case .object(let source)? = definitions["source"], case .object(let sourceKeys)? = source["properties"]
        else { throw SchemaError("no source properties") }
        #expect(keys(sourceKeys["csv"]) == Set(PlanFileKeys.csv))
        #expect(keys(objectBranch(definitions["attributeMapping"])) == Set(PlanFileKeys.attribute))
        #expect(keys(objectBranch(definitions["relationshipMapping"])) == Set(PlanFileKeys.relationship))
        #expect(keys(definitions["nested"]) == Set(PlanFileKeys.recordMapping))
    }

    @Test func everyPlanInSeedDataValidates() throws {
        let validator = try Self.validator()
        let root = Self.repository.appendingPathComponent("SeedData")
        var plans = 0
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") || relative.hasSuffix(".json") else {
                continue
            }
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            guard case .object(let object)? = try? Yams.compose(yaml: text).map(JSONValue.init(yaml:)),
                object["sources"] != nil
            else { continue }
            plans += 1
            #expect(try Self.problems(text, against: validator) == [], "SeedData/\(relative)")
        }
        #expect(plans == 6)
    }

    @Test func everyPlanAndFragmentInTheDocsValidates() throws {
        let validator = try Self.validator()
        var checked: [String] = []
        for page in try Self.markdownPages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for (line, yaml) in Self.yamlSnippets(in: text) {
                let place = "\(page.lastPathComponent):\(line)"
                guard case .object(let object)? = try? Yams.compose(yaml: yaml).map(JSONValue.init(yaml:)) else {
                    continue
                }
                if object["sources"] != nil {
                    #expect(try Self.problems(yaml, against: validator) == [], "\(place)")
                    checked.append(place)
                } else if Set(object.keys).isSubset(of: ["attributes", "relationships"]) {
                    // A fragment: its entries are checked as a source's mappings would be.
                    let wrapped =
                        "sources:\n  - file: f.csv\n    entity: E\n"
                        + yaml.split(separator: "\n").map { "    " + $0 }
                        .joined(separator: "\n")
                    #expect(try Self.problems(wrapped, against: validator) == [], "\(place)")
                    checked.append(place)
                }
            }
        }
        // PlanFormat.md's full plan and its two fragments, CLI.md's export plan, Coercion.md's fragment.
        #expect(checked.count >= 5, "\(checked)")
    }

    @Test func unknownKeysMisspeltChoicesAndMissingFilesAreRefused() throws {
        let validator = try Self.validator()
        let cases: [(String, String)] = [
            ("model: m.yaml\nbatchsize: 10\n", "$: unknown key 'batchsize'"),
            ("sources:\n  - {file: a.csv, entity: A, atributes: {x: x}}\n", "$.sources[0]: unknown key 'atributes'"),
            (
                "sources:\n  - {file: a.csv, entity: A, attributes: {x: {field: x, trimm: true}}}\n",
                "$.sources[0].attributes.x: no alternative fits"
            ),
            (
                "sources:\n  - {file: a.csv, entity: A, csv: {delimter: ;}}\n",
                "$.sources[0].csv: unknown key 'delimter'"
            ),
            (
                "sources:\n  - file: a.json\n    entity: A\n    relationships:\n      b: {nested: {entity: B, keys: [x]}}\n",
                "$.sources[0].relationships.b: no alternative fits"
            ),
            ("onError: abourt\nsources: []\n", "$.onError: "),
            ("sources:\n  - {entity: A}\n", "$.sources[0]: missing file"),
            ("batchSize: many\nsources: []\n", "$.batchSize: no alternative fits"),
            (
                "sources:\n  - {file: a.csv, entity: A, csv: {header: maybe}}\n",
                "$.sources[0].csv.header: no alternative fits"
            ),
        ]
        for (plan, expected) in cases {
            let problems = try Self.problems(plan, against: validator)
            #expect(problems.count == 1 && problems[0].hasPrefix(expected), "\(plan): \(problems)")
        }
    }

    @Test func theYAMLFormsTheDecoderAcceptsPass() throws {
        let plan = """
            model: Catalog.yaml
            store:
            seed: {version: 1.10}
            batchSize: 5_000
            maxErrors: 0x10
            onError: skip
            rejects: rejects.jsonl
            sources:
              - file: items.csv
                format: csv
                csv: {delimiter: ";", quote: "", header: yes, allowRagged: OFF}
                entity: Item
                key: sku
                onConflict: keep
                attributes:
                  sku:
                  name: title
                  price: {field: price, default: 0, trim: on, null: [NULL, "-", 0]}
                  listed: {field: listed, true: [Y, 1], false: N}
                  added: {field: added, date: dd/MM/yyyy}
                  photo: {field: photo, binary: hex}
                  source: {value: 007}
                relationships:
                  unit: unit_name
                  location:
                  tags: {field: tags, split: ";", match: name, missing: create, members: replace}
                  shelf: {field: shelf, nested: {entity: Shelf, key: [code], attributes: {code: code}}}
            """
        #expect(try Self.problems(plan, against: try Self.validator()) == [])
        // The decoder reads it too (its model and files aside).
        #expect(throws: Never.self) {
            _ = try ImportPlan.parse(plan, syntax: .yaml, source: "p.yaml", baseDirectory: ".")
        }
    }

    /// README.md and docs/*.md.
    static func markdownPages() throws -> [URL] {
        let docs = repository.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .sorted()
        return [repository.appendingPathComponent("README.md")] + pages.map { docs.appendingPathComponent($0) }
    }

    /// The YAML of a page, with the line each starts on: ```yaml blocks, and here-documents written
    /// to a `.yaml` file in shell examples (`$ cat > plan.yaml <<'EOF'`, then `> ` lines).
    static func yamlSnippets(in page: String) -> [(line: Int, text: String)] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var snippets: [(Int, String)] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.trimmingCharacters(in: .whitespaces) == "```yaml" {
                let start = index + 1
                var end = start
                while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
                snippets.append((start + 1, lines[start..<end].joined(separator: "\n")))
                index = end
            } else if line.hasPrefix("$ cat > "), line.contains(".yaml <<'EOF'") {
                let start = index + 1
                var end = start
                while end < lines.count, lines[end] != "> EOF" { end += 1 }
                snippets.append((start + 1, lines[start..<end].map { String($0.dropFirst(2)) }.joined(separator: "\n")))
                index = end
            }
            index += 1
        }
        return snippets
    }
}
