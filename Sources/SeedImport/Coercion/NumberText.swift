// Decimal numbers written as UTF-8 text, converted to Int64, Double and Decimal without building a
// String (docs/Performance.md: ~7M values per import run).
// Invariants: `init(scanning:)` accepts exactly `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
// — no white space, NaN, infinity, hex or digit separators; integer and decimal conversions are
// exact or throw, never round; Double is the correctly rounded nearest value.
import Foundation

/// The parts of a decimal number in text: sign, integer and fraction digits, exponent.
struct NumberText {
    /// The largest exponent kept; anything beyond is out of every type's range anyway.
    private static let exponentLimit = 1_000_000

    private let bytes: UnsafeBufferPointer<UInt8>
    private let isNegative: Bool
    private let integerDigits: Range<Int>
    private let fractionDigits: Range<Int>
    private let exponent: Int

    /// The number written in `bytes`, or nil when they are not a decimal number.
    init?(scanning bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative || bytes.first == UInt8(ascii: "+") { index += 1 }
        integerDigits = Self.digits(in: bytes, from: &index)
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = Self.digits(in: bytes, from: &index)
        } else {
            fractionDigits = index..<index
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else { return nil }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            let isNegativeExponent = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count, isNegativeExponent || bytes[index] == UInt8(ascii: "+") { index += 1 }
            let exponentDigits = Self.digits(in: bytes, from: &index)
            guard !exponentDigits.isEmpty else { return nil }
            for position in exponentDigits {
                exponent = min(exponent * 10 + Int(bytes[position] &- UInt8(ascii: "0")), Self.exponentLimit)
            }
            if isNegativeExponent { exponent = -exponent }
        }
        guard index == bytes.count else { return nil }
        self.bytes = bytes
        self.exponent = exponent
    }

    // MARK: - Conversions

    /// The integer written in `bytes` (see ``integer()``).
    static func integer(in bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> Int64 {
        if let value = simpleInteger(bytes) { return value }
        guard let number = NumberText(scanning: bytes) else { throw .syntax }
        return try number.integer()
    }

    /// The Double written in `bytes` (see ``double()``).
    static func double(in bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> Double {
        if let value = simpleDouble(bytes) { return value }
        guard let number = NumberText(scanning: bytes) else {
            throw nonFiniteNames.contains(bytes) ? .invalid("NaN and infinity are not accepted") : .syntax
        }
        return number.double()
    }

    /// Texts that other parsers read as NaN or infinity, named in the error message.
    private static let nonFiniteNames = ByteWords(
        ["nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"], foldsCase: true)

    /// The Decimal written in `bytes` (see ``decimal()``).
    static func decimal(in bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> Decimal {
        guard let number = NumberText(scanning: bytes) else { throw .syntax }
        return try number.decimal()
    }

    /// An integer written as plain digits with an optional sign, up to 18 digits: the common case,
    /// read in one pass. Nil for anything else (which ``integer()`` handles).
    private static func simpleInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let isNegative = bytes.first == UInt8(ascii: "-")
        let start = isNegative || bytes.first == UInt8(ascii: "+") ? 1 : 0
        guard bytes.count > start, bytes.count - start <= 18 else { return nil }
        var value: Int64 = 0
        for index in start..<bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
        }
        return isNegative ? -value : value
    }

    /// A number written as digits with an optional sign and decimal point, up to 15 digits: the
    /// common case (prices, measures), read in one pass. Nil for anything else (which ``double()``
    /// handles). Exact: the digits are below 2^53 and the power of ten at most 10^15, so the one
    /// division rounds correctly.
    private static func simpleDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let isNegative = bytes.first == UInt8(ascii: "-")
        let start = isNegative || bytes.first == UInt8(ascii: "+") ? 1 : 0
        guard bytes.count > start, bytes.count - start <= 16 else { return nil }
        var digits: UInt64 = 0
        var pointIndex: Int?
        for index in start..<bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            if digit < 10 {
                digits = digits &* 10 &+ UInt64(digit)
            } else if bytes[index] == UInt8(ascii: "."), pointIndex == nil {
                pointIndex = index
            } else {
                return nil
            }
        }
        let digitCount = bytes.count - start - (pointIndex == nil ? 0 : 1)
        guard digitCount > 0, digitCount <= 15 else { return nil }
        var power = 1.0
        for _ in 0..<(pointIndex.map { bytes.count - 1 - $0 } ?? 0) { power *= 10 }
        let magnitude = Double(digits) / power
        return isNegative ? -magnitude : magnitude
    }

    /// The number as an integer: `3.0` and `1e3` are integers, `3.5` is not.
    func integer() throws(CoercionProblem) -> Int64 {
        guard let significand else { return 0 }
        guard significand.scale >= 0 else { throw .invalid("it has a fractional part") }
        // Fewer than 20 digits in all: below 10^19 < 2^64, so the magnitude cannot overflow.
        guard significand.count + significand.scale <= 19 else { throw .outOfRange }
        var magnitude = accumulate(significand.first...significand.last)
        for _ in 0..<significand.scale { magnitude *= 10 }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw .outOfRange }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw .outOfRange }
        return Int64(magnitude)
    }

    /// The nearest Double; infinite when the number is beyond Double's range.
    func double() -> Double {
        guard let significand else { return isNegative ? -0.0 : 0.0 }
        // Clinger's fast path: a significand below 2^53 and a power of ten below 10^23 are both
        // exact Doubles, so one multiplication or division rounds correctly.
        if significand.count <= 15, abs(significand.scale) <= 22 {
            var power = 1.0
            for _ in 0..<abs(significand.scale) { power *= 10 }
            let value = Double(accumulate(significand.first...significand.last))
            let magnitude = significand.scale < 0 ? value / power : value * power
            return isNegative ? -magnitude : magnitude
        }
        // The syntax is checked already, so the standard library's parser accepts the text.
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// The number as an exact Decimal: at most 38 significant digits and an exponent Decimal holds.
    func decimal() throws(CoercionProblem) -> Decimal {
        guard let significand else { return Decimal.zero }
        guard significand.count <= 38 else { throw .tooManyDigits }
        guard (-128...127).contains(significand.scale) else { throw .outOfRange }
        // Up to 19 digits fit a UInt64; a longer significand is high × 10^19 + low, exact in Decimal.
        let lowStart = max(significand.first, significand.last - 18)
        var digits = Decimal(accumulate(lowStart...significand.last))
        if lowStart > significand.first {
            let high = Decimal(accumulate(significand.first...(lowStart - 1)))
            digits += Decimal(sign: .plus, exponent: 19, significand: high)
        }
        return Decimal(sign: isNegative ? .minus : .plus, exponent: significand.scale, significand: digits)
    }

    // MARK: - Digits

    /// The non-zero part of the digits: the positions of its first and last digit among all the
    /// digits (integer then fraction), and the power of ten of its last digit.
    private struct Significand {
        let first: Int
        let last: Int
        let scale: Int

        var count: Int { last - first + 1 }
    }

    /// The significand, or nil when the number is zero.
    private var significand: Significand? {
        let total = integerDigits.count + fractionDigits.count
        guard let first = (0..<total).first(where: { digit(at: $0) != 0 }),
            let last = (0..<total).last(where: { digit(at: $0) != 0 })
        else { return nil }
        return Significand(first: first, last: last, scale: integerDigits.count - 1 - last + exponent)
    }

    /// The value of the digit at `position` among all the digits (integer then fraction).
    private func digit(at position: Int) -> UInt8 {
        let index =
            position < integerDigits.count
            ? integerDigits.lowerBound + position : fractionDigits.lowerBound + position - integerDigits.count
        return bytes[index] &- UInt8(ascii: "0")
    }

    /// The digits at `positions` (at most 19) as an integer.
    private func accumulate(_ positions: ClosedRange<Int>) -> UInt64 {
        positions.reduce(0) { $0 * 10 + UInt64(digit(at: $1)) }
    }

    /// The run of ASCII digits starting at `index`; moves `index` past it.
    private static func digits(in bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Range<Int> {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return start..<index
    }
}
