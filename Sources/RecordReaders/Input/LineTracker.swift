// LineTracker: the current line number and the offset where it starts, for positions.
// Columns are computed as `offset - lineStart + 1`, in bytes.

/// Tracks line numbers while a parser consumes bytes.
struct LineTracker {
    /// The current 1-based line.
    var line = 1
    /// The file offset of the first byte of the current line.
    var lineStart = 0

    /// A line break ends just before `offset` (the first byte of the new line).
    @inline(__always)
    mutating func newLine(at offset: Int) {
        line += 1
        lineStart = offset
    }

    /// The 1-based column of `offset` on the current line.
    @inline(__always)
    func column(of offset: Int) -> Int { offset - lineStart + 1 }
}
