// BenchCommand and GenerateCommand: reader throughput on a file (median of several runs),
// and the catalog data sets to measure it on.

import RecordReaders

enum BenchCommand {
    /// `bench FILE [--format F] [--records PATH] [--runs N] [--touch]`: reads every record
    /// (with `--touch`, also every field's bytes) and prints the median time and throughput.
    static func run(_ arguments: Arguments) -> Int32 {
        guard let file = arguments.positional.first else {
            printError("usage: seedkit-fuzz bench FILE [--format F] [--records PATH] [--runs N] [--touch]")
            return 2
        }
        let format = arguments.string("format").flatMap(RecordFormat.init(rawValue:))
        let options = ReaderOptions(records: arguments.string("records"))
        let touch = arguments.string("touch") != nil
        var times: [Double] = []
        var records = 0
        var bytes = 0
        for _ in 0..<max(arguments.int("runs", 3), 1) {
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
                return 1
            }
            times.append(now() - start)
        }
        let median = times.sorted()[times.count / 2]
        let megabytes = Double(bytes) / 1_048_576
        print(
            "\(file): \(records) records, \(Int(megabytes)) MiB, median \(format3(median)) s of \(times.count) runs (\(Int(megabytes / median)) MiB/s, \(Int(Double(records) / median)) records/s)"
        )
        return 0
    }
}

enum GenerateCommand {
    /// `generate --format F --items N -o FILE`: writes a catalog data set.
    static func run(_ arguments: Arguments) -> Int32 {
        guard let name = arguments.string("format"), let format = RecordFormat(rawValue: name),
            let path = arguments.string("o") ?? arguments.string("output")
        else {
            printError("usage: seedkit-fuzz generate --format csv|tsv|json|ndjson|xml --items N -o FILE")
            return 2
        }
        return CatalogGenerator.write(format: format, items: arguments.int("items", 1_000_000), to: path) ? 0 : 1
    }
}

/// `value` with three decimals.
func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
