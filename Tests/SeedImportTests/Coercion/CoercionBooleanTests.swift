// Boolean coercion: default and custom words (ASCII case-insensitive), JSON true/false always
// accepted, and setup errors for empty or overlapping word lists.
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: boolean")
struct CoercionBooleanTests: CoercionTesting {
    @Test(
        "default words, any ASCII case",
        arguments: [
            ("true", true), ("TRUE", true), ("Yes", true), ("1", true), ("y", true), ("On", true),
            ("false", false), ("No", false), ("0", false), ("N", false), ("OFF", false), (" yes ", true),
        ])
    func defaultWords(text: String, expected: Bool) throws {
        #expect(coerced(try makeCoercer(.boolean), text) == .boolean(expected))
    }

    @Test("other text is rejected with the accepted words listed")
    func rejected() throws {
        let coercer = try makeCoercer(.boolean)
        let words = "(true, yes, 1, y, on / false, no, 0, n, off)"
        #expect(failure(coercer, "maybe") == #""maybe" is not a boolean \#(words)"#)
        #expect(failure(coercer, "2") == #""2" is not a boolean \#(words)"#)
        #expect(failure(coercer, "yess") == #""yess" is not a boolean \#(words)"#)
        #expect(coerced(coercer, "") == nil)
    }

    @Test("custom words replace the defaults; JSON true and false are always accepted")
    func customWords() throws {
        let coercer = try makeCoercer(.boolean) {
            $0.trueWords = ["ja", "sí"]
            $0.falseWords = ["nein"]
        }
        #expect(coerced(coercer, "JA") == .boolean(true))
        #expect(coerced(coercer, "sí") == .boolean(true))
        #expect(coerced(coercer, "Nein") == .boolean(false))
        #expect(failure(coercer, "SÍ") == #""SÍ" is not a boolean (ja, sí / nein)"#)
        #expect(failure(coercer, "true") == #""true" is not a boolean (ja, sí / nein)"#)
        #expect(try jsonOutcome(coercer, "true").get() == .boolean(true))
        #expect(try jsonOutcome(coercer, "false").get() == .boolean(false))
        #expect(try jsonError(coercer, "1") == "1 is not a boolean (ja, sí / nein)")
    }

    @Test("JSON numbers and strings use the words")
    func json() throws {
        let coercer = try makeCoercer(.boolean)
        #expect(try jsonOutcome(coercer, "1").get() == .boolean(true))
        #expect(try jsonOutcome(coercer, #""off""#).get() == .boolean(false))
        #expect(try jsonError(coercer, "1.0")?.hasPrefix("1.0 is not a boolean") == true)
    }

    @Test("an empty word makes the empty text a Boolean instead of null")
    func emptyWord() throws {
        let coercer = try makeCoercer(.boolean) { $0.falseWords = ["", "no"] }
        #expect(coerced(coercer, "") == .boolean(false))
        #expect(coerced(coercer, "  ") == .boolean(false))
        #expect(coerced(coercer, "yes") == .boolean(true))
    }

    @Test("setup errors")
    func setupErrors() {
        #expect(
            setupFailure(.boolean) {
                $0.trueWords = ["yes", "1"]
                $0.falseWords = ["YES", "1", "no"]
            } == #""yes", "1" cannot mean both true and false"#)
        #expect(
            setupFailure(.boolean) { $0.trueWords = [] }
                == "the list of true words and the list of false words must not be empty")
        #expect(
            setupFailure(.string) { $0.trueWords = ["x"] } == "true and false words apply to boolean attributes only")
    }
}
