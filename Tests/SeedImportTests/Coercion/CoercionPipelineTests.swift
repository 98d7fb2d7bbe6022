// The coercion pipeline shared by every type: missing fields, JSON null, null tokens, trimming,
// defaults, constants, lists and records, the raw-bytes entry, and the shape of errors.
import Foundation
import GraphStore
import RecordReaders
import Testing

@testable import SeedImport

@Suite("Coercion: pipeline")
struct CoercionPipelineTests: CoercionTesting {
    @Test("missing and null values give the default, else nil")
    func missingAndNull() throws {
        let plain = try makeCoercer(.integer32)
        #expect(try plain.coerce(nil) == nil)
        #expect(try jsonOutcome(plain, "null").get() == nil)
        #expect(!plain.hasDefault)

        let defaulted = try makeCoercer(.integer32) { $0.defaultValue = "7" }
        #expect(defaulted.hasDefault)
        #expect(defaulted.defaultValue == .integer(7))
        #expect(try defaulted.coerce(nil) == .integer(7))
        #expect(try jsonOutcome(defaulted, "null").get() == .integer(7))
        #expect(coerced(defaulted, "") == .integer(7))
        #expect(coerced(defaulted, "3") == .integer(3))
    }

    @Test("null tokens match exactly, after trimming, before parsing")
    func nullTokens() throws {
        let coercer = try makeCoercer(.integer32) {
            $0.nullTokens = ["NULL", "-"]
            $0.defaultValue = "0"
        }
        #expect(coerced(coercer, "NULL") == .integer(0))
        #expect(coerced(coercer, " - ") == .integer(0))
        #expect(failure(coercer, "null") == #""null" is not an integer"#)
        #expect(try jsonOutcome(coercer, #""NULL""#).get() == .integer(0))

        let notes = try makeCoercer(.string) { $0.nullTokens = [""] }
        #expect(coerced(notes, "") == nil)
        #expect(coerced(notes, " ") == .string(" "))
        let trimmedNotes = try makeCoercer(.string) {
            $0.nullTokens = [""]
            $0.trim = true
        }
        #expect(coerced(trimmedNotes, " \t") == nil)
    }

    @Test("a null token wins over a Boolean word")
    func nullTokenBeforeWords() throws {
        let coercer = try makeCoercer(.boolean) { $0.nullTokens = ["0"] }
        #expect(coerced(coercer, "0") == nil)
        #expect(coerced(coercer, "no") == .boolean(false))
    }

    @Test("defaults and constants are coerced once, at setup")
    func setupValues() throws {
        let constant = try makeCoercer(.string) { $0.value = "catalog" }
        #expect(constant.isConstant)
        #expect(constant.constantValue == .string("catalog"))
        #expect(!(try makeCoercer(.string)).isConstant)

        let date = try makeCoercer(.date) {
            $0.value = "22/11/2026"
            $0.dateFormat = "dd/MM/yyyy"
        }
        #expect(date.constantValue == .date(try isoDate("2026-11-22")))

        let nullConstant = try makeCoercer(.integer16) {
            $0.value = "-"
            $0.nullTokens = ["-"]
            $0.defaultValue = "1"
        }
        #expect(nullConstant.constantValue == .integer(1))

        #expect(setupFailure(.integer16) { $0.defaultValue = "abc" } == #"default value: "abc" is not an integer"#)
        #expect(
            setupFailure(.integer16) { $0.value = "70000" }
                == #"constant value: "70000" is out of range for integer16 (-32768…32767)"#)
    }

    @Test("setup errors name the attribute")
    func setupErrorShape() throws {
        var mapping = AttributeMapping(field: "when")
        mapping.dateFormat = "dd/MM/yyyy Q"
        do {
            _ = try ValueCoercer(declaration: AttributeDescription(name: "added", type: .date), mapping: mapping)
            Issue.record("expected a setup error")
        } catch {
            #expect(error.attribute == "added")
            #expect(error.description.hasPrefix("attribute 'added': unknown date pattern token 'Q'"))
        }
    }

    @Test("errors carry the attribute, the value truncated, and an escaped quote of it")
    func errorShape() throws {
        let coercer = try makeCoercer(.integer64)
        let failed = try #require(error(of: outcome(coercer, "12x")))
        #expect(failed.attribute == "value")
        #expect(failed.value == "12x")
        #expect(failed.reason == #""12x" is not an integer"#)
        #expect(failed.description == #"attribute 'value': "12x" is not an integer"#)

        let long = String(repeating: "9", count: 150) + "x"
        let truncated = try #require(error(of: outcome(coercer, long)))
        #expect(truncated.value == String(repeating: "9", count: 80) + "…")
        #expect(truncated.reason == "\"\(String(repeating: "9", count: 80))…\" is not an integer")

        #expect(failure(coercer, "1\n2\"\u{1}") == #""1\n2\"\u{1}" is not an integer"#)
        #expect(failure(coercer, "O'Brien") == #""O'Brien" is not an integer"#)
    }

    @Test("the raw-bytes entry")
    func rawBytes() throws {
        let coercer = try makeCoercer(.integer32) { $0.defaultValue = "5" }
        func coerce(_ text: String, _ kind: ValueKind) -> Result<AttributeValue?, CoercionError> {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                Result { () throws(CoercionError) in try coercer.coerce(utf8: bytes, kind: kind) }
            }
        }
        #expect(try coerce("42", .text).get() == .integer(42))
        #expect(try coerce("42", .number).get() == .integer(42))
        #expect(try coerce("", .null).get() == .integer(5))
        #expect(error(of: coerce("", .list))?.reason == "expected a single value, got a list")
        #expect(error(of: coerce("", .list))?.value == nil)
        #expect(error(of: coerce("4.5", .number))?.reason == "4.5 is not an integer (it has a fractional part)")
        #expect(try coerce(" 8 ", .record).get() == .integer(8))
        #expect(
            error(of: coerce(" \n ", .record))?.reason.hasPrefix("expected a single value, got a nested record") == true
        )
    }

    @Test("CSV and XML fields")
    func csvAndXML() throws {
        let csv = Array("sku,quantity,listed\nA1, 12 ,\"yes\"\nA2,,no\n".utf8)
        var reader = try RecordReaderFactory.open(.bytes(csv, name: "items.csv"))
        let quantity = try makeCoercer(.integer32) { $0.defaultValue = "0" }
        let listed = try makeCoercer(.boolean)
        let first = try #require(try reader.next())
        #expect(try quantity.coerce(first.value(at: "quantity")) == .integer(12))
        #expect(try listed.coerce(first.value(at: "listed")) == .boolean(true))
        #expect(try quantity.coerce(first.value(at: "missing")) == .integer(0))
        let second = try #require(try reader.next())
        #expect(try quantity.coerce(second.value(at: "quantity")) == .integer(0))
        #expect(try listed.coerce(second.value(at: "listed")) == .boolean(false))

        let xml = Array(
            #"<items><item sku="A1"><price currency="EUR">2.49</price><tag>a</tag><tag>b</tag><at> <x/> </at></item></items>"#
                .utf8)
        var xmlReader = try RecordReaderFactory.open(
            .bytes(xml, name: "items.xml"), options: ReaderOptions(records: "items/item"))
        let item = try #require(try xmlReader.next())
        let price = try makeCoercer(.double)
        let tag = try makeCoercer(.string)
        let (priceElement, tags, location) = try (item.value(at: "price"), item.value(at: "tag"), item.value(at: "at"))
        #expect(priceElement?.kind == .record)
        #expect(try price.coerce(priceElement) == .double(2.49))
        #expect(try price.coerce(priceElement?.record?.value) == .double(2.49))
        #expect(
            error(of: Result { () throws(CoercionError) in try price.coerce(location) })?.reason
                == "expected a single value, got a nested record (a JSON object, or an XML element without text of its own)"
        )
        #expect(
            error(of: Result { () throws(CoercionError) in try tag.coerce(tags) })?.reason
                == "expected a single value, got a list of 2")
    }
}
