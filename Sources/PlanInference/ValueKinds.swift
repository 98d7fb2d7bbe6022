// What kind of value a sampled text is, decided by SeedKit's own coercion (docs/Coercion.md): a
// text is an integer when an integer attribute would accept it, a date when a date attribute with
// one of the formats below would, and so on — so a drafted plan never asks for a type its sample
// does not fit.
import GraphStore
import SeedImport

/// Kinds of sampled values, most specific first.
enum SampleKind: String, CaseIterable, Comparable {
    case integer, number, boolean, date, uuid, uri, text

    static func < (lhs: SampleKind, rhs: SampleKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// How the kind reads in comments: `integer`, `number`, `text`, …
    var noun: String { rawValue }
}

/// Tests texts against the coercion of each attribute type.
enum ValueKinds {
    /// The date formats tried, in order: ISO 8601, then the day-first, month-first and year-first
    /// patterns people write most (docs/Coercion.md lists the tokens).
    static let datePatterns = [
        "iso8601", "dd/MM/yyyy", "MM/dd/yyyy", "yyyy/MM/dd", "dd.MM.yyyy", "dd-MM-yyyy", "dd/MM/yyyy HH:mm",
        "MM/dd/yyyy HH:mm", "dd.MM.yyyy HH:mm", "dd/MM/yyyy HH:mm:ss", "MM/dd/yyyy HH:mm:ss", "MM/dd/yyyy hh:mm a",
        "yyyy/MM/dd HH:mm:ss", "yyyy-MM-dd HH:mm:ss Z", "dd MM yyyy",
    ]

    /// The date formats for values that are numbers: seconds or milliseconds since 1970.
    static let epochFormats = ["epoch", "epoch-ms"]

    /// Whether an attribute of `type` read with `mapping` accepts every text of `texts`.
    static func accepts(_ texts: [String], as type: AttributeType, mapping: AttributeMapping = AttributeMapping())
        -> Bool
    {
        guard let coercer = coercer(type, mapping) else { return false }
        return texts.allSatisfy { text in (try? coercer.coerce(text: text)) != nil }
    }

    /// The coercer of `type` under `mapping` (compiled once for the mappings the inference tries).
    private static func coercer(_ type: AttributeType, _ mapping: AttributeMapping) -> ValueCoercer? {
        if mapping == AttributeMapping(), let coercer = plainCoercers[type] { return coercer }
        if type == .date, let format = mapping.dateFormat, mapping == dateMapping(format),
            let coercer = dateCoercers[format]
        {
            return coercer
        }
        return try? ValueCoercer(declaration: AttributeDescription(name: "value", type: type), mapping: mapping)
    }

    private static let plainCoercers: [AttributeType: ValueCoercer] = Dictionary(
        uniqueKeysWithValues: AttributeType.allCases.compactMap { type in
            (try? ValueCoercer(
                declaration: AttributeDescription(name: "value", type: type), mapping: AttributeMapping()))
                .map { (type, $0) }
        })

    private static let dateCoercers: [String: ValueCoercer] = Dictionary(
        uniqueKeysWithValues: (datePatterns + epochFormats).compactMap { format in
            (try? ValueCoercer(
                declaration: AttributeDescription(name: "value", type: .date), mapping: dateMapping(format)))
                .map { (format, $0) }
        })

    /// A mapping with the date format `format` and nothing else.
    static func dateMapping(_ format: String) -> AttributeMapping {
        var mapping = AttributeMapping()
        mapping.dateFormat = format
        return mapping
    }

    /// The texts of `texts` an attribute of `type` read with `mapping` refuses.
    static func refused(_ texts: [String], as type: AttributeType, mapping: AttributeMapping = AttributeMapping())
        -> [String]
    {
        texts.filter { !accepts([$0], as: type, mapping: mapping) }
    }

    /// The first date format that reads every text, and the other formats that do too (an
    /// ambiguity worth a comment: `01/02/2026`).
    static func dateFormat(of texts: [String], includingEpoch: Bool = false) -> (
        format: String, alternatives: [String]
    )? {
        let formats = datePatterns + (includingEpoch ? epochFormats : [])
        let fitting = formats.filter { accepts(texts, as: .date, mapping: dateMapping($0)) }
        guard let first = fitting.first else { return nil }
        return (first, Array(fitting.dropFirst()))
    }

    /// The kind of one sampled value.
    static func kind(of value: SampleValue) -> SampleKind {
        switch value {
        case .bool: return .boolean
        case .number(let text): return accepts([text], as: .integer64) ? .integer : .number
        default: break
        }
        guard let text = value.text else { return .text }
        if accepts([text], as: .integer64) { return .integer }
        if accepts([text], as: .double) { return .number }
        if accepts([text], as: .boolean) { return .boolean }
        if dateFormat(of: [text]) != nil { return .date }
        if accepts([text], as: .uuid) { return .uuid }
        if text.hasPrefix("http://") || text.hasPrefix("https://"), accepts([text], as: .uri) { return .uri }
        return .text
    }

    /// The number of significant digits of a decimal text (`003.140` → 3).
    static func significantDigits(_ text: String) -> Int {
        let mantissa = text.lowercased().split(separator: "e").first.map(String.init) ?? text
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        return mantissa.contains(".") ? digits.count : digits.reversed().drop { $0 == "0" }.count
    }
}
