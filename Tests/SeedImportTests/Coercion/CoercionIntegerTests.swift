// Integer 16/32/64 coercion: accepted spellings, range edges of every width, overflow, and the
// exact messages of rejected values.
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: integers")
struct CoercionIntegerTests: CoercionTesting {
    @Test(
        "accepted spellings",
        arguments: [
            ("42", 42), ("-7", -7), ("+5", 5), ("0", 0), ("-0", 0), ("007", 7), ("3.0", 3), ("3.000", 3),
            ("1e3", 1000), ("1E3", 1000), ("1.5e1", 15), ("12000e-3", 12), ("0.0", 0), ("0e99999999999", 0),
            (" 42 ", 42), ("\t-8\n", -8),
        ] as [(String, Int64)])
    func accepted(text: String, expected: Int64) throws {
        #expect(coerced(try makeCoercer(.integer64), text) == .integer(expected))
    }

    @Test(
        "rejected spellings",
        arguments: [
            ("12x", #""12x" is not an integer"#),
            ("3.5", #""3.5" is not an integer (it has a fractional part)"#),
            ("1e-1", #""1e-1" is not an integer (it has a fractional part)"#),
            ("0.0001", #""0.0001" is not an integer (it has a fractional part)"#),
            ("0x10", #""0x10" is not an integer"#),
            ("1,000", #""1,000" is not an integer"#),
            ("1_000", #""1_000" is not an integer"#),
            ("--1", #""--1" is not an integer"#),
            ("+", #""+" is not an integer"#),
            (".", #""." is not an integer"#),
            ("e5", #""e5" is not an integer"#),
            ("1e", #""1e" is not an integer"#),
            ("1e+", #""1e+" is not an integer"#),
            ("1 2", #""1 2" is not an integer"#),
            ("١٢", #""١٢" is not an integer"#),
            ("NaN", #""NaN" is not an integer"#),
        ])
    func rejected(text: String, reason: String) throws {
        #expect(failure(try makeCoercer(.integer64), text) == reason)
    }

    @Test("integer16 edges")
    func integer16Edges() throws {
        let coercer = try makeCoercer(.integer16)
        #expect(coerced(coercer, "32767") == .integer(32767))
        #expect(coerced(coercer, "-32768") == .integer(-32768))
        #expect(failure(coercer, "32768") == #""32768" is out of range for integer16 (-32768…32767)"#)
        #expect(failure(coercer, "-32769") == #""-32769" is out of range for integer16 (-32768…32767)"#)
        #expect(failure(coercer, "70000") == #""70000" is out of range for integer16 (-32768…32767)"#)
        #expect(failure(coercer, "7e4") == #""7e4" is out of range for integer16 (-32768…32767)"#)
    }

    @Test("integer32 edges")
    func integer32Edges() throws {
        let coercer = try makeCoercer(.integer32)
        #expect(coerced(coercer, "2147483647") == .integer(Int64(Int32.max)))
        #expect(coerced(coercer, "-2147483648") == .integer(Int64(Int32.min)))
        #expect(
            failure(coercer, "2147483648") == #""2147483648" is out of range for integer32 (-2147483648…2147483647)"#)
        #expect(failure(coercer, "-2147483649") != nil)
    }

    @Test("integer64 edges and overflow")
    func integer64Edges() throws {
        let coercer = try makeCoercer(.integer64)
        let range = "integer64 (-9223372036854775808…9223372036854775807)"
        #expect(coerced(coercer, "9223372036854775807") == .integer(.max))
        #expect(coerced(coercer, "-9223372036854775808") == .integer(.min))
        #expect(coerced(coercer, "+0009223372036854775807") == .integer(.max))
        #expect(coerced(coercer, "9.223372036854775807e18") == .integer(.max))
        #expect(coerced(coercer, "-9223372036854775808.000") == .integer(.min))
        #expect(coerced(coercer, "999999999999999999") == .integer(999_999_999_999_999_999))
        for text in [
            "9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999", "1e19",
        ] {
            #expect(failure(coercer, text) == "\(CoercionError.quoted(text)) is out of range for \(range)")
        }
        #expect(failure(coercer, "1e1000000000000") == #""1e1000000000000" is out of range for \#(range)"#)
    }

    @Test("empty text is null, white space is trimmed unless trim is false")
    func emptyAndTrim() throws {
        #expect(coerced(try makeCoercer(.integer32), "") == nil)
        #expect(coerced(try makeCoercer(.integer32), "  ") == nil)
        let strict = try makeCoercer(.integer32) { $0.trim = false }
        #expect(failure(strict, " 42") == #"" 42" is not an integer"#)
    }

    @Test("JSON numbers, strings and other kinds")
    func jsonKinds() throws {
        let coercer = try makeCoercer(.integer32)
        #expect(try jsonOutcome(coercer, "42").get() == .integer(42))
        #expect(try jsonOutcome(coercer, "-3.0").get() == .integer(-3))
        #expect(try jsonOutcome(coercer, "2e2").get() == .integer(200))
        #expect(try jsonOutcome(coercer, #""42""#).get() == .integer(42))
        #expect(try jsonOutcome(coercer, "null").get() == nil)
        #expect(try jsonError(coercer, "3.5") == "3.5 is not an integer (it has a fractional part)")
        #expect(try jsonError(coercer, "true") == "true is not an integer")
        #expect(
            try jsonError(coercer, "4294967296") == "4294967296 is out of range for integer32 (-2147483648…2147483647)")
        #expect(try jsonError(coercer, "[1, 2, 3]") == "expected a single value, got a list of 3")
        #expect(try jsonError(coercer, "[]") == "expected a single value, got a list of 0")
        #expect(
            try jsonError(coercer, #"{"a": 1}"#)
                == "expected a single value, got a nested record (a JSON object, or an XML element without text of its own)"
        )
    }
}
