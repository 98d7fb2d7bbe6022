// CSVWindowRow: the fast path of CSVReader — a row that lies wholly inside the input window.
//
// One pass over the window finds every delimiter, quote and line end (ByteStops) and records
// the fields as ranges of the row's own bytes, which then go into the record's storage with a
// single copy: no per-field copying, and the UTF-8 check only runs when a word read held a
// non-ASCII byte. A quoted field with doubled quotes is the one value that differs from its
// source bytes: it is unescaped into the builder's bytes, which the storage appends after the
// row's. Anything else out of the ordinary — a row reaching the last bytes of the window, a
// quote inside an unquoted field (data unless `strict`: rare, and checking for it here would
// slow every row), a syntax or UTF-8 error, a wrong field count, a limit crossed — abandons the
// fast path with the reader unchanged, and CSVRowScanner reads the row (or reports its error)
// the byte-exact way, so both paths give the same records, positions and errors.

private let carriageReturn = UInt8(ascii: "\r")
private let lineFeed = UInt8(ascii: "\n")

extension CSVReader {
    /// Where a row scanned in the window ends, and the line state after its line end.
    private struct WindowRow {
        /// Window indexes of the row's first byte and of its line end.
        let start: Int
        let end: Int
        /// The window index after the line end.
        let next: Int
        let line: Int
        let lineStart: Int
        let hasNonASCII: Bool
    }

    /// Reads the next row as a record when it lies wholly in the input window and reads
    /// without error; `nil` (with nothing consumed) otherwise.
    mutating func readRowInWindow() -> RecordStorage? {
        guard let row = scanRowInWindow() else {
            builder.reset()
            return nil
        }
        let fieldCount = builder.nodeCount - 1
        let base = input.base
        let length = row.end - row.start
        // Conservative (the span holds delimiters and quotes too); keeps value ranges in Int32.
        guard length + builder.byteCount <= limits.maxRecordSize,
            dialect.allowRagged || fieldCount == (expectedFieldCount ?? fieldCount),
            !row.hasNonASCII || UTF8Validation.isValid(UnsafeBufferPointer(start: base + row.start, count: length))
        else {
            builder.reset()
            return nil
        }
        if builder.byteCount > 0 { placeUnescapedValues(after: length) }
        builder.close(0)
        let storage = builder.store(
            bytes: UnsafeBufferPointer(start: base + row.start, count: length),
            moreBytes: UnsafeBufferPointer(start: builder.bytes, count: builder.byteCount), context: context)
        builder.reset()
        input.position = row.next
        lines.line = row.line
        lines.lineStart = row.lineStart
        if expectedFieldCount == nil { expectedFieldCount = fieldCount }
        return storage
    }

    /// Appends the row and field nodes of the row at the current position to `builder`, with
    /// value ranges relative to the row's first byte (unescaped values: `~index` into the
    /// builder's bytes); `nil` when the row must be read by `readRow`.
    private mutating func scanRowInWindow() -> WindowRow? {
        let base = input.base
        let limit = input.limit
        let delimiter = dialect.delimiter
        var line = lines.line
        var lineStart = lines.lineStart
        var index = input.position
        while index < limit, base[index] == lineFeed || base[index] == carriageReturn {
            guard let length = lineEndLength(at: index) else { return nil }
            index += length
            line += 1
            lineStart = input.offset(of: index)
        }
        let rowStart = index
        builder.appendNode(
            Node(
                kind: .row, line: Int32(truncatingIfNeeded: line),
                column: Int32(truncatingIfNeeded: input.offset(of: index) - lineStart + 1),
                offset: input.offset(of: index)),
            isLeaf: false)
        var stops = ByteStops(
            delimiter, dialect.quote ?? lineFeed, carriageReturn, lineFeed, in: base, from: index, to: limit)
        while true {
            let fieldLine = line
            let fieldColumn = input.offset(of: index) - lineStart + 1
            var field = Node(
                kind: .field, line: Int32(truncatingIfNeeded: fieldLine),
                column: Int32(truncatingIfNeeded: fieldColumn), offset: input.offset(of: index))
            let stop: Int
            if let quote = dialect.quote, index < limit, base[index] == quote {
                guard stops.next() == index else { return nil }  // the opening quote
                field.flags = Node.quotedFlag
                var segment = index + 1
                var unescapedStart: Int?
                while true {
                    guard let found = stops.next() else { return nil }
                    let byte = base[found]
                    if byte == quote {
                        // The next byte must be a stop: a quote (doubled) or the field's end.
                        guard let after = stops.next(), after == found + 1 else { return nil }
                        guard base[after] == quote else {
                            stop = after
                            break
                        }
                        if unescapedStart == nil { unescapedStart = builder.byteCount }
                        builder.append(base + segment, count: after - segment)
                        segment = after + 1
                    } else if byte != delimiter {  // a line end inside the quotes is data
                        guard let length = lineEndLength(at: found) else { return nil }
                        if length == 2, stops.next() != found + 1 { return nil }
                        line += 1
                        lineStart = input.offset(of: found + length)
                    }
                }
                let closingQuote = stop - 1
                if let unescapedStart {
                    builder.append(base + segment, count: closingQuote - segment)
                    field.valueStart = ~Int32(truncatingIfNeeded: unescapedStart)
                    field.valueCount = Int32(truncatingIfNeeded: builder.byteCount - unescapedStart)
                } else {
                    field.valueStart = Int32(truncatingIfNeeded: segment - rowStart)
                    field.valueCount = Int32(truncatingIfNeeded: closingQuote - segment)
                }
            } else {
                guard let found = stops.next(), base[found] != dialect.quote else { return nil }
                stop = found
                field.valueStart = Int32(truncatingIfNeeded: index - rowStart)
                field.valueCount = Int32(truncatingIfNeeded: found - index)
            }
            guard Int(field.valueCount) <= limits.maxFieldSize else { return nil }
            builder.appendNode(field)
            guard builder.nodeCount - 1 <= limits.maxValuesPerRecord else { return nil }
            if base[stop] == delimiter {
                index = stop + 1
                continue
            }
            guard let length = lineEndLength(at: stop) else { return nil }
            return WindowRow(
                start: rowStart, end: stop, next: stop + length, line: line + 1,
                lineStart: input.offset(of: stop + length), hasNonASCII: stops.sawNonASCII)
        }
    }

    /// The length of the line end (CR, LF or CRLF) at window index `index`, or `nil` for a CR
    /// in the window's last byte.
    @inline(__always)
    private func lineEndLength(at index: Int) -> Int? {
        guard input.base[index] == carriageReturn else { return 1 }
        guard index + 1 < input.limit else { return nil }
        return input.base[index + 1] == lineFeed ? 2 : 1
    }

    /// Turns the `~index` value starts of unescaped values into positions after the row's
    /// `rowLength` bytes, where the storage puts the builder's bytes.
    private mutating func placeUnescapedValues(after rowLength: Int) {
        for index in 1..<builder.nodeCount where builder.nodes[index].valueStart < 0 {
            builder.nodes[index].valueStart = Int32(truncatingIfNeeded: rowLength) + ~builder.nodes[index].valueStart
        }
    }
}
