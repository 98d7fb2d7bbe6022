// `seedkit diff A B [--json]`: object-graph differences by unique keys; exit 0 when the stores
// are equal, 1 when not.
import ArgumentParser
import DeepCopy
import Foundation
import GraphStore

/// Compares two stores.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two stores' object graphs by unique keys (exit 0 when equal, 1 when not).")

    @Argument(help: "The first store (A).")
    var first: String

    @Argument(help: "The second store (B).")
    var second: String

    @Option(help: "How many differences to print.")
    var limit = 20

    @Flag(help: "Print {\"equal\": …, \"differences\": […]} as JSON on standard output.")
    var json = false

    struct Report: Encodable {
        var equal: Bool
        var differences: [String]
    }

    func run() throws {
        let differences: [String]
        do {
            var readOnly = StoreOptions()
            readOnly.readOnly = true
            differences = try StoreDiff(
                try PersistentStore.open(at: first, options: readOnly),
                try PersistentStore.open(at: second, options: readOnly)
            ).differences()
        } catch {
            throw DataFailure.exit("\(error)")
        }
        if json {
            try JSONOutput.print(Report(equal: differences.isEmpty, differences: differences))
        } else {
            for line in differences.prefix(limit) { print(line) }
            if differences.count > limit { print("… \(differences.count - limit) more") }
        }
        if !differences.isEmpty {
            throw DataFailure.exit(
                "the stores differ (\(differences.count) difference\(differences.count == 1 ? "" : "s"))")
        }
    }
}
