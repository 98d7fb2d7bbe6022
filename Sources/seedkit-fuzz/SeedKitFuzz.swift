// seedkit-fuzz: robustness and performance harness for the RecordReaders module and for reading
// stores from elsewhere, and the generator of the benchmark catalog. See docs/Fuzzing.md.
// Exit status: 0 when nothing was found, 1 on a finding or failure, 2 on a usage error.
import ArgumentParser
import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

@main
struct SeedKitFuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedkit-fuzz",
        abstract: "Fuzz, measure and feed the record readers; fuzz store reading; generate the benchmark catalog.",
        subcommands: [
            FuzzCommand.self, ReplayCommand.self, StoreFuzzCommand.self, ReplayStoreCommand.self, BenchCommand.self,
            GenerateCommand.self, MemoryCommand.self, PropertyListFuzzCommand.self,
        ]
    )

    /// Runs the command; usage errors exit with 2 instead of ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}

/// `--format` of the commands that take several formats: one, or `all`.
struct FormatChoice: ExpressibleByArgument {
    /// The formats chosen.
    let formats: [RecordFormat]

    init?(argument: String) {
        if argument == "all" {
            formats = RecordFormat.allCases
        } else if let format = RecordFormat(rawValue: argument) {
            formats = [format]
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { RecordFormat.allCases.map(\.rawValue) + ["all"] }
}

extension RecordFormat: ExpressibleByArgument {}

/// A size in bytes: `1200000000`, `1.2G`, `1GiB`, `500MB`; K, M, G are powers of 1000, KiB,
/// MiB, GiB powers of 1024, the final B optional.
struct ByteSize: ExpressibleByArgument {
    /// The size in bytes.
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [(suffix: String, scale: Double)] = [
            ("GIB", 1_073_741_824), ("MIB", 1_048_576), ("KIB", 1024), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3),
            ("G", 1e9), ("M", 1e6), ("K", 1e3), ("B", 1),
        ]
        let upper = argument.uppercased()
        let unit = units.first { upper.hasSuffix($0.suffix) }
        guard let number = Double(upper.dropLast(unit?.suffix.count ?? 0)), number >= 0 else { return nil }
        let bytes = number * (unit?.scale ?? 1)
        guard bytes < 1e18 else { return nil }
        self.bytes = Int(bytes.rounded(.up))
    }

    var defaultValueDescription: String { String(bytes) }
}

/// Prints `message` on standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Seconds since an arbitrary start, for timing.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}
