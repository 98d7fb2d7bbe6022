// The model's rules for one attribute value: required, numeric range, length, pattern, date
// range. Saves check objects with it; bulk writers check rows with it before writing them.
import Foundation

/// Checks attribute values against their attributes' validation rules, caching compiled
/// patterns.
///
/// ```swift
/// var checker = AttributeRuleChecker()
/// let broken = try checker.violations(of: .string("x"), attribute: nameAttribute)  // [.minimumLength(2)]
/// ```
public struct AttributeRuleChecker {
    private var patterns: [String: Regex<AnyRegexOutput>] = [:]

    /// A checker with an empty pattern cache.
    public init() {}

    /// The rules `value` breaks as the value of `attribute` (`.required` for a missing value of
    /// a stored non-optional attribute).
    ///
    /// - Throws: an error when the attribute's pattern is not a valid regular expression.
    public mutating func violations(of value: AttributeValue?, attribute: ModelAttribute) throws -> [ValidationRule] {
        guard let value else { return !attribute.isOptional && !attribute.isTransient ? [.required] : [] }
        let rules = attribute.declaration.validation
        guard !rules.isEmpty else { return [] }
        var violations: [ValidationRule] = []
        if let number = Self.number(value) {
            if let minimum = rules.minimum, number < minimum { violations.append(.minimum(minimum)) }
            if let maximum = rules.maximum, number > maximum { violations.append(.maximum(maximum)) }
        }
        let length: Int? =
            switch value {
            case .string(let string): string.count
            case .binary(let data): data.count
            default: nil
            }
        if let length {
            if let minimum = rules.minimumLength, length < minimum { violations.append(.minimumLength(minimum)) }
            if let maximum = rules.maximumLength, length > maximum { violations.append(.maximumLength(maximum)) }
        }
        if let pattern = rules.pattern, case .string(let string) = value {
            if try string.wholeMatch(of: regex(pattern)) == nil { violations.append(.pattern(pattern)) }
        }
        if case .date(let date) = value {
            if let earliest = rules.earliestDate, date < earliest {
                violations.append(.earliestDate(ISO8601Text.string(from: earliest)))
            }
            if let latest = rules.latestDate, date > latest {
                violations.append(.latestDate(ISO8601Text.string(from: latest)))
            }
        }
        return violations
    }

    private mutating func regex(_ pattern: String) throws -> Regex<AnyRegexOutput> {
        if let compiled = patterns[pattern] { return compiled }
        let compiled = try Regex(pattern)
        patterns[pattern] = compiled
        return compiled
    }

    private static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        case .decimal(let decimal): NSDecimalNumber(decimal: decimal).doubleValue
        default: nil
        }
    }
}
