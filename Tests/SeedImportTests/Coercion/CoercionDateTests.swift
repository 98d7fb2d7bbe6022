// Date coercion in the named formats: ISO 8601 (date-only, offsets, fractions), epoch seconds
// and epoch milliseconds, with their range and messages.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: dates (iso8601, epoch, epoch-ms)")
struct CoercionDateTests: CoercionTesting {
    @Test(
        "ISO 8601",
        arguments: [
            ("2026-11-22T10:15:00Z", 1_795_342_500.0), ("2026-11-22", 1_795_305_600),
            ("2026-11-22T10:15", 1_795_342_500),
            ("2026-11-22 10:15:00", 1_795_342_500), ("2026-11-22T10:15:00.250Z", 1_795_342_500.25),
            ("2026-11-22T11:15:00+01:00", 1_795_342_500), ("2026-11-22T04:45:00-0530", 1_795_342_500),
            ("2024-02-29", 1_709_164_800), ("1969-12-31T23:59:59Z", -1), (" 2026-11-22 ", 1_795_305_600),
        ])
    func iso8601(text: String, seconds: Double) throws {
        #expect(coerced(try makeCoercer(.date), text) == .date(Date(timeIntervalSince1970: seconds)))
    }

    @Test(
        "invalid ISO 8601",
        arguments: ["2026-13-01", "2026-02-29", "2026-11-22T24:00", "22/11/2026", "2026-11-22Tx", "1795342500"])
    func invalidISO8601(text: String) throws {
        #expect(
            failure(try makeCoercer(.date), text) == "\(CoercionError.quoted(text)) is not a date in format iso8601")
    }

    @Test("epoch seconds, fraction and exponent allowed, years 0000…9999")
    func epochSeconds() throws {
        let coercer = try makeCoercer(.date) { $0.dateFormat = "epoch" }
        #expect(coerced(coercer, "1795342500") == .date(Date(timeIntervalSince1970: 1_795_342_500)))
        #expect(coerced(coercer, "1795342500.25") == .date(Date(timeIntervalSince1970: 1_795_342_500.25)))
        #expect(coerced(coercer, "-86400") == .date(try isoDate("1969-12-31")))
        #expect(coerced(coercer, "1e9") == .date(Date(timeIntervalSince1970: 1e9)))
        #expect(coerced(coercer, "253402300799") == .date(try isoDate("9999-12-31T23:59:59Z")))
        #expect(coerced(coercer, "-62167219200") == .date(try isoDate("0000-01-01")))
        #expect(try jsonOutcome(coercer, "1795342500").get() == .date(Date(timeIntervalSince1970: 1_795_342_500)))
        let range = "is out of range for a date (years 0000…9999)"
        #expect(failure(coercer, "1795342500000") == #""1795342500000" \#(range)"#)
        #expect(failure(coercer, "-62167219201") == #""-62167219201" \#(range)"#)
        #expect(failure(coercer, "1e400") == #""1e400" \#(range)"#)
        #expect(failure(coercer, "soon") == #""soon" is not a date in format epoch"#)
        #expect(failure(coercer, "nan") == #""nan" is not a date in format epoch (NaN and infinity are not accepted)"#)
    }

    @Test("epoch milliseconds are whole numbers")
    func epochMilliseconds() throws {
        let coercer = try makeCoercer(.date) { $0.dateFormat = "epoch-ms" }
        #expect(coerced(coercer, "1795342500123") == .date(Date(timeIntervalSince1970: 1_795_342_500.123)))
        #expect(coerced(coercer, "-1000") == .date(Date(timeIntervalSince1970: -1)))
        #expect(
            try jsonOutcome(coercer, "1795342500123").get() == .date(Date(timeIntervalSince1970: 1_795_342_500.123)))
        #expect(
            failure(coercer, "1795342500123.5")
                == #""1795342500123.5" is not a date in format epoch-ms (it has a fractional part)"#)
        #expect(
            failure(coercer, "99999999999999999999")
                == #""99999999999999999999" is out of range for a date (years 0000…9999)"#)
        #expect(failure(coercer, "2026-11-22") == #""2026-11-22" is not a date in format epoch-ms"#)
    }

    @Test("JSON kinds")
    func json() throws {
        let coercer = try makeCoercer(.date)
        #expect(try jsonOutcome(coercer, #""2026-11-22""#).get() == .date(try isoDate("2026-11-22")))
        // A JSON number is seconds since 1970 (as MagicalRecord reads an NSNumber), whatever the pattern.
        #expect(try jsonOutcome(coercer, "1795342500").get() == .date(Date(timeIntervalSince1970: 1_795_342_500)))
        let pattern = try makeCoercer(.date) { $0.dateFormat = "dd.MM.yyyy" }
        #expect(try jsonOutcome(pattern, "1.5").get() == .date(Date(timeIntervalSince1970: 1.5)))
        #expect(try jsonError(coercer, "true") == "true is not a date in format iso8601")
        #expect(try jsonOutcome(coercer, "null").get() == nil)
    }

    @Test("a date format on another type is a setup error")
    func formatOnOtherType() {
        #expect(setupFailure(.integer64) { $0.dateFormat = "epoch" } == "a date format applies to date attributes only")
    }
}
