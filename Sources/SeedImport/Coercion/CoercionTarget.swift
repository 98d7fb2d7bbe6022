// What one attribute's values are coerced to, with the type-specific options compiled: the
// per-value switch of `ValueCoercer`.
// Invariant: `value(from:kind:)` returns only values that `AttributeValue.matches` the
// attribute's type, integers inside the type's range, finite Doubles, Float values rounded to
// Float precision (as `ManagedObject` stores them).
import Foundation
import GraphStore
import RecordReaders

/// An attribute type with its coercion options.
enum CoercionTarget: Sendable {
    case integer(AttributeType, ClosedRange<Int64>)
    case decimal
    case double
    case float
    case string
    case boolean(BooleanWords)
    case date(DateFormat)
    case binary(BinaryEncoding)
    case uuid
    case uri
    /// The codec's encoded bytes, written as binary; `codecName` names the registered codec and
    /// `decode` is its check. (A closure rather than `any TransformableCodec` keeps the enum
    /// loadable, so the per-value switch borrows its payloads instead of copying them.)
    case transformable(BinaryEncoding, codecName: String, decode: @Sendable (Data) throws -> any Sendable)

    /// The target of `attribute` with the options of `mapping`; rejects options that do not
    /// apply to the attribute's type.
    init(attribute: AttributeDescription, mapping: AttributeMapping) throws(CoercionSetupError) {
        let type = attribute.type
        try Self.check(mapping.dateFormat == nil || type == .date, "a date format applies to date attributes only")
        try Self.check(
            (mapping.trueWords == nil && mapping.falseWords == nil) || type == .boolean,
            "true and false words apply to boolean attributes only")
        try Self.check(
            mapping.binaryEncoding == nil || type == .binary || type == .transformable,
            "a binary encoding applies to binary and transformable attributes only")
        switch type {
        case .integer16, .integer32, .integer64:
            self = .integer(type, type.integerRange ?? Int64.min...Int64.max)
        case .decimal: self = .decimal
        case .double: self = .double
        case .float: self = .float
        case .string: self = .string
        case .boolean: self = .boolean(try BooleanWords(trueWords: mapping.trueWords, falseWords: mapping.falseWords))
        case .date: self = .date(try DateFormat(mapping.dateFormat))
        case .binary: self = .binary(try BinaryEncoding(mapping.binaryEncoding))
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .transformable:
            let name = attribute.valueTransformerName ?? TransformableCodecs.defaultName
            guard let codec = TransformableCodecs.shared.codec(named: name) else {
                throw CoercionSetupError("no transformable codec is registered as \(CoercionError.quoted(name))")
            }
            self = .transformable(try BinaryEncoding(mapping.binaryEncoding), codecName: name, decode: codec.decode)
        }
    }

    /// Whether an empty text is a value of this target; when it is not, an empty text is null.
    var acceptsEmptyText: Bool {
        switch self {
        case .string, .binary, .transformable: true
        case .boolean(let words): words.acceptsEmpty
        default: false
        }
    }

    /// The value `bytes` (trimmed already, never null) stand for; `kind` is the source's kind.
    func value(from bytes: UnsafeBufferPointer<UInt8>, kind: ValueKind) throws(CoercionProblem) -> AttributeValue {
        switch self {
        case .integer(_, let range):
            let value = try NumberText.integer(in: bytes)
            guard range.contains(value) else { throw .outOfRange }
            return .integer(value)
        case .decimal:
            return .decimal(try NumberText.decimal(in: bytes))
        case .double:
            return .double(try Self.finite(NumberText.double(in: bytes)))
        case .float:
            return .double(Double(try Self.finite(Float(NumberText.double(in: bytes)))))
        case .string:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .boolean(let words):
            return .boolean(try words.value(of: bytes, isJSONBoolean: kind == .bool))
        case .date(let format):
            return .date(try format.date(from: bytes, kind: kind))
        case .binary(let encoding):
            return .binary(try encoding.decode(bytes))
        case .uuid:
            return .uuid(try UUIDText.uuid(from: bytes))
        case .uri:
            return .uri(try Self.uri(from: bytes))
        case .transformable(let encoding, _, let decode):
            let data = try encoding.decode(bytes)
            do {
                _ = try decode(data)
            } catch {
                throw .invalid("the codec rejects it: \(error)")
            }
            return .binary(data)
        }
    }

    // MARK: - Messages

    /// What the target expects, completing "… is not ": `an integer`, `a date in format iso8601`.
    var expectation: String {
        switch self {
        case .integer: "an integer"
        case .decimal: "a decimal number"
        case .double, .float: "a number"
        case .string: "a string"
        case .boolean(let words): words.expectation
        case .date(let format): "a date in format \(format.name)"
        case .binary(let encoding): encoding.rawValue
        case .uuid: "a UUID"
        case .uri: "a URI"
        case .transformable(let encoding, let codecName, _): "a \(codecName) value in \(encoding.rawValue)"
        }
    }

    /// The range the target holds, completing "… is out of range for ".
    var range: String {
        switch self {
        case .integer(let type, let range): "\(type.rawValue) (\(range.lowerBound)…\(range.upperBound))"
        case .date: "a date (years 0000…9999)"
        case .float: "float"
        case .decimal: "decimal (exponents -128…127)"
        case .double: "double"
        case .string, .boolean, .binary, .uuid, .uri, .transformable: "this attribute"
        }
    }

    /// The sentence for `problem`, where `shown` is the value as quoted in messages.
    func reason(for problem: CoercionProblem, shown: String) -> String {
        switch problem {
        case .syntax: "\(shown) is not \(expectation)"
        case .invalid(let detail): "\(shown) is not \(expectation) (\(detail))"
        case .outOfRange: "\(shown) is out of range for \(range)"
        case .tooManyDigits: "\(shown) has more than 38 significant digits, the most a decimal holds exactly"
        case .list(let count?): "expected a single value, got a list of \(count)"
        case .list(nil): "expected a single value, got a list"
        case .nestedRecord:
            "expected a single value, got a nested record (a JSON object, or an XML element without text of its own)"
        }
    }

    // MARK: - Helpers

    private static func check(_ condition: Bool, _ reason: String) throws(CoercionSetupError) {
        if !condition { throw CoercionSetupError(reason) }
    }

    /// `value` if finite: a number beyond the type's range parses as infinity.
    private static func finite<Value: BinaryFloatingPoint>(_ value: Value) throws(CoercionProblem) -> Value {
        guard value.isFinite else { throw .outOfRange }
        return value
    }

    /// The URL in `bytes`, which must be valid as written (no percent-encoding added) and have a scheme.
    private static func uri(from bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> URL {
        guard let url = URL(string: String(decoding: bytes, as: UTF8.self), encodingInvalidCharacters: false) else {
            throw .syntax
        }
        guard let scheme = url.scheme, !scheme.isEmpty else { throw .invalid("it has no scheme, like https:") }
        return url
    }
}
