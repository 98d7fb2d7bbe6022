// The arithmetic of collection operators on attribute values, as SQLite's aggregates compute
// it: SUM stays an integer while every value is one (a Decimal or Double makes it a Double),
// AVG is a Double, MIN and MAX follow `ValueOrder`.
// Invariant: the same results as `SUM`, `AVG`, `MIN` and `MAX` over the stored values.

/// Sums, means and extremes of the non-nil values of a collection.
enum CollectionAggregate {
    /// The sum; nil for no values.
    static func sum(_ values: [AttributeValue], path: String) throws -> AttributeValue? {
        guard !values.isEmpty else { return nil }
        var integer: Int64? = 0
        var real = 0.0
        for value in values {
            guard let number = NumericValue(value) else { throw mismatch(value, path: path) }
            switch number {
            case .integer(let addend):
                real += Double(addend)
                if let total = integer {
                    let (next, overflow) = total.addingReportingOverflow(addend)
                    integer = overflow ? nil : next
                }
            case .real(let addend):
                real += addend
                integer = nil
            }
        }
        return integer.map(AttributeValue.integer) ?? .double(real)
    }

    /// The mean, as a Double; nil for no values.
    static func average(_ values: [AttributeValue], path: String) throws -> AttributeValue? {
        var total = 0.0
        for value in values {
            guard let number = NumericValue(value) else { throw mismatch(value, path: path) }
            switch number {
            case .integer(let integer): total += Double(integer)
            case .real(let real): total += real
            }
        }
        return values.isEmpty ? nil : .double(total / Double(values.count))
    }

    /// The smallest (or largest) value; nil for no values. A Decimal is compared (and returned)
    /// as the Double the store computes with.
    static func extreme(_ values: [AttributeValue], path: String, keepingSmaller: Bool) throws -> AttributeValue? {
        var best: AttributeValue?
        for value in values {
            let candidate: AttributeValue =
                if case .decimal(let decimal) = value {
                    .double(NumericValue.double(from: decimal))
                } else {
                    value
                }
            guard let current = best else {
                best = candidate
                continue
            }
            guard let order = ValueOrder.compare(candidate, current) else { throw mismatch(candidate, path: path) }
            if keepingSmaller ? order < 0 : order > 0 { best = candidate }
        }
        return best
    }

    private static func mismatch(_ value: AttributeValue, path: String) -> FetchError {
        .typeMismatch(keyPath: path, expected: "numbers", found: value.kindName)
    }
}
