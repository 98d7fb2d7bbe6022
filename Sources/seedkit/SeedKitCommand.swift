// The `seedkit` command-line tool: the root command and its subcommands.
// Exit codes (DESIGN §8): 0 success, 1 data or validation failure, 2 usage error.
import ArgumentParser

@main
struct SeedKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedkit",
        abstract: "Bulk data into a Core Data–style object store, and object graphs between stores.",
        version: SeedKitVersion.current,
        subcommands: [
            ImportCommand.self,
            ModelCommand.self,
            CheckCommand.self,
        ]
    )
}
