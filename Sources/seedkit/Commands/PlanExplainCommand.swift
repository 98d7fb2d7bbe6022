// `seedkit plan explain PLAN`: prints the mapping each source of a plan will use once the
// model's conventions are applied, and where each part comes from (docs/CLI.md).
import ArgumentParser
import SeedImport

/// Prints a plan's effective mapping.
struct PlanExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Print the mapping each source of a plan will use, and where each part comes from.",
        discussion: """
            For each source: the key, each attribute's field(s) and date format, each \
            relationship's field(s), match, missing policy and nested records, each marked \
            (plan), (model: …) for the model's userInfo, or (default: …); then what convention \
            mapping leaves out (fields a CSV header lacks, attributes no codec builds). Nothing \
            is written; the sources' headers are read.
            """)

    @Argument(help: "The plan file (YAML or JSON).")
    var plan: String

    @Option(help: "A store to take the model from when the plan names none.")
    var store: String?

    func run() throws {
        let explanation: PlanExplanation
        do {
            explanation = try PlanExplanation(try ValidatedPlan(file: plan, store: store))
        } catch {
            throw DataFailure.exit("\(error)")
        }
        print(explanation.text, terminator: "")
    }
}
