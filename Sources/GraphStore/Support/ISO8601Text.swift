// Fast ISO 8601 date text without Foundation's formatter (≈25 µs per date on Linux, docs/Performance.md).
// Invariant: `string(from:)` output is always accepted by `date(from:)` and round-trips to the
// same millisecond; output is UTC with a `Z` suffix and milliseconds only when non-zero.
import Foundation

/// Formats and parses ISO 8601 / RFC 3339 timestamps.
///
/// ```swift
/// let date = ISO8601Text.date(from: "2026-11-22T10:15:00Z")
/// ISO8601Text.string(from: date!)   // "2026-11-22T10:15:00Z"
/// ```
public enum ISO8601Text {
    /// Formats `date` as `yyyy-MM-ddTHH:mm:ss[.SSS]Z` in UTC.
    public static func string(from date: Date) -> String {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard totalMilliseconds.isFinite, abs(totalMilliseconds) < 2.5e14 else {
            return String(date.timeIntervalSince1970)
        }
        let milliseconds = Int64(totalMilliseconds)
        let days = milliseconds.floorDivided(by: 86_400_000)
        let millisecondOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        let second = millisecondOfDay / 1000
        let fraction = millisecondOfDay % 1000
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(second / 3600, 2) + ":" + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
        if fraction != 0 { text += "." + pad(fraction, 3) }
        return text + "Z"
    }

    /// Parses `yyyy-MM-dd`, `yyyy-MM-ddTHH:mm[:ss[.fraction]]` with an optional `Z` or `±HH[:]MM`
    /// offset (no offset means UTC); a space may stand for `T`. Returns `nil` when the text is not one.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// Parses ISO 8601 text given as UTF-8 bytes; see ``date(from:)``.
    public static func date(fromUTF8 bytes: UnsafeRawBufferPointer) -> Date? {
        var scanner = DigitScanner(bytes: bytes)
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year)
        else { return nil }
        var seconds = Double(CivilCalendar.days(year: year, month: month, day: day) * 86_400)
        if scanner.isAtEnd { return Date(timeIntervalSince1970: seconds) }
        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: " ")),
            let hour = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
            let minute = scanner.number(digits: 2), hour < 24, minute < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if scanner.take(UInt8(ascii: ":")) {
            guard let second = scanner.number(digits: 2), second < 61 else { return nil }
            seconds += Double(second)
            if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                guard let fraction = scanner.fraction() else { return nil }
                seconds += fraction
            }
        }
        if scanner.isAtEnd || scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
            return scanner.isAtEnd ? Date(timeIntervalSince1970: seconds) : nil
        }
        let sign: Double
        if scanner.take(UInt8(ascii: "+")) {
            sign = 1
        } else if scanner.take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        guard let offsetHours = scanner.number(digits: 2), offsetHours < 24 else { return nil }
        _ = scanner.take(UInt8(ascii: ":"))
        let offsetMinutes = scanner.isAtEnd ? 0 : scanner.number(digits: 2)
        guard let offsetMinutes, offsetMinutes < 60, scanner.isAtEnd else { return nil }
        seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
        return Date(timeIntervalSince1970: seconds)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}

/// Reads fixed-width decimal numbers and fractions from UTF-8 bytes.
private struct DigitScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for offset in 0..<digits {
            let digit = bytes[index + offset] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        index += digits
        return value
    }

    mutating func fraction() -> Double? {
        var value = 0.0
        var scale = 0.1
        let start = index
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            value += Double(digit) * scale
            scale /= 10
            index += 1
        }
        return index > start ? value : nil
    }
}

/// Proleptic Gregorian calendar arithmetic on day numbers since 1970-01-01.
enum CivilCalendar {
    /// Days from 1970-01-01 to the given date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = adjustedYear.floorDivided(by: 400)
        let yearOfEra = adjustedYear - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The number of days in `month` of `year`.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
