// A date pattern such as `dd/MM/yyyy HH:mm`, compiled once into steps that match UTF-8 bytes.
// Invariants: a compiled pattern has exactly one year, month and day field, at most one of each
// other field, a 12-hour hour (h, hh) exactly when it has an AM/PM marker (a), and at most one
// zone; a match is a real calendar date (no February 30), in UTC unless the pattern has a zone.
import Foundation
import GraphStore

/// A compiled date pattern (tokens: yyyy yy MM M dd d HH H hh h mm m ss s S… a Z XXX z, quoted
/// literals `'T'`, `''` for a quote; any other non-letter is a literal).
struct DatePattern: Sendable {
    /// The pattern as written.
    let text: String
    private let steps: [Step]

    /// What one part of a pattern matches.
    private enum Step: Sendable, Equatable {
        /// Exactly this byte.
        case literal(UInt8)
        /// A field of `minimumDigits`…`maximumDigits` ASCII digits (greedy).
        case number(Field, minimumDigits: Int, maximumDigits: Int)
        /// Exactly `digits` digits of a fraction of a second.
        case fraction(digits: Int)
        /// `AM` or `PM`, any case.
        case meridiem
        /// `Z`, or an offset `±HHMM` (`extended`: `±HH:MM`).
        case zone(extended: Bool)
        /// A zone as Apple's `z` reads it when it is not ambiguous: `GMT` or `UTC` (any case)
        /// with an optional offset (`GMT+1`, `GMT-08:00`), `Z`, or `±HHMM` / `±HH:MM`.
        case zoneName
    }

    /// A numeric field.
    private enum Field: Sendable, Equatable {
        case year, shortYear, month, day, hour, hour12, minute, second
    }

    /// Compiles `text`.
    init(parsing text: String) throws(CoercionSetupError) {
        self.text = text
        let bytes = Array(text.utf8)
        var steps: [Step] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                index += 1
                steps += try Self.quotedLiteral(bytes, from: &index, in: text)
            } else if (byte | 0x20) &- UInt8(ascii: "a") < 26 {
                var end = index + 1
                while end < bytes.count, bytes[end] == byte { end += 1 }
                steps.append(try Self.step(letter: byte, count: end - index, in: text))
                index = end
            } else {
                steps.append(.literal(byte))
                index += 1
            }
        }
        try Self.check(steps, in: text)
        self.steps = steps
    }

    /// The date `bytes` stand for.
    func date(from bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> Date {
        var parts = Parts()
        var index = 0
        for step in steps {
            switch step {
            case .literal(let byte):
                guard index < bytes.count, bytes[index] == byte else { throw .syntax }
                index += 1
            case .number(let field, let minimumDigits, let maximumDigits):
                parts.set(field, try Self.number(bytes, &index, minimumDigits, maximumDigits))
            case .fraction(let digits):
                var scale = 1.0
                for _ in 0..<digits { scale *= 10 }
                parts.fraction = Double(try Self.number(bytes, &index, digits, digits)) / scale
            case .meridiem:
                guard index + 2 <= bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "m") else { throw .syntax }
                switch bytes[index] | 0x20 {
                case UInt8(ascii: "a"): parts.isAfternoon = false
                case UInt8(ascii: "p"): parts.isAfternoon = true
                default: throw .syntax
                }
                index += 2
            case .zone(let extended):
                parts.offset = try Self.offset(bytes, &index, extended: extended)
            case .zoneName:
                parts.offset = try Self.namedOffset(bytes, &index)
            }
        }
        guard index == bytes.count else { throw .syntax }
        return try parts.date()
    }

    // MARK: - Compiling

    private static let supportedTokens = "yyyy yy MM M dd d HH H hh h mm m ss s S… a Z XXX z"

    /// The step of a run of `count` copies of `letter`.
    private static func step(letter: UInt8, count: Int, in text: String) throws(CoercionSetupError) -> Step {
        if let field = field(letter), count <= 2 {
            return .number(field, minimumDigits: count, maximumDigits: 2)
        }
        switch (letter, count) {
        case (UInt8(ascii: "y"), 4): return .number(.year, minimumDigits: 4, maximumDigits: 4)
        case (UInt8(ascii: "y"), 2): return .number(.shortYear, minimumDigits: 2, maximumDigits: 2)
        case (UInt8(ascii: "S"), 1...9): return .fraction(digits: count)
        case (UInt8(ascii: "a"), 1): return .meridiem
        case (UInt8(ascii: "Z"), 1): return .zone(extended: false)
        case (UInt8(ascii: "X"), 3): return .zone(extended: true)
        case (UInt8(ascii: "z"), 1...4): return .zoneName
        default:
            let token = String(repeating: Character(Unicode.Scalar(letter)), count: count)
            let known = "yMdHhmsSaZXz".utf8.contains(letter)
            throw CoercionSetupError(
                "\(known ? "unsupported" : "unknown") date pattern token '\(token)' in \(CoercionError.quoted(text))"
                    + " (supported: \(supportedTokens))")
        }
    }

    /// The one- or two-digit field a pattern letter stands for.
    private static func field(_ letter: UInt8) -> Field? {
        switch letter {
        case UInt8(ascii: "M"): .month
        case UInt8(ascii: "d"): .day
        case UInt8(ascii: "H"): .hour
        case UInt8(ascii: "h"): .hour12
        case UInt8(ascii: "m"): .minute
        case UInt8(ascii: "s"): .second
        default: nil
        }
    }

    /// The literal steps of a quoted text; `index` is just past the opening quote, and moves past
    /// the closing one. `''` right after the opening quote, or inside, is a quote.
    private static func quotedLiteral(_ bytes: [UInt8], from index: inout Int, in text: String)
        throws(CoercionSetupError)
        -> [Step]
    {
        let quote = UInt8(ascii: "'")
        if index < bytes.count, bytes[index] == quote {
            index += 1
            return [.literal(quote)]
        }
        var steps: [Step] = []
        while index < bytes.count {
            if bytes[index] == quote {
                guard index + 1 < bytes.count, bytes[index + 1] == quote else {
                    index += 1
                    return steps
                }
                index += 1
            }
            steps.append(.literal(bytes[index]))
            index += 1
        }
        throw CoercionSetupError("unterminated quote in date pattern \(CoercionError.quoted(text))")
    }

    /// Checks that `steps` name each field at most once, and year, month and day exactly once.
    private static func check(_ steps: [Step], in text: String) throws(CoercionSetupError) {
        let groups = steps.compactMap { step -> String? in
            switch step {
            case .literal: nil
            case .number(.year, _, _), .number(.shortYear, _, _): "year"
            case .number(.month, _, _): "month"
            case .number(.day, _, _): "day"
            case .number(.hour, _, _), .number(.hour12, _, _): "hour"
            case .number(.minute, _, _): "minute"
            case .number(.second, _, _): "second"
            case .fraction: "fraction of a second"
            case .meridiem: "AM/PM marker"
            case .zone, .zoneName: "zone"
            }
        }
        let quoted = CoercionError.quoted(text)
        for group in Set(groups) where groups.count(where: { $0 == group }) > 1 {
            throw CoercionSetupError("date pattern \(quoted) has more than one \(group) field")
        }
        for group in ["year", "month", "day"] where !groups.contains(group) {
            throw CoercionSetupError("date pattern \(quoted) has no \(group) field")
        }
        let hasHour12 = steps.contains { if case .number(.hour12, _, _) = $0 { true } else { false } }
        if hasHour12 != steps.contains(.meridiem) {
            throw CoercionSetupError(
                "date pattern \(quoted) must use a 12-hour hour (h or hh) together with an AM/PM marker (a)")
        }
    }

    // MARK: - Matching

    /// `minimumDigits`…`maximumDigits` ASCII digits at `index` (as many as there are), as a number.
    private static func number(
        _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ minimumDigits: Int, _ maximumDigits: Int
    ) throws(CoercionProblem) -> Int {
        var value = 0
        var count = 0
        while count < maximumDigits, index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"),
            digit < 10
        {
            value = value * 10 + Int(digit)
            count += 1
            index += 1
        }
        guard count >= minimumDigits else { throw .syntax }
        return value
    }

    /// A zone at `index`: `Z` (any case) or `±HHMM` (`extended`: `±HH:MM`), as seconds east of UTC.
    private static func offset(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, extended: Bool)
        throws(CoercionProblem) -> Int
    {
        guard index < bytes.count else { throw .syntax }
        let sign = bytes[index]
        index += 1
        if sign | 0x20 == UInt8(ascii: "z") { return 0 }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { throw .syntax }
        let hours = try number(bytes, &index, 2, 2)
        if extended {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw .syntax }
            index += 1
        }
        let minutes = try number(bytes, &index, 2, 2)
        guard hours < 24, minutes < 60 else {
            throw .invalid("offset \(padded(hours, 2)):\(padded(minutes, 2)) does not exist")
        }
        let seconds = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// A zone name at `index` (see ``Step/zoneName``), as seconds east of UTC.
    private static func namedOffset(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int)
        throws(CoercionProblem) -> Int
    {
        let name =
            index + 3 <= bytes.count ? String(decoding: bytes[index..<index + 3], as: UTF8.self).uppercased() : ""
        guard name == "GMT" || name == "UTC" else {
            let extended = index + 3 < bytes.count && bytes[index + 3] == UInt8(ascii: ":")
            return try offset(bytes, &index, extended: extended)
        }
        index += 3
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else {
            return 0
        }
        let sign = bytes[index]
        index += 1
        let hours = try number(bytes, &index, 1, 2)
        var minutes = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
        if index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { minutes = try number(bytes, &index, 2, 2) }
        guard hours < 24, minutes < 60 else {
            throw .invalid("offset \(padded(hours, 2)):\(padded(minutes, 2)) does not exist")
        }
        let seconds = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// `value` in decimal with leading zeros to `width` digits, for messages.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// The fields a match found; unmatched ones keep their defaults (midnight, UTC).
    private struct Parts {
        var year = 0
        var month = 0
        var day = 0
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        /// Nil on a 24-hour clock.
        var isAfternoon: Bool?
        var offset = 0

        mutating func set(_ field: Field, _ value: Int) {
            switch field {
            case .year: year = value
            // The POSIX strptime window: 69…99 are 1969…1999, 00…68 are 2000…2068.
            case .shortYear: year = value < 69 ? 2000 + value : 1900 + value
            case .month: month = value
            case .day: day = value
            case .hour, .hour12: hour = value
            case .minute: minute = value
            case .second: second = value
            }
        }

        /// The date, if every field is in range and the day exists in its month.
        func date() throws(CoercionProblem) -> Date {
            guard (1...12).contains(month) else { throw .invalid("month \(month) does not exist") }
            var hour = hour
            if let isAfternoon {
                guard (1...12).contains(hour) else { throw .invalid("hour \(hour) does not exist on a 12-hour clock") }
                hour = hour % 12 + (isAfternoon ? 12 : 0)
            }
            guard hour < 24 else { throw .invalid("hour \(hour) does not exist") }
            guard minute < 60 else { throw .invalid("minute \(minute) does not exist") }
            guard second < 60 else { throw .invalid("second \(second) does not exist") }
            guard let midnight = midnight() else {
                throw .invalid(
                    "day \(day) does not exist in \(DatePattern.padded(year, 4))-\(DatePattern.padded(month, 2))")
            }
            let seconds = Double(hour * 3600 + minute * 60 + second - offset) + fraction
            return midnight.addingTimeInterval(seconds)
        }

        /// Midnight UTC of the day, or nil when the day does not exist. The calendar arithmetic
        /// is GraphStore's: the day is handed to its ISO 8601 parser as `yyyy-MM-dd`.
        private func midnight() -> Date? {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
                Self.write(year, width: 4, into: text, at: 0)
                text[4] = UInt8(ascii: "-")
                Self.write(month, width: 2, into: text, at: 5)
                text[7] = UInt8(ascii: "-")
                Self.write(day, width: 2, into: text, at: 8)
                return ISO8601Text.date(fromUTF8: UnsafeRawBufferPointer(text))
            }
        }

        /// Writes the last `width` decimal digits of `value` at `start`.
        private static func write(_ value: Int, width: Int, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int)
        {
            var rest = value
            for position in (start..<start + width).reversed() {
                text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
    }
}
