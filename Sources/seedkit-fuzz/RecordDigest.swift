// RecordDigest: reads an input completely and renders everything observable about the
// result — each record's position, every value's kind, name, bytes and path, each broken
// record the reader skipped (its error, start and raw bytes), and the error that ended
// reading — as one string, so two readings can be compared (the fuzzer's differential oracle)
// and so every accessor of the record API is exercised.

import RecordReaders

enum RecordDigest {
    /// Reads `bytes` as `format` and renders the records and the error, if any.
    static func read(_ bytes: [UInt8], format: RecordFormat, options: ReaderOptions) -> String {
        var out = ""
        do {
            var reader = try RecordReaderFactory.open(.bytes(bytes, name: "fuzz"), format: format, options: options)
            while let result = try reader.nextResult() {
                switch result {
                case .success(let record):
                    out += "\(record.position) "
                    render(record.value, into: &out)
                    for path in probePaths { _ = record[path]?.position }
                case .failure(let broken):
                    let record = broken.brokenRecord
                    out += "broken \(broken) at \(record?.position.description ?? "") \(record?.bytes ?? [])"
                }
                out += "\n"
            }
            // The whole input, plain or compressed, is consumed: readings of both compare equal.
            out +=
                "end \(reader.recordsRead) \(reader.bytesConsumed == bytes.count ? "all" : "\(reader.bytesConsumed)")"
        } catch {
            out += "error \(error)"
        }
        return out
    }

    private static let probePaths: [FieldPath] = ["a", "#2", "@sku", "name", "tag[1]", "b.c", "items[*].sku", "."]
        .compactMap { try? FieldPath(parsing: $0) }

    private static func render(_ value: FieldValue, into out: inout String) {
        out += "\(value.kind)"
        if let name = value.name { out += " \(name)" }
        if let namespace = value.namespaceURI { out += " {\(namespace)}" }
        out += value.withUTF8 { " \($0.count):" } + value.string
        if value.isQuoted { out += " quoted" }
        if let record = value.record {
            out += " {"
            for field in record.fields { render(field, into: &out); out += "," }
            out += "}"
        } else if value.kind == .list {
            out += " ["
            for element in value.elements { render(element, into: &out); out += "," }
            out += "]"
        }
    }
}
