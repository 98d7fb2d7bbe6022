// Reads the first records of a file and flattens them into fields. Where the records are is found
// the way a person would look: a CSV's rows; a JSON document's root array, or each array of
// objects inside its root object (`items[*]`, `features[*]`); an XML document's root children,
// one source per element name (`catalog/item`, `catalog/list`). Only the first `limit` records of
// each source are read (streaming); a JSON root object is read whole to find its arrays, within
// the readers' size limits.
import Foundation
import RecordReaders

/// Samples the records of files.
enum RecordSampler {
    /// The sources of `file`, each with its first `limit` records flattened; `records` chooses
    /// the records of a JSON or XML file instead of finding them.
    static func samples(of file: String, records: String?, limit: Int) throws -> [SourceSample] {
        guard let format = RecordFormat(path: file) else {
            throw InferenceError(
                "\(file): cannot tell the format from the extension (csv, tsv, json, ndjson, jsonl, xml)")
        }
        let baseName = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        if let records {
            guard format == .json || format == .xml else {
                throw InferenceError("\(file): --records applies to JSON and XML files")
            }
            return [
                try sample(file, format, records: records, hint: hint(forRecords: records) ?? baseName, limit: limit)
            ]
        }
        switch format {
        case .csv, .tsv, .ndjson:
            return [try sample(file, format, records: nil, hint: baseName, limit: limit)]
        case .json:
            return try jsonSamples(file, baseName: baseName, limit: limit)
        case .xml:
            return try xmlSamples(file, baseName: baseName, limit: limit)
        }
    }

    /// The entity a records path suggests: its last name (`features[*]` → `features`).
    private static func hint(forRecords records: String) -> String? {
        let names = records.split(whereSeparator: { "./[]*$\"".contains($0) }).filter { Int($0) == nil }
        return names.last.map(String.init)
    }

    /// A root array's elements; else each array of objects in the root object (searched through
    /// nested objects, not arrays); else the root object as the one record.
    private static func jsonSamples(_ file: String, baseName: String, limit: Int) throws -> [SourceSample] {
        var reader = try open(file, .json, records: nil)
        guard let first = try reader.next() else {
            return [SourceSample(file: file, format: .json, entityHint: baseName, recordCount: 0, fields: [])]
        }
        guard first.position.path.isEmpty || first.position.path == "$", first.kind == .record else {
            return [try sample(file, .json, records: nil, hint: baseName, limit: limit)]
        }
        var paths: [String] = []
        collectArraysOfObjects(in: first, prefix: "", into: &paths)
        guard !paths.isEmpty else {
            return [try sample(file, .json, records: nil, hint: baseName, limit: limit)]
        }
        return try paths.map { path in
            try sample(file, .json, records: path, hint: hint(forRecords: path) ?? baseName, limit: limit)
        }
    }

    /// The records paths (`items[*]`, `data.rows[*]`) of the arrays of objects in `record`.
    private static func collectArraysOfObjects(in record: SourceRecord, prefix: String, into paths: inout [String]) {
        for field in record.fields {
            let path = prefix + InferenceNames.pathComponent(field.name ?? "")
            switch field.kind {
            case .list where !field.records.isEmpty:
                paths.append(path + "[*]")
            case .record:
                if let nested = field.record { collectArraysOfObjects(in: nested, prefix: path + ".", into: &paths) }
            default:
                continue
            }
        }
    }

    /// The root element's children, one source per element name, in the order first met: up to
    /// `limit` records of each name, among the first `10 × limit` children (a kind of element
    /// first met later is not seen; `--records` names it).
    private static func xmlSamples(_ file: String, baseName: String, limit: Int) throws -> [SourceSample] {
        var reader = try open(file, .xml, records: nil)
        var order: [String] = []
        var groups: [String: [SourceRecord]] = [:]
        var root = "*"
        while let record = try reader.next(), reader.recordsRead <= limit * 10 {
            let name = record.name ?? "*"
            if groups[name] == nil {
                order.append(name)
                if let component = record.position.path.split(separator: "/").first {
                    root = String(component.prefix { $0 != "[" })
                }
            }
            if groups[name, default: []].count < limit { groups[name, default: []].append(record) }
        }
        if order.isEmpty {
            return [SourceSample(file: file, format: .xml, entityHint: baseName, recordCount: 0, fields: [])]
        }
        return order.map { name in
            let records = groups[name] ?? []
            return SourceSample(
                file: file, format: .xml, records: root + "/" + name, entityHint: name, recordCount: records.count,
                fields: flatten(records, format: .xml))
        }
    }

    /// The first `limit` records of `file` under `records`.
    private static func sample(_ file: String, _ format: RecordFormat, records: String?, hint: String, limit: Int)
        throws -> SourceSample
    {
        var reader = try open(file, format, records: records)
        var sampled: [SourceRecord] = []
        while sampled.count < limit, let record = try reader.next() { sampled.append(record) }
        return SourceSample(
            file: file, format: format, records: records, entityHint: hint, recordCount: sampled.count,
            fields: flatten(sampled, format: format))
    }

    private static func open(_ file: String, _ format: RecordFormat, records: String?) throws -> any RecordReader {
        try RecordReaderFactory.open(.file(file), format: format, options: ReaderOptions(records: records))
    }

    // MARK: - Flattening

    /// The fields of `records`, in the order first met, each with its value in every record.
    static func flatten(_ records: [SourceRecord], format: RecordFormat) -> [FieldSample] {
        let separator = format == .xml ? "/" : "."
        var order: [[String]] = []
        var fields: [[String]: FieldSample] = [:]
        for (index, record) in records.enumerated() {
            var values = RecordValues()
            collect(record, steps: [], components: [], into: &values)
            for steps in values.order {
                guard let (components, value) = values.byPath[steps] else { continue }
                if fields[steps] == nil {
                    order.append(steps)
                    fields[steps] = FieldSample(
                        steps: steps, separator: separator, components: components,
                        values: Array(repeating: nil, count: records.count))
                }
                fields[steps]?.values[index] = value
            }
        }
        return order.compactMap { fields[$0] }
    }

    /// The values of one record by path steps, in the order met.
    private struct RecordValues {
        var byPath: [[String]: (components: [String], value: SampleValue)] = [:]
        var order: [[String]] = []
    }

    /// Adds the scalar fields under `record` to `values`; nested objects and elements add their
    /// own fields under longer paths; a name met twice in one record becomes a list.
    private static func collect(
        _ record: SourceRecord, steps: [String], components: [String], into values: inout RecordValues
    ) {
        for (position, field) in record.fields.enumerated() {
            let name = field.name ?? "#\(position + 1)"
            let fieldSteps = steps + [(field.isAttribute ? "@" : "") + InferenceNames.pathComponent(name)]
            let fieldComponents = components + [name]
            let value: SampleValue
            switch field.kind {
            case .record:
                if let nested = field.record {
                    collect(nested, steps: fieldSteps, components: fieldComponents, into: &values)
                }
                continue
            case .list:
                let elements = field.elements
                value =
                    elements.contains { $0.kind == .record } ? .records(elements.count) : .list(elements.map(\.string))
            case .null: value = .null
            case .number: value = .number(field.string)
            case .bool: value = .bool(field.string)
            case .text: value = .text(field.string)
            }
            if let earlier = values.byPath[fieldSteps] {
                // An XML element repeated in the record: its values form a list.
                let texts = (earlier.value.listTexts ?? []) + (value.listTexts ?? [])
                values.byPath[fieldSteps] = (fieldComponents, .list(texts))
            } else {
                values.byPath[fieldSteps] = (fieldComponents, value)
                values.order.append(fieldSteps)
            }
        }
    }
}

extension SampleValue {
    /// The texts of a scalar or a list, for merging repeated XML elements.
    fileprivate var listTexts: [String]? {
        switch self {
        case .list(let texts): texts
        case .records: nil
        default: text.map { [$0] } ?? []
        }
    }
}

/// A file the inference cannot read or a request it cannot follow.
public struct InferenceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file or option.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
