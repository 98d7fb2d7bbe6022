// `seedkit diff A B [--limit N] [--json]`: object-graph differences by unique keys, the first N
// of them (the comparison stops there, in bounded memory); exit 0 when the stores are equal, 1
// when not.
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

    @Option(help: "How many differences to print; the comparison stops after them.")
    var limit = 20

    @Flag(help: "Print {\"equal\": …, \"differences\": […], \"complete\": …} as JSON on standard output.")
    var json = false

    @OptionGroup var reading: StoreReadOptions

    /// The `--json` report: the differences found (at most `--limit`), and whether they are all.
    struct Report: Encodable {
        var equal: Bool
        var differences: [String]
        var complete: Bool
    }

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let found: [String]
        do {
            found = try StoreDiff(
                try PersistentStore.open(at: first, options: reading.storeOptions),
                try PersistentStore.open(at: second, options: reading.storeOptions)
            ).differences(limit: limit + 1)
        } catch {
            throw DataFailure.exit("\(error)")
        }
        let shown = Array(found.prefix(limit))
        let complete = found.count <= limit
        if json {
            try JSONOutput.print(Report(equal: found.isEmpty, differences: shown, complete: complete))
        } else {
            for line in shown { print(line) }
            if !complete { print("… more (stopped after \(limit); --limit N shows more)") }
        }
        if !complete {
            throw DataFailure.exit("the stores differ (more than \(counted(limit, "difference")))")
        } else if !found.isEmpty {
            throw DataFailure.exit("the stores differ (\(counted(found.count, "difference")))")
        }
    }
}
