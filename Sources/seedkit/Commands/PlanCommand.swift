// `seedkit plan`: commands that help write plans — `plan infer` drafts one from sample files,
// `plan explain` prints the mapping a plan will use, `plan schema` prints the JSON Schema
// editors check plans with (docs/CLI.md).
import ArgumentParser

/// The group of plan-writing commands.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract:
            "Help write plans: draft one from sample files, explain the mapping a plan will use, or print the "
            + "plan file's JSON Schema.",
        subcommands: [PlanInferCommand.self, PlanExplainCommand.self, PlanSchemaCommand.self])
}
