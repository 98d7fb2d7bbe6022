// Output options shared by the commands that report: `--json` and `--quiet`.
import ArgumentParser

/// How a command reports.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print a machine-readable JSON report on standard output.")
    var json = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false
}
