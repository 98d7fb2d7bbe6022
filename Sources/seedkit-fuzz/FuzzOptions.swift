// FuzzOptions: the reader options for one fuzz input, and how its bytes reach the reader (as
// they are, gzip-compressed, or gzip-compressed with a corrupted byte), derived from a hash of
// its bytes so a saved finding replays with exactly the options that produced it.

import RecordReaders

enum FuzzOptions {
    /// Options (records path, sometimes tiny limits, a CSV dialect, strict or lenient quotes)
    /// and the small chunk size for reading `input` as `format`.
    static func derive(for input: [UInt8], format: RecordFormat) -> (ReaderOptions, Int) {
        var random = generator(for: input)
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        var options = ReaderOptions(records: Seeds.recordsPath(for: format, variant: below(8)))
        if below(4) == 0 {
            options.limits = ReaderLimits(
                maxFieldSize: 8 + below(64), maxRecordSize: 64 + below(512), maxValuesPerRecord: 4 + below(64),
                maxDepth: 2 + below(16))
        }
        if format.isTabular, below(3) == 0 {
            options.csv = CSVOptions(
                delimiter: format == .tsv ? 9 : 44, hasHeader: below(2) == 0, allowRagged: below(2) == 0,
                strict: below(2) == 0)
        }
        return (options, 1 + below(7))
    }

    /// How the bytes of `input` reach the reader.
    enum Encoding: Equatable {
        /// As they are.
        case plain
        /// Gzip-compressed: the reading must equal the plain one.
        case gzip
        /// Gzip-compressed, then the byte at `index` (modulo the compressed size) XOR-ed with `mask`.
        case corruptGzip(index: Int, mask: UInt8)
    }

    /// The encoding for `input`: plain five times in six, else gzip, clean or corrupted.
    static func encoding(for input: [UInt8]) -> Encoding {
        var random = generator(for: input)
        for _ in 0..<16 { _ = random.next() }  // apart from the draws of `derive`
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return .gzip
        case 1:
            return .corruptGzip(
                index: Int.random(in: 0..<4096, using: &random), mask: .random(in: 1...255, using: &random))
        default: return .plain
        }
    }

    /// The bytes a reader reads for `input` under `encoding`.
    static func encode(_ input: [UInt8], _ encoding: Encoding) -> [UInt8] {
        switch encoding {
        case .plain:
            return input
        case .gzip:
            return GzipCompression.compress(input) ?? input
        case .corruptGzip(let index, let mask):
            guard var compressed = GzipCompression.compress(input) else { return input }
            compressed[index % compressed.count] ^= mask
            return compressed
        }
    }

    /// A generator seeded with the FNV-1a hash of `input`.
    private static func generator(for input: [UInt8]) -> SeededGenerator {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in input { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return SeededGenerator(seed: hash)
    }
}
