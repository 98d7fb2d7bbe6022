// MemoryCommand: checks that reading a large generated file keeps memory flat. For each
// format it writes a catalog of --items items, reads it while sampling the resident set size
// every 10,000 records, and fails if RSS grows by more than 16 MiB after the first 10 % of
// the records (the reader's buffers are sized by then; anything later would be a leak or
// unbounded buffering).

import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

enum MemoryCommand {
    static func run(_ arguments: Arguments) -> Int32 {
        guard let formats = arguments.formats() else {
            printError("unknown --format")
            return 2
        }
        let items = arguments.int("items", 1_000_000)
        let directory = arguments.string("dir") ?? "/tmp"
        var failures = 0
        for format in formats {
            let path = "\(directory)/seedkit-memory-\(getpid()).\(format.rawValue)"
            defer { unlink(path) }
            guard CatalogGenerator.write(format: format, items: items, to: path) else {
                printError("cannot write \(path)")
                return 1
            }
            let records = format == .json ? "items[*]" : format == .xml ? "catalog/item" : nil
            do {
                var reader = try RecordReaderFactory.open(
                    .file(path), format: format, options: ReaderOptions(records: records))
                var baseline = 0
                var peak = 0
                while try reader.next() != nil {
                    guard reader.recordsRead % 10_000 == 0 else { continue }
                    let rss = residentBytes()
                    if reader.recordsRead <= items / 10 { baseline = max(baseline, rss) } else { peak = max(peak, rss) }
                }
                let growth = max(peak - baseline, 0)
                let passed = growth <= 16 << 20 && reader.recordsRead == items
                if !passed { failures += 1 }
                print(
                    "\(format): \(reader.recordsRead) records, \(reader.bytesConsumed >> 20) MiB; RSS \(baseline >> 20) MiB after 10 %, peak \(max(peak, baseline) >> 20) MiB later, growth \(growth >> 10) KiB: \(passed ? "flat" : "GROWS")"
                )
            } catch {
                printError("seedkit-fuzz: \(error)")
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }

    /// The resident set size of this process, from /proc/self/statm.
    private static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0
        var resident = 0
        guard readStatm(file, &size, &resident) else { return 0 }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Reads the first two numbers of a statm line.
    private static func readStatm(_ file: UnsafeMutablePointer<FILE>, _ size: inout Int, _ resident: inout Int) -> Bool
    {
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), file) != nil else { return false }
        let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let first = Int(fields[0]), let second = Int(fields[1]) else { return false }
        size = first
        resident = second
        return true
    }
}
