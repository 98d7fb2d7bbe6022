// The order of attribute values, exactly as SQLite orders their stored representations (docs/StoreFormat.md):
// numbers numerically (integers exactly against doubles, decimals as doubles, Booleans as 0/1),
// strings and URIs by UTF-8 bytes, dates by seconds, bytes and UUIDs like memcmp.
// Invariant: `compare` agrees with the SQL that `FetchQueryBuilder` generates for the same values.
import Foundation

/// Compares attribute values of one ``ValueFamily``.
enum ValueOrder {
    /// -1, 0 or 1 as `lhs` sorts before, with or after `rhs`; nil when their families differ.
    static func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Int? {
        if let a = lhs.predicateText, let b = rhs.predicateText { return compareBytes(a.utf8, b.utf8) }
        switch (lhs, rhs) {
        case (.date(let a), .date(let b)): return compareReals(a.timeIntervalSince1970, b.timeIntervalSince1970)
        case (.binary(let a), .binary(let b)): return compareBytes(a, b)
        case (.uuid(let a), .uuid(let b)): return compareBytes(bytes(of: a), bytes(of: b))
        default:
            guard let a = NumericValue(lhs), let b = NumericValue(rhs) else { return nil }
            return a.compare(b)
        }
    }

    /// Lexicographic order of two byte sequences; a proper prefix sorts first.
    static func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ lhs: A, _ rhs: B) -> Int {
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?) where a != b: return a < b ? -1 : 1
            default: continue
            }
        }
    }

    static func compareReals(_ lhs: Double, _ rhs: Double) -> Int {
        lhs < rhs ? -1 : (lhs > rhs ? 1 : 0)
    }

    /// The 16 bytes of a UUID, as the store keeps them.
    static func bytes(of uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }
}

/// A number as SQLite holds it: a 64-bit integer or a double.
enum NumericValue: Equatable {
    case integer(Int64)
    case real(Double)

    /// The number a numeric value is stored as (Boolean → 0/1, decimal → the double its text
    /// reads as, which is what `CAST(text AS REAL)` gives); nil for non-numeric values.
    init?(_ value: AttributeValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .boolean(let bool): self = .integer(bool ? 1 : 0)
        case .double(let double): self = .real(double)
        case .decimal(let decimal): self = .real(Self.double(from: decimal))
        default: return nil
        }
    }

    /// A decimal as a double, read from its text so it rounds the way SQLite reads the stored text.
    static func double(from decimal: Decimal) -> Double {
        Double(decimal.description) ?? NSDecimalNumber(decimal: decimal).doubleValue
    }

    /// The value to bind in SQL for this number.
    var attributeValue: AttributeValue {
        switch self {
        case .integer(let integer): .integer(integer)
        case .real(let real): .double(real)
        }
    }

    /// -1, 0 or 1; integers compare exactly with doubles, as in SQLite.
    func compare(_ other: NumericValue) -> Int {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): a < b ? -1 : (a > b ? 1 : 0)
        case (.real(let a), .real(let b)): ValueOrder.compareReals(a, b)
        case (.integer(let a), .real(let b)): Self.compare(a, b)
        case (.real(let a), .integer(let b)): -Self.compare(b, a)
        }
    }

    /// An integer against a double, without rounding the integer.
    private static func compare(_ integer: Int64, _ real: Double) -> Int {
        if real.isNaN { return 1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        let whole = real.rounded(.down)
        let truncated = Int64(whole)
        if integer != truncated { return integer < truncated ? -1 : 1 }
        return real > whole ? -1 : 0
    }
}
