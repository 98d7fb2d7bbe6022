// `seedkit plan schema`: prints the JSON Schema of plan files (schemas/seedkit-plan.schema.json),
// for editors that complete and check YAML and JSON (docs/PlanFormat.md, "Editors").
import ArgumentParser
import SeedImport

/// Prints the plan file's JSON Schema.
struct PlanSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of plan files.",
        discussion: """
            The same text as schemas/seedkit-plan.schema.json in SeedKit's repository. Point an \
            editor at it: in YAML, a first line `# yaml-language-server: $schema=PATH`.
            """)

    func run() {
        print(PlanSchema.json, terminator: "")
    }
}
