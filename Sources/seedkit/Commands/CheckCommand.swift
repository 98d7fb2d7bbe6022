// `seedkit check`: streams a source file through its record reader without importing it
// (docs/CLI.md). Exit 0 with the record count when the file is well-formed; exit 1 with the
// first error's position on one stderr line when not; exit 2 on a usage error.
import ArgumentParser
import RecordReaders

/// Checks that a CSV, TSV, JSON, NDJSON or XML source file reads cleanly.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Stream a source file and report its record count, or its first error.",
        discussion: """
            Exits 0 and prints the number of records when the file is well-formed, or exits 1 \
            with the first error as file:line:column (byte offset, record number): reason.
            """
    )

    @Argument(help: "The source file to check.")
    var file: String

    @Option(help: "The file format: csv, tsv, json, ndjson or xml (default: from the file extension).")
    var format: String?

    @Option(help: "The records path: JSON 'items[*]', XML 'catalog/item'.")
    var records: String?

    @Option(help: "The CSV field delimiter: one ASCII character, or 'tab'.")
    var delimiter: String?

    @Flag(help: "The CSV file has no header row (columns are #1, #2, …).")
    var noHeader = false

    @Flag(help: "Accept CSV rows with more or fewer fields than the header.")
    var allowRagged = false

    @Flag(help: "Print a JSON report: {\"records\": N, \"bytes\": B, \"seconds\": S}.")
    var json = false

    /// The `--json` report.
    struct Report: Encodable {
        var records: Int
        var bytes: Int
        var seconds: Double
    }

    func validate() throws {
        if let format, RecordFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("unknown format '\(format)': use csv, tsv, json, ndjson or xml")
        }
        if format == nil, RecordFormat(path: file) == nil {
            throw ValidationError("cannot tell the format of '\(file)' from its extension: use --format")
        }
        if let delimiter { _ = try delimiterByte(delimiter) }
    }

    func run() throws {
        let format = self.format.flatMap { RecordFormat(rawValue: $0.lowercased()) } ?? RecordFormat(path: file)
        var options = ReaderOptions(records: records)
        if format == .csv || format == .tsv {
            var dialect = format == .tsv ? CSVOptions.tsv : CSVOptions()
            if let delimiter { dialect.delimiter = try delimiterByte(delimiter) }
            dialect.hasHeader = !noHeader
            dialect.allowRagged = allowRagged
            options.csv = dialect
        }
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        var bytes = 0
        do {
            var reader = try RecordReaderFactory.open(.file(file), format: format, options: options)
            while try reader.next() != nil { count += 1 }
            bytes = reader.bytesConsumed
        } catch {
            throw DataFailure.exit(error.description)
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if json {
            try JSONOutput.print(Report(records: count, bytes: bytes, seconds: seconds))
        } else {
            print("\(file): \(counted(count, "record"))")
        }
    }

    private func delimiterByte(_ text: String) throws -> UInt8 {
        if text == "tab" || text == "\\t" { return UInt8(ascii: "\t") }
        guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, byte != 0x0A, byte != 0x0D else {
            throw ValidationError("the delimiter must be one ASCII character (or 'tab')")
        }
        return byte
    }
}
