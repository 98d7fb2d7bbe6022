// CSVRowScanner: the byte-exact path of CSVReader — scans one row into the record builder.
// It reads the header, the rows the in-window fast path (CSVWindowRow) leaves to it, and
// every row with an error, so it alone words errors and recovers from broken rows.
//
// Unquoted fields are copied span by span between stop bytes (delimiter, quote, CR, LF)
// found eight bytes at a time (ByteScanner); a quote inside one is data (with `strict`, the
// row's first error). Quoted fields are copied between quotes, a doubled quote becoming one.
// A field or row may cross any number of chunk boundaries: spans are appended as they are
// found and scanning resumes after a refill. Errors point at the offending byte (quote in an
// unquoted field, text after a closing quote), the opening quote (unterminated quote), the
// first extra field or the row's end (field count), the field (size, UTF-8).
//
// Recovery (docs/Readers.md): the input keeps the row's bytes from its first byte while it
// is scanned. A row that reads to its end but is refused (field count, UTF-8, a quote under
// `strict`) is one broken record up to its line end. A row whose quotes do not pair up (text
// after a closing quote, a quoted field open at the end of the input, or too long after a
// line break) is a broken record up to the end of the line where that quoted field opens, and
// reading resumes on the next line, so lines a stray quote swallowed are read again. Both are
// thrown with the record (`RecordReaderError.brokenRecord`) once the reader stands after it.

private let carriageReturn = UInt8(ascii: "\r")
private let lineFeed = UInt8(ascii: "\n")

extension CSVReader {
    /// Reads the next non-blank row into `builder`; `false` at the end of the input. A broken
    /// row is thrown as a recoverable error once the input stands after it.
    mutating func readRow(recordNumber: Int) throws(RecordReaderError) -> Bool {
        while true {
            guard let byte = try input.peek() else { return false }
            guard byte == lineFeed || byte == carriageReturn else { break }
            try consumeLineEnd()
        }
        let start = RowStart(
            line: lines.line, lineStart: lines.lineStart, offset: input.offset, recordNumber: recordNumber)
        input.retain(from: start.offset)
        defer { input.releaseRetained() }
        openQuotedField = nil
        strictQuoteError = nil
        builder.appendNode(
            Node(
                kind: .row, line: Int32(start.line), column: Int32(lines.column(of: start.offset)),
                offset: start.offset), isLeaf: false)
        let end: RowEnd
        do {
            end = try readFields(recordNumber: recordNumber)
        } catch {
            throw try brokenByQuotes(error, start: start)
        }
        builder.close(0)
        if let error = strictQuoteError ?? fieldCountError(recordNumber: recordNumber, end: end)
            ?? utf8Error(recordNumber: recordNumber)
        {
            throw broken(error, start: start, end: end.offset)
        }
        return true
    }

    /// Where a row starts: its line state and offset, and its record number.
    private struct RowStart {
        let line: Int
        let lineStart: Int
        let offset: Int
        let recordNumber: Int
    }

    /// Where a row's last field ends: its line end, or the end of the input.
    private struct RowEnd {
        let line: Int
        let column: Int
        let offset: Int
    }

    /// Reads the fields of the row up to and past its line end; returns where the last one ends.
    private mutating func readFields(recordNumber: Int) throws(RecordReaderError) -> RowEnd {
        while true {
            let terminator = try readField(recordNumber: recordNumber)
            if builder.nodeCount - 1 > limits.maxValuesPerRecord {  // the row node is not a value
                throw error(
                    .limit, "more than \(limits.maxValuesPerRecord) fields in a row", at: builder.nodes[0],
                    recordNumber: recordNumber)
            }
            if terminator == dialect.delimiter {
                input.position += 1
                continue
            }
            let end = RowEnd(line: lines.line, column: lines.column(of: input.offset), offset: input.offset)
            if terminator != nil { try consumeLineEnd() }
            return end
        }
    }

    /// `error` as a broken row whose quotes do not pair up, with the input moved to the line
    /// after the one where the quoted field that failed opens; or `error` itself when reading
    /// cannot go on (I/O, and limits crossed outside a quoted field with a line break). A field
    /// that spans lines breaks at its opening quote ("unterminated quoted field", or the size
    /// limit it grew past), so the error lies in the broken row's text.
    private mutating func brokenByQuotes(_ error: RecordReaderError, start: RowStart) throws(RecordReaderError)
        -> RecordReaderError
    {
        guard let field = openQuotedField, error.kind == .syntax || (error.kind == .limit && field.lineBreak != nil)
        else { return error }
        var reported = error
        let end: Int
        if let lineBreak = field.lineBreak {
            input.rewind(to: lineBreak)
            end = lineBreak
            lines.line = field.line
            lines.lineStart = field.offset - field.column + 1
            if error.kind == .syntax {
                reported = RecordReaderError(
                    .syntax, "unterminated quoted field", file: input.name, line: field.line, column: field.column,
                    byteOffset: field.offset, recordNumber: start.recordNumber)
            }
        } else {
            end = try skipToLineEnd()
        }
        let broken = broken(strictQuoteError ?? reported, start: start, end: end)
        if try input.peek() != nil { try consumeLineEnd() }
        return broken
    }

    /// Moves to the next CR or LF (or the end of the input), whatever the bytes before it;
    /// returns its offset.
    private mutating func skipToLineEnd() throws(RecordReaderError) -> Int {
        while true {
            let cursor = ByteScanner.firstIndex(
                of: carriageReturn, lineFeed, lineFeed, lineFeed, in: input.base, from: input.position,
                to: input.limit)
            input.position = cursor
            if cursor < input.limit { return input.offset }
            if !(try input.refill()) { return input.offset }
        }
    }

    /// `error` carrying the row from its start to `end` (a text offset) as its broken record.
    private func broken(_ error: RecordReaderError, start: RowStart, end: Int) -> RecordReaderError {
        var error = error
        error.brokenRecord = BrokenRecord(
            position: SourcePosition(
                file: input.name, line: start.line, column: start.offset - start.lineStart + 1,
                byteOffset: start.offset, recordNumber: start.recordNumber),
            bytes: input.bytes(from: start.offset, to: end))
        return error
    }

    /// Consumes one line end (CRLF, LF or CR) at the current position.
    private mutating func consumeLineEnd() throws(RecordReaderError) {
        let byte = input.base[input.position]
        input.position += 1
        if byte == carriageReturn, try input.peek() == lineFeed { input.position += 1 }
        lines.newLine(at: input.offset)
    }

    /// Reads one field; returns the byte that ends it (not consumed), or `nil` at the end.
    private mutating func readField(recordNumber: Int) throws(RecordReaderError) -> UInt8? {
        let fieldOffset = input.offset
        let line = lines.line
        let column = lines.column(of: fieldOffset)
        let valueStart = builder.byteCount
        var flags: UInt8 = 0
        let terminator: UInt8?
        let sizes = SizeCheck(
            line: line, column: column, offset: fieldOffset, fieldStart: valueStart, recordNumber: recordNumber)
        if let quote = dialect.quote, try input.peek() == quote {
            flags = Node.quotedFlag
            terminator = try scanQuoted(quote: quote, sizes: sizes)
        } else {
            terminator = try scanUnquoted(sizes: sizes)
        }
        builder.appendNode(
            Node(
                kind: .field, flags: flags, valueStart: Int32(truncatingIfNeeded: valueStart),
                valueCount: Int32(truncatingIfNeeded: builder.byteCount - valueStart),
                line: Int32(truncatingIfNeeded: line), column: Int32(truncatingIfNeeded: column),
                offset: fieldOffset))
        return terminator
    }

    /// Where the current field started, for size-limit errors.
    private struct SizeCheck {
        let line: Int
        let column: Int
        let offset: Int
        let fieldStart: Int
        let recordNumber: Int
    }

    @inline(__always)
    private func checkSizes(_ sizes: SizeCheck) throws(RecordReaderError) {
        let total = builder.byteCount
        let fieldOver = total - sizes.fieldStart > limits.maxFieldSize
        let recordOver = total > limits.maxRecordSize
        // When one append crosses both limits, the one crossed at the earlier byte is
        // reported, so the error does not depend on how the input was chunked.
        if fieldOver && (!recordOver || sizes.fieldStart + limits.maxFieldSize <= limits.maxRecordSize) {
            throw RecordReaderError(
                .limit, "field longer than \(limits.maxFieldSize) bytes", file: input.name, line: sizes.line,
                column: sizes.column, byteOffset: sizes.offset, recordNumber: sizes.recordNumber)
        }
        if recordOver {
            throw error(
                .limit, "row longer than \(limits.maxRecordSize) bytes", at: builder.nodes[0],
                recordNumber: sizes.recordNumber)
        }
    }

    private mutating func scanUnquoted(sizes: SizeCheck) throws(RecordReaderError) -> UInt8? {
        let delimiter = dialect.delimiter
        let quote = dialect.quote ?? lineFeed
        while true {
            let base = input.base
            let limit = input.limit
            let start = input.position
            let cursor = ByteScanner.firstIndex(
                of: delimiter, quote, carriageReturn, lineFeed, in: base, from: start, to: limit)
            if cursor > start {
                builder.append(base + start, count: cursor - start)
                input.position = cursor
                try checkSizes(sizes)
            }
            if cursor < limit {
                let byte = base[cursor]
                guard byte == dialect.quote else { return byte }
                // A quote inside an unquoted field is data; `strict` refuses the row for it.
                if dialect.strict, strictQuoteError == nil {
                    strictQuoteError = error(
                        .syntax, "quote in unquoted field", offset: input.offset, recordNumber: sizes.recordNumber)
                }
                builder.append(byte)
                input.position += 1
                try checkSizes(sizes)
                continue
            }
            if !(try input.refill()) { return nil }
        }
    }

    private mutating func scanQuoted(quote: UInt8, sizes: SizeCheck) throws(RecordReaderError) -> UInt8? {
        let open = OpenQuotedField(line: lines.line, column: lines.column(of: input.offset), offset: input.offset)
        openQuotedField = open
        input.position += 1
        while true {
            let base = input.base
            let limit = input.limit
            let start = input.position
            let cursor = ByteScanner.firstIndex(
                of: quote, carriageReturn, lineFeed, lineFeed, in: base, from: start, to: limit)
            if cursor > start {
                builder.append(base + start, count: cursor - start)
                input.position = cursor
                try checkSizes(sizes)
            }
            guard cursor < limit else {
                if try input.refill() { continue }
                throw RecordReaderError(
                    .syntax, "unterminated quoted field", file: input.name, line: open.line,
                    column: open.column, byteOffset: open.offset, recordNumber: sizes.recordNumber)
            }
            let byte = base[cursor]
            input.position += 1
            if byte == quote {
                guard let after = try input.peek() else {
                    openQuotedField = nil
                    return nil
                }
                if after == quote {
                    builder.append(quote)
                    input.position += 1
                    continue
                }
                if after == dialect.delimiter || after == carriageReturn || after == lineFeed {
                    openQuotedField = nil
                    return after
                }
                throw error(
                    .syntax, "text after closing quote", offset: input.offset,
                    recordNumber: sizes.recordNumber)
            }
            builder.append(byte)  // a line end inside quotes is data
            if openQuotedField?.lineBreak == nil { openQuotedField?.lineBreak = input.offset - 1 }
            if byte == carriageReturn, try input.peek() == lineFeed {
                builder.append(lineFeed)
                input.position += 1
            }
            lines.newLine(at: input.offset)
        }
    }

    /// The error of a row with the wrong field count (the first row's count becomes the
    /// expected one when there is no header), or `nil`.
    private mutating func fieldCountError(recordNumber: Int, end: RowEnd) -> RecordReaderError? {
        let count = builder.nodeCount - 1
        guard let expected = expectedFieldCount else {
            expectedFieldCount = count
            return nil
        }
        guard count != expected, !dialect.allowRagged else { return nil }
        if count > expected {
            return error(
                .structure, "too many fields: \(count), expected \(expected)", at: builder.nodes[expected + 1],
                recordNumber: recordNumber)
        }
        return RecordReaderError(
            .structure, "too few fields: \(count), expected \(expected)", file: input.name, line: end.line,
            column: end.column, byteOffset: end.offset, recordNumber: recordNumber)
    }

    /// The error of a row with a field of ill-formed UTF-8, pointing at the bad byte (exact in
    /// unquoted fields, the field's start in quoted ones), or `nil`. Fields are checked one by
    /// one: the two halves of a sequence split by a delimiter are two bad fields, not one
    /// character.
    private func utf8Error(recordNumber: Int) -> RecordReaderError? {
        for index in 1..<builder.nodeCount {
            let field = builder.nodes[index]
            let start = Int(field.valueStart)
            guard
                let bad = builder.withBytes({
                    UTF8Validation.firstInvalidIndex(
                        in: UnsafeBufferPointer(rebasing: $0[start..<start + Int(field.valueCount)]))
                })
            else { continue }
            let shift = field.flags & Node.quotedFlag == 0 ? bad : 0
            return RecordReaderError(
                .encoding, "invalid UTF-8", file: input.name, line: Int(field.line),
                column: Int(field.column) + shift, byteOffset: field.offset + shift,
                recordNumber: recordNumber)
        }
        return nil
    }

    /// An error at `offset` on the current line.
    private func error(
        _ kind: RecordReaderError.Kind, _ reason: String, offset: Int, recordNumber: Int
    ) -> RecordReaderError {
        RecordReaderError(
            kind, reason, file: input.name, line: lines.line, column: lines.column(of: offset),
            byteOffset: offset, recordNumber: recordNumber)
    }

    /// An error at the start of `node` (a row or field).
    private func error(
        _ kind: RecordReaderError.Kind, _ reason: String, at node: Node, recordNumber: Int
    ) -> RecordReaderError {
        RecordReaderError(
            kind, reason, file: input.name, line: Int(node.line), column: Int(node.column),
            byteOffset: node.offset, recordNumber: recordNumber)
    }
}
