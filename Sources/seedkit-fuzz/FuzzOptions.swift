// FuzzOptions: the reader options for one fuzz input, derived from a hash of its bytes so a
// saved finding replays with exactly the options that produced it.

import RecordReaders

enum FuzzOptions {
    /// Options (records path, sometimes tiny limits, a CSV dialect) and the small chunk size
    /// for reading `input` as `format`.
    static func derive(for input: [UInt8], format: RecordFormat) -> (ReaderOptions, Int) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in input { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var random = SeededGenerator(seed: hash)
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        var options = ReaderOptions(records: Seeds.recordsPath(for: format, variant: below(8)))
        if below(4) == 0 {
            options.limits = ReaderLimits(
                maxFieldSize: 8 + below(64), maxRecordSize: 64 + below(512), maxValuesPerRecord: 4 + below(64),
                maxDepth: 2 + below(16))
        }
        if format == .csv || format == .tsv, below(3) == 0 {
            options.csv = CSVOptions(
                delimiter: format == .tsv ? 9 : 44, hasHeader: below(2) == 0, allowRagged: below(2) == 0)
        }
        return (options, 1 + below(7))
    }
}
