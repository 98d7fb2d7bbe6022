// Helpers shared by the coercion tests: coercers built from a type and mapping options, JSON
// field values read through the real JSON reader, and the outcome of one coercion as text.
// They live in a protocol extension so their short names cannot clash with other suites' helpers.
import Foundation
import GraphStore
import RecordReaders
import Testing

@testable import SeedImport

/// Adopted by the coercion suites to get the helpers below.
protocol CoercionTesting {}

extension CoercionTesting {
    /// A coercer for an attribute named `value` of `type`, with `options` applied to its mapping.
    func makeCoercer(
        _ type: AttributeType, transformer: String? = nil, _ options: (inout AttributeMapping) -> Void = { _ in }
    ) throws(CoercionSetupError) -> ValueCoercer {
        var mapping = AttributeMapping(field: "value")
        options(&mapping)
        return try ValueCoercer(
            declaration: AttributeDescription(name: "value", type: type, valueTransformerName: transformer),
            mapping: mapping)
    }

    /// The setup error's reason for `type` with `options`, or nil when the coercer compiles.
    func setupFailure(
        _ type: AttributeType, transformer: String? = nil, _ options: (inout AttributeMapping) -> Void = { _ in }
    ) -> String? {
        do {
            _ = try makeCoercer(type, transformer: transformer, options)
            return nil
        } catch {
            return error.reason
        }
    }

    /// What coercing `text` gives: the value, or the error's reason.
    func outcome(_ coercer: ValueCoercer, _ text: String) -> Result<AttributeValue?, CoercionError> {
        Result { () throws(CoercionError) in try coercer.coerce(text: text) }
    }

    /// The reason `text` does not coerce, or nil when it does.
    func failure(_ coercer: ValueCoercer, _ text: String) -> String? {
        if case .failure(let error) = outcome(coercer, text) { return error.reason }
        return nil
    }

    /// The value `text` coerces to; records an issue and returns nil when it fails.
    func coerced(_ coercer: ValueCoercer, _ text: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> AttributeValue?
    {
        switch outcome(coercer, text) {
        case .success(let value): return value
        case .failure(let error):
            Issue.record("\(CoercionError.quoted(text)): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The value at key `v` of the JSON object `{"v": json}`, read by the JSON reader.
    func jsonField(_ json: String) throws -> FieldValue? {
        let document = Array("{\"v\": \(json)}".utf8)
        var reader = try RecordReaderFactory.open(.bytes(document, name: "test.json"), format: .json)
        let record = try #require(try reader.next())
        return try record.value(at: "v")
    }

    /// What coercing the JSON value `json` gives.
    func jsonOutcome(_ coercer: ValueCoercer, _ json: String) throws -> Result<AttributeValue?, CoercionError> {
        let field = try jsonField(json)
        return Result { () throws(CoercionError) in try coercer.coerce(field) }
    }

    /// The date of an ISO 8601 text, for expected values.
    func isoDate(_ text: String) throws -> Date {
        try #require(ISO8601Text.date(from: text))
    }

    /// The reason the JSON value `json` does not coerce, or nil.
    func jsonError(_ coercer: ValueCoercer, _ json: String) throws -> String? {
        if case .failure(let error) = try jsonOutcome(coercer, json) { return error.reason }
        return nil
    }

    /// The error of a failed coercion, or nil.
    func error(of result: Result<AttributeValue?, CoercionError>) -> CoercionError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
