// How a date attribute's values are written (`date:` in a plan), compiled once per mapping.
// Invariant: epoch dates lie in years 0000…9999 (UTC), the range four-digit ISO 8601 text (what
// the store's export writes) covers; patterns and ISO 8601 text have four-digit years by construction.
import Foundation
import GraphStore
import RecordReaders

/// A date format: ISO 8601, seconds or milliseconds since 1970, or a pattern.
enum DateFormat: Sendable {
    /// `yyyy-MM-dd`, `yyyy-MM-ddTHH:mm[:ss[.fraction]]` with `Z` or `±HH[:]MM` (UTC when absent);
    /// also MagicalRecord's default `yyyy-MM-dd'T'HH:mm:ssz` (`2026-11-22T10:15:00GMT`).
    case iso8601
    /// Seconds since 1970-01-01T00:00:00Z, fraction and exponent allowed.
    case epochSeconds
    /// Whole milliseconds since 1970-01-01T00:00:00Z.
    case epochMilliseconds
    /// A pattern such as `dd/MM/yyyy HH:mm`.
    case pattern(DatePattern)

    /// Seconds since 1970 of 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: four-digit years.
    private static let supportedSeconds = -62_167_219_200.0..<253_402_300_800.0

    /// The format named by a mapping's `date:` option (ISO 8601 when nil).
    init(_ text: String?) throws(CoercionSetupError) {
        switch text {
        case nil, "iso8601": self = .iso8601
        case "epoch": self = .epochSeconds
        case "epoch-ms": self = .epochMilliseconds
        case let pattern?: self = .pattern(try DatePattern(parsing: pattern))
        }
    }

    /// The format as written in a plan, for messages.
    var name: String {
        switch self {
        case .iso8601: "iso8601"
        case .epochSeconds: "epoch"
        case .epochMilliseconds: "epoch-ms"
        case .pattern(let pattern): pattern.text
        }
    }

    /// MagicalRecord's default pattern, which ISO 8601 text falls back to.
    private static let magicalRecordDefault = try? DatePattern(parsing: "yyyy-MM-dd'T'HH:mm:ssz")

    /// The date written in `bytes`; `kind` `.number` (a JSON number) is seconds since 1970
    /// unless the format is `epoch-ms`.
    func date(from bytes: UnsafeBufferPointer<UInt8>, kind: ValueKind) throws(CoercionProblem) -> Date {
        switch self {
        case .iso8601 where kind == .number, .pattern where kind == .number:
            return try Self.epochSeconds.date(from: bytes, kind: .text)
        case .iso8601:
            if let date = ISO8601Text.date(fromUTF8: UnsafeRawBufferPointer(bytes)) { return date }
            guard let date = try? Self.magicalRecordDefault?.date(from: bytes) else { throw .syntax }
            return date
        case .epochSeconds:
            return try Self.checked(NumberText.double(in: bytes))
        case .epochMilliseconds:
            return try Self.checked(Double(NumberText.integer(in: bytes)) / 1000)
        case .pattern(let pattern):
            return try pattern.date(from: bytes)
        }
    }

    /// The date `seconds` after 1970, if it lies in years 0001…9999.
    private static func checked(_ seconds: Double) throws(CoercionProblem) -> Date {
        guard supportedSeconds.contains(seconds) else { throw .outOfRange }
        return Date(timeIntervalSince1970: seconds)
    }
}
