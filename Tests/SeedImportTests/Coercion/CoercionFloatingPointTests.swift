// Double and Float coercion: the fast path agrees with the standard library's correctly rounded
// parser, range limits, NaN and infinity rejected, Float rounding.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: double and float")
struct CoercionFloatingPointTests: CoercionTesting {
    @Test(
        "accepted spellings",
        arguments: [
            ("2.49", 2.49), ("-0.5", -0.5), (".5", 0.5), ("5.", 5), ("+1", 1), ("1e10", 1e10), ("1E-3", 0.001),
            ("0.1", 0.1), ("123456789012345", 123_456_789_012_345),
            ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("4.9e-324", .leastNonzeroMagnitude), ("1e-400", 0), ("3.14159265358979323846264338327950288", .pi),
            ("9007199254740993", 9_007_199_254_740_992), (" 2.5 ", 2.5),
        ] as [(String, Double)])
    func accepted(text: String, expected: Double) throws {
        #expect(coerced(try makeCoercer(.double), text) == .double(expected))
    }

    @Test(
        "rejected spellings",
        arguments: [
            ("1,5", #""1,5" is not a number"#),
            ("12abc", #""12abc" is not a number"#),
            ("0x1p3", #""0x1p3" is not a number"#),
            ("1e400", #""1e400" is out of range for double"#),
            ("-1e400", #""-1e400" is out of range for double"#),
            ("NaN", #""NaN" is not a number (NaN and infinity are not accepted)"#),
            ("-inf", #""-inf" is not a number (NaN and infinity are not accepted)"#),
            ("Infinity", #""Infinity" is not a number (NaN and infinity are not accepted)"#),
        ])
    func rejected(text: String, reason: String) throws {
        #expect(failure(try makeCoercer(.double), text) == reason)
    }

    @Test("the fast path matches the standard library on many decimals")
    func fastPathAgrees() throws {
        let coercer = try makeCoercer(.double)
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<5000 {
            let digits = String(UInt64.random(in: 0...999_999_999_999_999_999, using: &generator))
            let point = Int.random(in: 0...digits.count, using: &generator)
            let exponent = Int.random(in: -30...30, using: &generator)
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text == "." { text = "0" }
            text += exponent == 0 ? "" : "e\(exponent)"
            #expect(coerced(coercer, text) == .double(try #require(Double(text))), "\(text)")
        }
    }

    @Test("float rounds to Float precision and has Float's range")
    func float() throws {
        let coercer = try makeCoercer(.float)
        #expect(coerced(coercer, "0.1") == .double(Double(Float(0.1))))
        #expect(coerced(coercer, "3.4028235e38") == .double(Double(Float.greatestFiniteMagnitude)))
        #expect(failure(coercer, "3.5e38") == #""3.5e38" is out of range for float"#)
        #expect(failure(coercer, "x") == #""x" is not a number"#)
    }

    @Test("JSON numbers keep their digits")
    func json() throws {
        let coercer = try makeCoercer(.double)
        #expect(try jsonOutcome(coercer, "2.49").get() == .double(2.49))
        #expect(try jsonOutcome(coercer, "-1.5E+2").get() == .double(-150))
        #expect(try jsonError(coercer, "false") == "false is not a number")
    }
}

/// A seeded random generator (SplitMix64), so property tests see the same inputs every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
