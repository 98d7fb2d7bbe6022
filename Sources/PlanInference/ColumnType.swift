// The attribute type a field's sampled values call for: the most specific type every value fits
// (integer, then double — or decimal past 15 significant digits — Boolean, date with its format,
// UUID, URI), else string. A field whose values are of different kinds is a string, with a comment
// saying what was mixed; so is a field with no value in the sample.
import GraphStore

/// The type drafted for one field, with the mapping options and comment that come with it.
struct ColumnType {
    var type: AttributeType
    /// For dates: the `date:` format (`iso8601`, a pattern).
    var dateFormat: String?
    /// A remark for the plan and model (`mixed values …`), or nil.
    var comment: String?

    /// The type `field`'s sampled values call for.
    init(of field: FieldSample) {
        let values = field.presentValues
        comment = nil
        dateFormat = nil
        guard !values.isEmpty else {
            type = .string
            comment = "no value in the sample: read as string"
            return
        }
        let kinds = values.map(ValueKinds.kind(of:))
        let distinct = Set(kinds)
        let texts = values.compactMap(\.text)
        switch distinct {
        case [.integer]:
            type = .integer64
        case [.integer, .number], [.number]:
            if let long = texts.first(where: { ValueKinds.significantDigits($0) > 15 }) {
                type = .decimal
                comment = "decimal: \(long) has more than 15 significant digits, which a double would round"
            } else {
                type = .double
            }
        case [.boolean]:
            type = .boolean
        case [.boolean, .integer] where ValueKinds.accepts(texts, as: .boolean):
            type = .boolean
        case [.date]:
            if let (format, alternatives) = ValueKinds.dateFormat(of: texts) {
                type = .date
                dateFormat = format
                if !alternatives.isEmpty {
                    comment = "the sample also reads as \(alternatives.joined(separator: ", ")): check the format"
                }
            } else {
                type = .string
                comment = "dates in more than one format in the sample: read as string"
            }
        case [.uuid]:
            type = .uuid
        case [.uri]:
            type = .uri
        case [.text]:
            type = .string
        default:
            type = .string
            comment = Self.mixture(values, kinds)
        }
    }

    /// `mixed values in the sample (3 integer, 1 text: "n/a" in record 4): read as string`.
    private static func mixture(_ values: [SampleValue], _ kinds: [SampleKind]) -> String {
        var counts: [SampleKind: Int] = [:]
        for kind in kinds { counts[kind, default: 0] += 1 }
        let ordered = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let parts = ordered.map { "\($0.value) \($0.key.noun)" }
        var text = "mixed values in the sample (" + parts.joined(separator: ", ")
        if let rare = ordered.last?.key, let index = kinds.firstIndex(of: rare), let example = values[index].text {
            text += "; \(rare.noun) such as \"\(example)\""
        }
        return text + "): read as string"
    }
}
