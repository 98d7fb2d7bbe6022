// `seedkit check`: streams a source file through its record reader without importing it
// (docs/CLI.md). Exit 0 with the record count when the file is well-formed; exit 1 when not:
// every broken record the reader skipped (CSV rows) on its own stderr line (the first
// --max-errors of them) and their count, or the error that ended reading; exit 2 on a usage
// error.
import ArgumentParser
import RecordReaders

/// Checks that a CSV, TSV, JSON, NDJSON or XML source file (or its gzip) reads cleanly.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Stream a source file and report its record count, or its broken records and errors.",
        discussion: """
            Exits 0 and prints the number of records when the file is well-formed. Otherwise \
            exits 1: each broken CSV record (which an import with onError: skip rejects) as \
            file:line:column (byte offset, record number): reason, then their count; or the error \
            that ended reading. A .gz file is read inflated.
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

    @Flag(help: "Refuse a quote inside an unquoted CSV field (by default it is a character).")
    var strict = false

    @Option(help: "List at most this many broken records (all are counted).")
    var maxErrors = 20

    @Flag(help: "Print a JSON report: {\"records\", \"broken\", \"errors\", \"bytes\", \"seconds\"}.")
    var json = false

    /// The `--json` report.
    struct Report: Encodable {
        var records: Int
        var broken: Int
        var errors: [BrokenRecordLine]
        var bytes: Int
        var seconds: Double
    }

    /// One broken record of the `--json` report.
    struct BrokenRecordLine: Encodable {
        var line: Int
        var column: Int
        var byteOffset: Int
        var record: Int
        var reason: String
        var raw: String

        init(_ error: RecordReaderError) {
            line = error.line
            column = error.column
            byteOffset = error.byteOffset
            record = error.recordNumber
            reason = error.reason
            raw = error.brokenRecord?.text ?? ""
        }
    }

    func validate() throws {
        if let format, RecordFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("unknown format '\(format)': use csv, tsv, json, ndjson or xml")
        }
        if format == nil, RecordFormat(path: file) == nil {
            throw ValidationError("cannot tell the format of '\(file)' from its extension: use --format")
        }
        if let delimiter { _ = try delimiterByte(delimiter) }
        if maxErrors < 0 { throw ValidationError("--max-errors must be 0 or more") }
    }

    func run() throws {
        let format = self.format.flatMap { RecordFormat(rawValue: $0.lowercased()) } ?? RecordFormat(path: file)
        // Checking does almost nothing with each record, so a parsing thread ahead of it would
        // only add the hand-over between threads.
        var options = ReaderOptions(records: records, readAhead: false)
        if format?.isTabular == true {
            var dialect = format == .tsv ? CSVOptions.tsv : CSVOptions()
            if let delimiter { dialect.delimiter = try delimiterByte(delimiter) }
            dialect.hasHeader = !noHeader
            dialect.allowRagged = allowRagged
            dialect.strict = strict
            options.csv = dialect
        }
        let clock = ContinuousClock()
        let start = clock.now
        var report = Report(records: 0, broken: 0, errors: [], bytes: 0, seconds: 0)
        do {
            var reader = try RecordReaderFactory.open(.file(file), format: format, options: options)
            while let result = try reader.nextResult() {
                switch result {
                case .success:
                    report.records += 1
                case .failure(let broken):
                    report.broken += 1
                    guard report.errors.count < maxErrors else { continue }
                    report.errors.append(BrokenRecordLine(broken))
                    if !json { DataFailure.report(broken.description) }
                }
            }
            report.bytes = reader.bytesConsumed
        } catch {
            throw DataFailure.exit(error.description)
        }
        let elapsed = clock.now - start
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if json {
            try JSONOutput.print(report)
        } else if report.broken == 0 {
            print("\(file): \(counted(report.records, "record"))")
        }
        if report.broken > 0 {
            let listed = report.broken > maxErrors ? " (the first \(maxErrors) listed)" : ""
            throw DataFailure.exit(
                "\(file): \(counted(report.broken, "broken record"))\(listed), \(counted(report.records, "record")) read"
            )
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
