// `seedkit-fuzz bench`: reader throughput on a file (median of several runs).
import ArgumentParser
import RecordReaders

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Read every record of a file and print the median time and throughput.")

    @Argument(help: "The file to read.")
    var file: String

    @Option(help: "The file's format (default: from its name).")
    var format: RecordFormat?

    @Option(help: "The record path (JSON: items[*]; XML: catalog/item).")
    var records: String?

    @Option(help: "How many times to read the file.")
    var runs = 3

    @Flag(help: "Also read every field's bytes.")
    var touch = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
        let options = ReaderOptions(records: records)
        var times: [Double] = []
        var records = 0
        var bytes = 0
        for _ in 0..<runs {
            let start = now()
            do {
                var reader = try RecordReaderFactory.open(.file(file), format: format, options: options)
                var checksum = 0
                while let record = try reader.next() {
                    if touch {
                        for field in record.fields { checksum &+= field.withUTF8 { $0.count } }
                    }
                }
                records = reader.recordsRead
                bytes = reader.bytesConsumed
                if checksum == -1 { print(checksum) }
            } catch {
                printError("seedkit-fuzz: \(error)")
                throw ExitCode(1)
            }
            times.append(now() - start)
        }
        let median = times.sorted()[times.count / 2]
        let megabytes = Double(bytes) / 1_048_576
        print(
            "\(file): \(records) records, \(Int(megabytes)) MiB, median \(format3(median)) s of \(times.count) runs (\(Int(megabytes / median)) MiB/s, \(Int(Double(records) / median)) records/s)"
        )
    }
}

/// `value` with three decimals.
func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
