// MemoryCommand: checks that reading a large generated file keeps memory flat. For each
// format it writes a catalog of --items items (more with --min-bytes, until the file holds
// that many bytes), reads it while sampling the resident set size every 10,000 records (every
// 1 % of them in smaller files), and
// prints the file size, record count, reading time and peak RSS while reading (VmHWM, reset
// once the file is written, so the generator's memory is not counted). It fails if RSS grows
// by more than 16 MiB after the first 10 % of the records (the reader's buffers are sized by
// then; anything later would be a leak or unbounded buffering), or if the peak exceeds
// --max-rss MB (default 50, the target of docs/Readers.md). The file is deleted afterwards.

import ArgumentParser
import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

struct MemoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory", abstract: "Check that reading a large generated file keeps memory flat.")

    @Option(help: "The format to check, or all.")
    var format = FormatChoice(argument: "all")!

    @Option(help: "How many items to write (default 1,000,000; 0 with --min-bytes).")
    var items: Int?

    @Option(help: "Write items until the file holds this many bytes: 1200000000, 1.2G, 1GiB, 500M …")
    var minBytes = ByteSize(bytes: 0)

    @Option(help: "The folder of the generated file (deleted afterwards).")
    var dir = "/tmp"

    @Option(help: "The largest peak resident set allowed while reading, in MB.")
    var maxRss = 50

    func run() throws {
        let items = self.items ?? (minBytes.bytes > 0 ? 0 : 1_000_000)
        let maxPeak = maxRss * 1_000_000
        var failures = 0
        for format in format.formats {
            let path = "\(dir)/seedkit-memory-\(getpid()).\(format.rawValue)"
            defer { unlink(path) }
            let writeStart = now()
            let written: Int
            do {
                written = try CatalogWriter.writeItems(
                    format: format, items: items, minBytes: minBytes.bytes, seed: 1, to: path)
            } catch {
                printError("seedkit-fuzz: \(error)")
                throw ExitCode(1)
            }
            let fileSize = Self.fileSize(path)
            print(
                "\(format): wrote \(path): \(Self.grouped(fileSize)) bytes (\(Self.gigabytes(fileSize)) GB), "
                    + "\(Self.grouped(written)) items in \(format3(now() - writeStart)) s")
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
                    "\(format): read \(Self.grouped(reader.recordsRead)) records, \(Self.grouped(reader.bytesConsumed)) bytes "
                        + "in \(format3(seconds)) s (\(megabytesPerSecond) MB/s); "
                        + "peak RSS \(Self.megabytes(peak)) MB (\(MemoryUsage.mebibytes(peak)) MiB"
                        + (peakResets ? ", VmHWM while reading" : ", sampled") + "), "
                        + "RSS \(MemoryUsage.mebibytes(baseline)) MiB after 10 %, growth \(growth >> 10) KiB later: "
                        + (passed ? "flat" : flat ? "over \(maxPeak / 1_000_000) MB" : "GROWS")
                )
            } catch {
                printError("seedkit-fuzz: \(error)")
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
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
