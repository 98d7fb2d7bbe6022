// Turns an Xcode model's `<attribute>` element into an `AttributeDescription`: the type names,
// default values, validation rules and options Xcode writes, converted to SeedKit's model.
// Invariants: dates (defaults and ranges) are seconds since the reference date 2001-01-01T00:00:00Z,
// as Xcode writes them; numbers are read in the POSIX locale; decimals stay exact; an empty value
// string means "not set" for every type but String.
import Foundation
import GraphStore

/// A value in an `<attribute>` element that SeedKit cannot use, with the reason.
struct XcodeModelValueError: Error, Sendable {
    /// Why the value cannot be used.
    var message: String

    /// An error saying `message`.
    init(_ message: String) { self.message = message }
}

/// Reads `<attribute>` elements.
enum XcodeModelAttributes {
    /// The attribute `element` declares.
    ///
    /// - Throws: ``XcodeModelValueError`` for an unsupported type or a value that does not fit the type.
    static func attribute(from element: XcodeModelElement, name: String) throws(XcodeModelValueError)
        -> AttributeDescription
    {
        let isTransient = element.flag("transient")
        let type = try attributeType(named: element["attributeType"], isTransient: isTransient)
        var attribute = AttributeDescription(
            name: name, type: type, isOptional: element.flag("optional"),
            defaultValue: try defaultValue(of: element, type: type),
            isIndexed: element.flag("indexed"), isTransient: isTransient,
            allowsExternalStorage: type == .binary && element.flag("allowsExternalBinaryDataStorage"),
            valueTransformerName: type == .transformable ? element["valueTransformerName"] : nil,
            validation: try validationRules(of: element, type: type),
            userInfo: XcodeModelUserInfo.entries(in: element))
        attribute.renamingIdentifier = XcodeModelVersioning.renamingIdentifier(of: element)
        attribute.hashModifier = XcodeModelVersioning.hashModifier(of: element)
        attribute.preservesValueAfterDeletion = element.flag("preserveAfterDeletion")
        attribute.isReadOnly = element.flag("readOnly")
        return attribute
    }

    /// The SeedKit type of an Xcode `attributeType` (an absent type is Xcode's "Undefined").
    private static func attributeType(named xcodeName: String?, isTransient: Bool) throws(XcodeModelValueError)
        -> AttributeType
    {
        let name = xcodeName ?? "Undefined"
        switch name {
        case "Integer 16": return .integer16
        case "Integer 32": return .integer32
        case "Integer 64": return .integer64
        case "Decimal": return .decimal
        case "Double": return .double
        case "Float": return .float
        case "String": return .string
        case "Boolean": return .boolean
        case "Date": return .date
        case "Binary": return .binary
        case "UUID": return .uuid
        case "URI": return .uri
        case "Transformable": return .transformable
        case "Undefined":
            // A transient Undefined attribute holds any in-memory value: the transformable type
            // is the one that accepts whatever a codec can encode.
            guard isTransient else {
                throw XcodeModelValueError("attribute type Undefined is allowed on transient attributes only")
            }
            return .transformable
        case "ObjectID":
            throw XcodeModelValueError("attribute type ObjectID is not supported")
        case "Composite":
            throw XcodeModelValueError("composite attributes are not supported")
        default:
            throw XcodeModelValueError("unknown attribute type '\(name)'")
        }
    }

    /// The default value: `defaultDateTimeInterval` for dates, `defaultValueString` otherwise.
    private static func defaultValue(of element: XcodeModelElement, type: AttributeType) throws(XcodeModelValueError)
        -> AttributeValue?
    {
        if type == .date, let seconds = element["defaultDateTimeInterval"], !seconds.isEmpty {
            return .date(try referenceDate(seconds, label: "default date"))
        }
        guard let text = element["defaultValueString"] else { return nil }
        if text.isEmpty && type != .string { return nil }
        return try value(text, type: type)
    }

    /// The value `text` stands for in an attribute of `type`.
    private static func value(_ text: String, type: AttributeType) throws(XcodeModelValueError) -> AttributeValue {
        let fail = XcodeModelValueError("default value '\(text)' is not a valid \(type.rawValue) value")
        switch type {
        case .integer16, .integer32, .integer64:
            guard let integer = integer(text) else { throw fail }
            return .integer(integer)
        case .decimal:
            guard let decimal = decimal(text) else { throw fail }
            return .decimal(decimal)
        case .double, .float:
            guard let number = number(text) else { throw fail }
            return .double(number)
        case .string:
            return .string(text)
        case .boolean:
            guard let bool = boolean(text) else { throw fail }
            return .boolean(bool)
        case .date:
            return .date(try referenceDate(text, label: "default date"))
        case .uuid:
            guard let uuid = UUID(uuidString: text.trimmed) else { throw fail }
            return .uuid(uuid)
        case .uri:
            guard let url = URL(string: text.trimmed) else { throw fail }
            return .uri(url)
        case .binary, .transformable:
            throw XcodeModelValueError("default values are not supported for \(type.rawValue) attributes")
        }
    }

    /// The rules from `minValueString`/`maxValueString` (value, length or reference-date seconds by
    /// type), `minDateTimeInterval`/`maxDateTimeInterval` and `regularExpressionString`.
    private static func validationRules(of element: XcodeModelElement, type: AttributeType) throws(XcodeModelValueError)
        -> ValidationRules
    {
        var rules = ValidationRules()
        let minimum = bound("min", in: element, type: type)
        let maximum = bound("max", in: element, type: type)
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            if let minimum { rules.minimum = try limit(minimum, label: "minimum value") }
            if let maximum { rules.maximum = try limit(maximum, label: "maximum value") }
        case .string, .binary:
            if let minimum { rules.minimumLength = try length(minimum, label: "minimum length") }
            if let maximum { rules.maximumLength = try length(maximum, label: "maximum length") }
        case .date:
            if let minimum { rules.earliestDate = try referenceDate(minimum, label: "earliest date") }
            if let maximum { rules.latestDate = try referenceDate(maximum, label: "latest date") }
        case .boolean, .uuid, .uri, .transformable:
            if minimum != nil || maximum != nil {
                throw XcodeModelValueError("minimum/maximum rules are not supported for \(type.rawValue) attributes")
            }
        }
        if let pattern = element["regularExpressionString"], !pattern.isEmpty {
            rules.pattern = pattern
        }
        return rules
    }

    /// A non-empty `minValueString` or `maxValueString` (`prefix` is "min" or "max"), or for dates
    /// the `minDateTimeInterval`/`maxDateTimeInterval` Xcode writes instead, when present.
    private static func bound(_ prefix: String, in element: XcodeModelElement, type: AttributeType) -> String? {
        let value = (type == .date ? element[prefix + "DateTimeInterval"] : nil) ?? element[prefix + "ValueString"]
        return value.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func limit(_ text: String, label: String) throws(XcodeModelValueError) -> Double {
        guard let value = number(text) else { throw XcodeModelValueError("\(label) '\(text)' is not a number") }
        return value
    }

    private static func length(_ text: String, label: String) throws(XcodeModelValueError) -> Int {
        guard let value = Int(text.trimmed) else {
            throw XcodeModelValueError("\(label) '\(text)' is not a whole number")
        }
        return value
    }

    /// A date written as seconds since 2001-01-01T00:00:00Z (Xcode's reference date).
    private static func referenceDate(_ text: String, label: String) throws(XcodeModelValueError) -> Date {
        guard let seconds = number(text) else {
            throw XcodeModelValueError("\(label) '\(text)' is not a number of seconds since 2001-01-01")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// A whole number, also when written with a zero fraction (`3.0`).
    private static func integer(_ text: String) -> Int64? {
        if let value = Int64(text.trimmed) { return value }
        guard let value = number(text), value.rounded() == value, abs(value) < 9.2e18 else { return nil }
        return Int64(value)
    }

    /// A finite decimal number in POSIX notation.
    private static func number(_ text: String) -> Double? {
        let trimmed = text.trimmed
        guard isDecimalNotation(trimmed), let value = Double(trimmed), value.isFinite else {
            return nil
        }
        return value
    }

    /// An exact decimal in POSIX notation.
    private static func decimal(_ text: String) -> Decimal? {
        let trimmed = text.trimmed
        guard isDecimalNotation(trimmed) else { return nil }
        return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// `YES`/`NO` as Xcode writes them; `true`/`false` and `1`/`0` are accepted too.
    private static func boolean(_ text: String) -> Bool? {
        switch text.trimmed.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    /// Whether `text` is an optional sign, digits with an optional fraction, and an optional
    /// exponent (no hexadecimal, no `inf` or `nan`, no grouping).
    private static func isDecimalNotation(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func take(_ accepts: (UInt8) -> Bool) -> Bool {
            guard index < bytes.count, accepts(bytes[index]) else { return false }
            index += 1
            return true
        }
        func digits() -> Int {
            var count = 0
            while take({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { count += 1 }
            return count
        }
        let isSign: (UInt8) -> Bool = { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
        _ = take(isSign)
        var count = digits()
        if take({ $0 == UInt8(ascii: ".") }) { count += digits() }
        guard count > 0 else { return false }
        if take({ $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            _ = take(isSign)
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}

extension String {
    /// The string without leading and trailing white space.
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
