// StoreMutator: seeded mutations of SQLite database files for the store fuzzer, aware of the
// file's structure so that mutants get past the first checks: header fields and b-tree page
// headers set to boundary values, page numbers and cell offsets pointing anywhere, pages zeroed,
// copied over one another or taken from another input, the file cut at a page boundary or
// anywhere, and plain bit flips and random runs.

/// Mutates database files with a seeded generator.
struct StoreMutator: SeededMutator {
    var random: SeededGenerator
    let maxLength = 1 << 20
    let mostMutations = 3

    /// The header fields of a database file worth breaking: offset and width in bytes (page
    /// size, format versions, reserved bytes, payload fractions, change counter, page count,
    /// freelist, schema cookie and format, cache size, vacuum root, encoding, user version,
    /// incremental vacuum, application id, version-valid-for, SQLite version).
    private static let headerFields: [(offset: Int, width: Int)] = [
        (16, 2), (18, 1), (19, 1), (20, 1), (21, 1), (22, 1), (23, 1), (24, 4), (28, 4), (32, 4), (36, 4),
        (40, 4), (44, 4), (48, 4), (52, 4), (56, 4), (60, 4), (64, 4), (68, 4), (92, 4), (96, 4),
    ]

    /// The fields of a b-tree page header: type, first freeblock, cell count, cell content
    /// start, fragmented bytes, right-most child.
    private static let pageHeaderFields: [(offset: Int, width: Int)] = [(0, 1), (1, 2), (3, 2), (5, 2), (7, 1), (8, 4)]

    /// The page size the header names (4096 when it names none that is valid).
    private func pageSize(of bytes: [UInt8]) -> Int {
        guard bytes.count >= 18 else { return 4096 }
        let size = Int(bytes[16]) << 8 | Int(bytes[17])
        if size == 1 { return 65536 }
        return size >= 512 && size & (size - 1) == 0 ? size : 4096
    }

    mutating func mutateOnce(_ bytes: inout [UInt8], other: [UInt8]) {
        guard !bytes.isEmpty else {
            bytes = Array(other.prefix(100))
            return
        }
        let pageSize = pageSize(of: bytes)
        let pages = max(1, (bytes.count + pageSize - 1) / pageSize)
        let page = below(pages)
        switch below(11) {
        case 0:
            bytes[below(bytes.count)] ^= UInt8(1) << UInt8(below(8))
        case 1:
            let field = Self.headerFields[below(Self.headerFields.count)]
            write(interestingValue(width: field.width, pages: pages, pageSize: pageSize), at: field.offset, in: &bytes)
        case 2, 3:
            let field = Self.pageHeaderFields[below(Self.pageHeaderFields.count)]
            let start = page * pageSize + (page == 0 ? 100 : 0)
            write(
                interestingValue(width: field.width, pages: pages, pageSize: pageSize), at: start + field.offset,
                in: &bytes)
        case 4:
            // A cell pointer or any two-byte offset inside a page.
            let at = page * pageSize + 8 + 2 * below(max(1, min(64, pageSize / 2)))
            write(interestingValue(width: 2, pages: pages, pageSize: pageSize), at: at, in: &bytes)
        case 5:
            // A page number (child, overflow, freelist trunk) anywhere.
            write(interestingValue(width: 4, pages: pages, pageSize: pageSize), at: below(bytes.count), in: &bytes)
        case 6:
            let cut = below(2) == 0 ? below(pages) * pageSize : below(bytes.count)
            bytes.removeLast(bytes.count - max(cut, 0))
        case 7:
            let start = page * pageSize
            bytes.replaceSubrange(
                start..<min(bytes.count, start + pageSize),
                with: [UInt8](repeating: 0, count: min(bytes.count, start + pageSize) - start))
        case 8:
            let from = below(pages) * pageSize
            let source = Array(bytes[from..<min(bytes.count, from + pageSize)])
            write(source, at: page * pageSize, in: &bytes)
        case 9 where other.count > pageSize:
            let from = below(other.count / pageSize) * pageSize
            write(Array(other[from..<min(other.count, from + pageSize)]), at: page * pageSize, in: &bytes)
        default:
            let start = below(bytes.count)
            write((0..<(1 + below(64))).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: start, in: &bytes)
        }
    }

    /// A boundary value of `width` bytes (big-endian): 0, 1, the largest, a page count or page
    /// size nearby, or random.
    private mutating func interestingValue(width: Int, pages: Int, pageSize: Int) -> [UInt8] {
        let largest = width >= 8 ? UInt64.max : (UInt64(1) << UInt64(width * 8)) - 1
        let candidates: [UInt64] = [
            0, 1, 2, largest, largest >> 1, UInt64(pages), UInt64(pages + 1), UInt64(pages) &* 1000,
            UInt64(pageSize), UInt64(pageSize - 1), UInt64(pageSize + 1), 13, random.next(),
        ]
        let value = candidates[below(candidates.count)] & largest
        return (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - $0))) }
    }

    /// Writes `values` over `bytes` from `offset` on, as far as `bytes` reaches.
    private func write(_ values: [UInt8], at offset: Int, in bytes: inout [UInt8]) {
        for (index, value) in values.enumerated() where offset + index < bytes.count && offset + index >= 0 {
            bytes[offset + index] = value
        }
    }
}
