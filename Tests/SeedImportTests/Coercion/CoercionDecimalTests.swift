// Decimal coercion: exact beyond 2^53 and up to 38 significant digits, more is an error (never
// rounded), exponent limits, JSON numbers never go through Double.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: decimal")
struct CoercionDecimalTests: CoercionTesting {
    private static let posix = Locale(identifier: "en_US_POSIX")

    @Test(
        "exact values",
        arguments: [
            "2.50", "-0.001", "0", "-0", "9007199254740993", "12345678901234567890",
            "12345678901234567890123456789012345678", "-1234567890.1234567890123456789012345678",
            "0.00000000000000000000000000000000000000000000001", "1.000000000000000000000000000000000000000000000",
            "99999999999999999999999999999999999999", "1e127", "1e-128", "1.5e3", "00012.3400",
        ])
    func exact(text: String) throws {
        let expected = try #require(Decimal(string: text, locale: Self.posix))
        let value = coerced(try makeCoercer(.decimal), text)
        #expect(value == .decimal(expected))
        if case .decimal(let decimal) = value { #expect(decimal.description == expected.description) }
    }

    @Test("beyond 2^53 stays exact")
    func beyondDoublePrecision() throws {
        let value = coerced(try makeCoercer(.decimal), "9007199254740993")
        #expect(value?.description == "9007199254740993")
        #expect(
            coerced(try makeCoercer(.decimal), "1234567890123456789.123456789")?.description
                == "1234567890123456789.123456789")
    }

    @Test(
        "rejected values",
        arguments: [
            (
                "123456789012345678901234567890123456789",
                #""123456789012345678901234567890123456789" has more than 38 significant digits, the most a decimal holds exactly"#
            ),
            ("1e128", #""1e128" is out of range for decimal (exponents -128…127)"#),
            ("1e-129", #""1e-129" is out of range for decimal (exponents -128…127)"#),
            ("abc", #""abc" is not a decimal number"#),
            ("1.2.3", #""1.2.3" is not a decimal number"#),
        ])
    func rejected(text: String, reason: String) throws {
        #expect(failure(try makeCoercer(.decimal), text) == reason)
    }

    @Test("JSON numbers are read from their text, not through Double")
    func json() throws {
        let coercer = try makeCoercer(.decimal)
        #expect(try jsonOutcome(coercer, "0.1").get()?.description == "0.1")
        #expect(
            try jsonOutcome(coercer, "12345678901234567890.123456789").get()?.description
                == "12345678901234567890.123456789")
    }
}
