// What the inference learned of one source: where its records are, how many were read, and each
// field's values across them, nested JSON objects and XML elements flattened into field paths
// (`properties.mag`, `location/@aisle`), repeated XML elements and JSON arrays kept as lists.
import RecordReaders

/// One value of a field in one sampled record.
enum SampleValue: Equatable {
    /// JSON `null`.
    case null
    /// Text: a CSV field, an XML attribute or text, a JSON string.
    case text(String)
    /// A JSON number, as written.
    case number(String)
    /// A JSON `true` or `false`.
    case bool(String)
    /// A JSON array of scalars, or an XML element repeated in the record: the values' texts.
    case list([String])
    /// A JSON array of objects (nested records the draft leaves to the user).
    case records(Int)

    /// The text a scalar would be coerced from; nil for null, lists and records.
    var text: String? {
        switch self {
        case .text(let text), .number(let text), .bool(let text): text
        case .null, .list, .records: nil
        }
    }
}

/// A field of a source and its value in each sampled record.
struct FieldSample {
    /// The steps of the field's path as a plan writes them (`properties`, `mag`; `location`, `@aisle`).
    var steps: [String]
    /// What joins the steps: `.` in JSON, `/` in XML.
    var separator: String
    /// The names leading to the field, outermost first, without `@` (for naming attributes).
    var components: [String]
    /// The value in each sampled record, nil where the record lacks the field.
    var values: [SampleValue?]

    /// The field's path as a plan writes it: `sku`, `properties.mag`, `location/@aisle`.
    var path: String { steps.joined(separator: separator) }

    /// The path from the nested record `depth` steps in (`code` for `properties.network.code` at 2).
    func path(from depth: Int) -> String {
        steps.dropFirst(depth).joined(separator: separator)
    }

    /// The innermost name (`aisle` for `location/@aisle`).
    var name: String { components.last ?? path }

    /// The values that are there and not JSON null or empty text.
    var presentValues: [SampleValue] {
        values.compactMap { value in
            guard let value, value != .null, value != .text("") else { return nil }
            return value
        }
    }

    /// Whether some record holds a list (or nested records) here.
    var isList: Bool {
        values.contains { value in
            switch value {
            case .list?, .records?: true
            default: false
            }
        }
    }

    /// Whether some record holds nested records (a JSON array of objects) here.
    var holdsRecords: Bool {
        values.contains { if case .records? = $0 { true } else { false } }
    }
}

/// The sampled records of one source.
struct SourceSample {
    /// The file, as given on the command line.
    var file: String
    /// Its format.
    var format: RecordFormat
    /// The records path (JSON, XML), nil for the reader's default.
    var records: String?
    /// The entity name the file or its records suggest (`items.csv`, `catalog/item` → `Item`).
    var entityHint: String
    /// How many records were read.
    var recordCount: Int
    /// The fields, in the order first met.
    var fields: [FieldSample]
}
