// MemoryCommand: checks that reading a large generated file keeps memory flat. For each
// format it writes a catalog of --items items (more with --min-bytes, until the file holds
// that many bytes), reads it while sampling the resident set size every 10,000 records (every
// 1 % of them in smaller files), and
// prints the file size, record count, reading time and peak RSS while reading (VmHWM, reset
// once the file is written, so the generator's memory is not counted). It fails if RSS grows
// by more than 16 MiB after the first 10 % of the records (the reader's buffers are sized by
// then; anything later would be a leak or unbounded buffering), or if the peak exceeds
// --max-rss MB (default 50, the target of docs/Readers.md). The file is deleted afterwards.

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
        guard let minBytes = arguments.byteCount("min-bytes", 0) else {
            printError("--min-bytes takes a size: 1200000000, 1.2G, 1GiB, 500M …")
            return 2
        }
        let items = arguments.int("items", minBytes > 0 ? 0 : 1_000_000)
        let directory = arguments.string("dir") ?? "/tmp"
        let maxPeak = arguments.int("max-rss", 50) * 1_000_000
        var failures = 0
        for format in formats {
            let path = "\(directory)/seedkit-memory-\(getpid()).\(format.rawValue)"
            defer { unlink(path) }
            let writeStart = now()
            guard let written = CatalogGenerator.write(format: format, items: items, minBytes: minBytes, to: path)
            else {
                printError("cannot write \(path)")
                return 1
            }
            let fileSize = self.fileSize(path)
            print(
                "\(format): wrote \(path): \(grouped(fileSize)) bytes (\(gigabytes(fileSize)) GB), "
                    + "\(grouped(written)) items in \(format3(now() - writeStart)) s")
            let records = format == .json ? "items[*]" : format == .xml ? "catalog/item" : nil
            do {
                let peakResets = MemoryUsage.resetPeak()
                let start = now()
                var reader = try RecordReaderFactory.open(
                    .file(path), format: format, options: ReaderOptions(records: records))
                let every = max(1, min(10_000, written / 100))
                var baseline = 0
                var later = 0
                while try reader.next() != nil {
                    guard reader.recordsRead % every == 0 else { continue }
                    let rss = MemoryUsage.residentBytes()
                    if reader.recordsRead <= written / 10 {
                        baseline = max(baseline, rss)
                    } else {
                        later = max(later, rss)
                    }
                }
                let seconds = now() - start
                let sampledPeak = max(baseline, later)
                let peak = peakResets ? max(MemoryUsage.peakResidentBytes(), sampledPeak) : sampledPeak
                let growth = max(later - baseline, 0)
                let flat = growth <= 16 << 20
                let passed = flat && peak <= maxPeak && reader.recordsRead == written
                if !passed { failures += 1 }
                let megabytesPerSecond = Int(Double(reader.bytesConsumed) / 1_000_000 / max(seconds, 1e-9))
                print(
                    "\(format): read \(grouped(reader.recordsRead)) records, \(grouped(reader.bytesConsumed)) bytes "
                        + "in \(format3(seconds)) s (\(megabytesPerSecond) MB/s); "
                        + "peak RSS \(megabytes(peak)) MB (\(MemoryUsage.mebibytes(peak)) MiB"
                        + (peakResets ? ", VmHWM while reading" : ", sampled") + "), "
                        + "RSS \(MemoryUsage.mebibytes(baseline)) MiB after 10 %, growth \(growth >> 10) KiB later: "
                        + (passed ? "flat" : flat ? "over \(maxPeak / 1_000_000) MB" : "GROWS")
                )
            } catch {
                printError("seedkit-fuzz: \(error)")
                failures += 1
            }
        }
        return failures == 0 ? 0 : 1
    }

    /// The size of the file at `path` in bytes (0 if unknown).
    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// `bytes` in GB (10^9) with two decimals.
    private static func gigabytes(_ bytes: Int) -> String {
        let hundredths = (bytes + 5_000_000) / 10_000_000
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100)." + String(repeating: "0", count: 2 - fraction.count) + fraction
    }

    /// `bytes` in MB (10^6) with one decimal.
    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `value` with thousands separators: `1,073,741,824`.
    private static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
