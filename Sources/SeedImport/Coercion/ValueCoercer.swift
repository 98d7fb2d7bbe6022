// ValueCoercer: turns one source value (a record field, a constant, a split CSV part) into the
// value of one attribute, following the attribute's type and the mapping's options (docs/PlanFormat.md).
// Invariants: compiled once per (attribute, mapping), so per-value work allocates nothing for
// numbers, Booleans, dates and UUIDs; the default value and any constant are coerced at setup
// (a bad one is a setup error, never a record error); a value that does not coerce throws,
// never becomes a silent 0; model validation rules (min/max, length, pattern, date range) are
// left to the context's save — only integer ranges, which the type itself implies, are checked.
import GraphStore
import RecordReaders

/// Coerces source values into the values of one attribute.
///
/// The pipeline for each value:
/// 1. a missing field (`nil`) or JSON `null` gives ``defaultValue``;
/// 2. a list is an error, and so is a nested record without text of its own (a JSON object; an
///    XML element with attributes, like `<price currency="EUR">2.49</price>`, gives its text);
/// 3. the text is trimmed (see ``AttributeMapping/trim``);
/// 4. a null token (`null:`), or an empty text for a type that has no empty value (all but
///    string, binary and transformable), gives ``defaultValue``;
/// 5. the text is parsed as the attribute's type (see docs/Coercion.md).
///
/// ```swift
/// var mapping = AttributeMapping(field: "added")
/// mapping.dateFormat = "dd/MM/yyyy HH:mm"
/// let coercer = try ValueCoercer(attribute: entity.attribute(named: "added")!, mapping: mapping)
/// let added = try coercer.coerce(record[addedPath])          // .date(…) or nil
/// let same = try coercer.coerce(text: "22/11/2026 10:15")    // .date(2026-11-22T10:15:00Z)
/// ```
public struct ValueCoercer: Sendable {
    /// The name of the attribute, for errors.
    public var attributeName: String { rules.attributeName }
    /// The value a missing or null source value gets (the mapping's `default`, coerced), if any.
    public var defaultValue: AttributeValue? { rules.defaultValue }
    /// The mapping's constant `value`, coerced; nil when the mapping has none (see ``isConstant``)
    /// or when the constant is a null token without a default.
    public var constantValue: AttributeValue? { rules.constantValue }
    /// Whether the mapping gives a constant `value` instead of a field.
    public var isConstant: Bool { rules.isConstant }
    /// Whether a missing or null value gets a ``defaultValue`` (rather than nil).
    public var hasDefault: Bool { rules.defaultValue != nil }

    /// Everything the coercer holds, shared by every copy: an importer copies a coercer out of
    /// its mapping for every value, and a copy then costs one reference count, not one per
    /// string, array and payload.
    private let rules: Rules

    /// What a value's bytes go through (see the pipeline above).
    private final class Rules: Sendable {
        let attributeName: String
        let target: CoercionTarget
        let nullTokens: ByteWords
        let trims: Bool
        let emptyIsNull: Bool
        let isConstant: Bool
        let defaultValue: AttributeValue?
        let constantValue: AttributeValue?

        init(
            attributeName: String, target: CoercionTarget, nullTokens: ByteWords, trims: Bool, isConstant: Bool,
            defaultValue: AttributeValue? = nil, constantValue: AttributeValue? = nil
        ) {
            self.attributeName = attributeName
            self.target = target
            self.nullTokens = nullTokens
            self.trims = trims
            emptyIsNull = !target.acceptsEmptyText
            self.isConstant = isConstant
            self.defaultValue = defaultValue
            self.constantValue = constantValue
        }

        /// These rules with `defaultValue` and `constantValue`.
        func with(defaultValue: AttributeValue?, constantValue: AttributeValue?) -> Rules {
            Rules(
                attributeName: attributeName, target: target, nullTokens: nullTokens, trims: trims,
                isConstant: isConstant, defaultValue: defaultValue, constantValue: constantValue)
        }
    }

    private init(rules: Rules) { self.rules = rules }

    /// Compiles the coercion of `attribute`'s values under `mapping`.
    ///
    /// Throws when an option does not apply to the attribute's type or is malformed (an unknown
    /// date pattern token, overlapping true and false words, an unknown binary encoding, no codec
    /// registered for a transformable attribute), or when the default value or the constant does
    /// not coerce.
    public init(attribute: ModelAttribute, mapping: AttributeMapping) throws(CoercionSetupError) {
        try self.init(declaration: attribute.declaration, mapping: mapping)
    }

    /// Compiles the coercion of the values of the attribute `declaration` under `mapping`.
    public init(declaration: AttributeDescription, mapping: AttributeMapping) throws(CoercionSetupError) {
        let target: CoercionTarget
        do {
            target = try CoercionTarget(attribute: declaration, mapping: mapping)
        } catch {
            throw CoercionSetupError(attribute: declaration.name, reason: error.reason)
        }
        // The default is coerced without a default, the constant with the default.
        let bare = Rules(
            attributeName: declaration.name, target: target,
            nullTokens: ByteWords(mapping.nullTokens ?? [], foldsCase: false),
            trims: mapping.trim ?? (declaration.type != .string), isConstant: mapping.value != nil)
        let defaultValue = try ValueCoercer(rules: bare).setupValue(mapping.defaultValue, option: "default value")
        let withDefault = bare.with(defaultValue: defaultValue, constantValue: nil)
        let constantValue = try ValueCoercer(rules: withDefault).setupValue(mapping.value, option: "constant value")
        rules = withDefault.with(defaultValue: defaultValue, constantValue: constantValue)
    }

    // MARK: - Coercing

    /// The attribute value of a record's field; `nil` for a missing field.
    ///
    /// ```swift
    /// let quantity = try coercer.coerce(record[quantityPath])   // .integer(12)
    /// ```
    public func coerce(_ value: FieldValue?) throws(CoercionError) -> AttributeValue? {
        guard let value else { return defaultValue }
        let kind = value.kind
        if kind == .list { throw error(.list(count: value.count), bytes: nil, kind: kind) }
        return try value.withUTF8 { bytes in
            Result { () throws(CoercionError) in try coerce(utf8: bytes, kind: kind) }
        }.get()
    }

    /// The attribute value written as `text`: a constant, or one part of a split field.
    ///
    /// ```swift
    /// try coercer.coerce(text: "70000")   // integer16: throws "70000" is out of range for integer16 (…)
    /// ```
    public func coerce(text: String) throws(CoercionError) -> AttributeValue? {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(CoercionError) in try coerce(utf8: bytes, kind: .text) }
        }.get()
    }

    /// The attribute value of a source value given as its UTF-8 bytes and kind: what
    /// ``coerce(_:)`` and ``coerce(text:)`` use, for callers that hold bytes already.
    ///
    /// `kind` `.number` and `.bool` mark JSON numbers and Booleans (shown without quotes in
    /// messages; a JSON Boolean is always accepted by a Boolean attribute); `.null` gives the
    /// default value; `.list` is an error, and so is `.record` unless `bytes` hold text (an XML
    /// element's own text).
    public func coerce(utf8 bytes: UnsafeBufferPointer<UInt8>, kind: ValueKind) throws(CoercionError)
        -> AttributeValue?
    {
        switch try coerceInPlace(utf8: bytes, kind: kind) {
        case .defaultValue: defaultValue
        case .text(let text): .string(String(decoding: text, as: UTF8.self))
        case .value(let value): value
        }
    }

    /// What source bytes coerce to, with a string attribute's text left in place (a slice of
    /// `bytes`) rather than built into a `String`: importers copy it where they keep values.
    enum InPlace {
        /// The default value (nil when there is none).
        case defaultValue
        /// The text of a string attribute.
        case text(UnsafeBufferPointer<UInt8>)
        /// Any other value.
        case value(AttributeValue)
    }

    /// The value of `bytes` (see ``coerce(utf8:kind:)``), a string attribute's text in place.
    func coerceInPlace(utf8 bytes: UnsafeBufferPointer<UInt8>, kind: ValueKind) throws(CoercionError) -> InPlace {
        var kind = kind
        switch kind {
        case .null: return .defaultValue
        case .list: throw error(.list(count: nil), bytes: nil, kind: kind)
        case .record:
            // An XML element with attributes still has its own text: `<price currency="EUR">2.49</price>`.
            guard !WhiteSpace.trimming(bytes).isEmpty else { throw error(.nestedRecord, bytes: nil, kind: kind) }
            kind = .text
        case .text, .number, .bool: break
        }
        let rules = self.rules
        let text = rules.trims ? WhiteSpace.trimming(bytes) : bytes
        if (text.isEmpty && rules.emptyIsNull) || rules.nullTokens.contains(text) { return .defaultValue }
        if case .string = rules.target { return .text(text) }
        do {
            return .value(try rules.target.value(from: text, kind: kind))
        } catch {
            throw self.error(error, bytes: text, kind: kind)
        }
    }

    // MARK: - Helpers

    /// The error for `problem` with the value `bytes` (nil for a list or a record).
    private func error(_ problem: CoercionProblem, bytes: UnsafeBufferPointer<UInt8>?, kind: ValueKind)
        -> CoercionError
    {
        let value = bytes.map { CoercionError.truncated(String(decoding: $0, as: UTF8.self)) }
        let shown = value.map { kind == .text ? CoercionError.quoted($0) : $0 } ?? ""
        return CoercionError(
            attribute: attributeName, value: value, reason: rules.target.reason(for: problem, shown: shown))
    }

    /// A mapping option's text coerced at setup (with the rules so far).
    private func setupValue(_ text: String?, option: String) throws(CoercionSetupError) -> AttributeValue? {
        guard let text else { return nil }
        do {
            return try coerce(text: text)
        } catch {
            throw CoercionSetupError(attribute: attributeName, reason: "\(option): \(error.reason)")
        }
    }
}
