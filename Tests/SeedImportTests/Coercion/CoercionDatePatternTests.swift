// Date patterns: every token, quoted literals, zones, 12-hour clocks, invalid calendar dates with
// their detail, and the setup errors of malformed patterns.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: date patterns")
struct CoercionDatePatternTests: CoercionTesting {
    @Test(
        "matching dates",
        arguments: [
            ("dd/MM/yyyy HH:mm", "22/11/2026 10:15", "2026-11-22T10:15:00Z"),
            ("d/M/yyyy H:m:s", "2/3/2026 4:5:6", "2026-03-02T04:05:06Z"),
            ("d/M/yyyy", "22/11/2026", "2026-11-22"),
            ("d.M.yy", "1.2.26", "2026-02-01"),
            ("yy-MM-dd", "68-01-01", "2068-01-01"),
            ("yy-MM-dd", "69-01-01", "1969-01-01"),
            ("yyyyMMdd", "20261122", "2026-11-22"),
            ("yyyyMMddHHmmss", "20261122101530", "2026-11-22T10:15:30Z"),
            ("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2026-11-22T10:15:00.250+05:30", "2026-11-22T04:45:00.250Z"),
            ("yyyy-MM-dd'T'HH:mm:ssXXX", "2026-11-22T10:15:00Z", "2026-11-22T10:15:00Z"),
            ("yyyy-MM-dd HH:mm:ss Z", "2026-11-22 10:15:00 -0800", "2026-11-22T18:15:00Z"),
            ("yyyy-MM-dd HH:mm:ss.S", "2026-11-22 10:15:00.5", "2026-11-22T10:15:00.500Z"),
            ("MM/dd/yyyy hh:mm a", "11/22/2026 12:05 AM", "2026-11-22T00:05:00Z"),
            ("MM/dd/yyyy hh:mm a", "11/22/2026 12:05 PM", "2026-11-22T12:05:00Z"),
            ("MM/dd/yyyy h:mm a", "11/22/2026 1:00 pm", "2026-11-22T13:00:00Z"),
            ("MM/dd/yyyy h:mma", "11/22/2026 11:59am", "2026-11-22T11:59:00Z"),
            ("yyyy-MM-dd 'at' HH'h'", "2026-11-22 at 10h", "2026-11-22T10:00:00Z"),
            ("dd/MM/yyyy", "29/02/2024", "2024-02-29"),
            ("dd/MM/yyyy", "29/02/2000", "2000-02-29"),
            ("'['yyyy-MM-dd''']'", "[2026-11-22']", "2026-11-22"),
            ("yyyy年MM月dd日", "2026年11月22日", "2026-11-22"),
        ] as [(String, String, String?)])
    func matching(pattern: String, text: String, expected: String?) throws {
        let coercer = try makeCoercer(.date) { $0.dateFormat = pattern }
        if let expected {
            #expect(coerced(coercer, text) == .date(try isoDate(expected)))
        } else {
            #expect(failure(coercer, text) != nil)
        }
    }

    @Test(
        "non-matching text and invalid calendar dates",
        arguments: [
            ("dd/MM/yyyy", "31/02/2026", "day 31 does not exist in 2026-02"),
            ("dd/MM/yyyy", "29/02/2100", "day 29 does not exist in 2100-02"),
            ("dd/MM/yyyy", "00/01/2026", "day 0 does not exist in 2026-01"),
            ("dd/MM/yyyy", "01/13/2026", "month 13 does not exist"),
            ("dd/MM/yyyy", "01/00/2026", "month 0 does not exist"),
            ("dd/MM/yyyy HH:mm", "01/01/2026 24:00", "hour 24 does not exist"),
            ("dd/MM/yyyy HH:mm", "01/01/2026 10:60", "minute 60 does not exist"),
            ("dd/MM/yyyy HH:mm:ss", "01/01/2026 10:00:60", "second 60 does not exist"),
            ("dd/MM/yyyy hh a", "01/01/2026 13 PM", "hour 13 does not exist on a 12-hour clock"),
            ("dd/MM/yyyy hh a", "01/01/2026 00 AM", "hour 0 does not exist on a 12-hour clock"),
            ("dd/MM/yyyy HH:mmXXX", "01/01/2026 10:00+24:00", "offset 24:00 does not exist"),
            ("dd/MM/yyyy", "1/01/2026", nil),
            ("dd/MM/yyyy", "01/01/26", nil),
            ("dd/MM/yyyy", "01/01/2026 ", nil),
            ("dd/MM/yyyy", "01-01-2026", nil),
            ("dd/MM/yyyy HH:mm", "01/01/2026", nil),
            ("dd/MM/yyyy hh a", "01/01/2026 10 XM", nil),
            ("yyyy-MM-dd HH:mm Z", "2026-01-01 10:00 +01:00", nil),
            ("yyyy-MM-dd HH:mmXXX", "2026-01-01 10:00+0100", nil),
        ] as [(String, String, String?)])
    func rejected(pattern: String, text: String, detail: String?) throws {
        let coercer = try makeCoercer(.date) {
            $0.dateFormat = pattern
            $0.trim = false
        }
        let reason =
            "\(CoercionError.quoted(text)) is not a date in format \(pattern)" + (detail.map { " (\($0))" } ?? "")
        #expect(failure(coercer, text) == reason)
    }

    @Test(
        "z reads GMT and UTC with an optional offset, Z, and numeric offsets",
        arguments: [
            ("2026-11-22T10:15:00GMT", "2026-11-22T10:15:00Z"), ("2026-11-22T10:15:00utc", "2026-11-22T10:15:00Z"),
            ("2026-11-22T10:15:00GMT+1", "2026-11-22T09:15:00Z"),
            ("2026-11-22T10:15:00GMT-08:00", "2026-11-22T18:15:00Z"), ("2026-11-22T10:15:00Z", "2026-11-22T10:15:00Z"),
            ("2026-11-22T10:15:00+0130", "2026-11-22T08:45:00Z"), ("2026-11-22T10:15:00-02:00", "2026-11-22T12:15:00Z"),
        ])
    func zoneNames(text: String, iso: String) throws {
        let coercer = try makeCoercer(.date) { $0.dateFormat = "yyyy-MM-dd'T'HH:mm:ssz" }
        #expect(coerced(coercer, text) == .date(try isoDate(iso)))
        // ISO 8601, the default, falls back to this pattern (MagicalRecord's default).
        #expect(coerced(try makeCoercer(.date), text) == .date(try isoDate(iso)))
        #expect(failure(coercer, "2026-11-22T10:15:00PST") != nil)
    }

    @Test("a pattern is UTC unless it has a zone")
    func utcByDefault() throws {
        let coercer = try makeCoercer(.date) { $0.dateFormat = "yyyy-MM-dd HH:mm" }
        #expect(coerced(coercer, "2026-11-22 10:15") == .date(try isoDate("2026-11-22T10:15:00Z")))
    }

    @Test(
        "setup errors",
        arguments: [
            ("dd/MM/yyyy Q", "unknown date pattern token 'Q' in \"dd/MM/yyyy Q\" (supported: \(tokens))"),
            ("dd MMM yyyy", "unsupported date pattern token 'MMM' in \"dd MMM yyyy\" (supported: \(tokens))"),
            ("yyy-MM-dd", "unsupported date pattern token 'yyy' in \"yyy-MM-dd\" (supported: \(tokens))"),
            ("YYYY-MM-dd", "unknown date pattern token 'YYYY' in \"YYYY-MM-dd\" (supported: \(tokens))"),
            ("yyyy-MM-dd XX", "unsupported date pattern token 'XX' in \"yyyy-MM-dd XX\" (supported: \(tokens))"),
            ("ISO8601", "unknown date pattern token 'I' in \"ISO8601\" (supported: \(tokens))"),
            ("yyyy-MM", "date pattern \"yyyy-MM\" has no day field"),
            ("MM-dd", "date pattern \"MM-dd\" has no year field"),
            ("yyyy-MM-dd dd", "date pattern \"yyyy-MM-dd dd\" has more than one day field"),
            ("yyyy-MM-dd HH hh a", "date pattern \"yyyy-MM-dd HH hh a\" has more than one hour field"),
            (
                "yyyy-MM-dd hh:mm",
                "date pattern \"yyyy-MM-dd hh:mm\" must use a 12-hour hour (h or hh) together with an AM/PM marker (a)"
            ),
            (
                "yyyy-MM-dd HH:mm a",
                "date pattern \"yyyy-MM-dd HH:mm a\" must use a 12-hour hour (h or hh) together with an AM/PM marker (a)"
            ),
            ("yyyy-MM-dd 'T", "unterminated quote in date pattern \"yyyy-MM-dd 'T\""),
        ])
    func setupErrors(pattern: String, reason: String) {
        #expect(setupFailure(.date) { $0.dateFormat = pattern } == reason)
    }

    private static let tokens = "yyyy yy MM M dd d HH H hh h mm m ss s S… a Z XXX z"
}
