// FieldPath syntax: what parses to which steps, and what is rejected with which offset.
import Testing

@testable import RecordReaders

@Suite("Field paths")
struct FieldPathTests {
    @Test func parsesSteps() throws {
        #expect(
            try FieldPath(parsing: "location.aisle").steps == [
                .child(Array("location".utf8)), .child(Array("aisle".utf8)),
            ])
        #expect(try FieldPath(parsing: "a/b").steps == FieldPath(parsing: "a.b").steps)
        #expect(try FieldPath(parsing: "tags[2]").steps == [.child(Array("tags".utf8)), .index(2)])
        #expect(
            try FieldPath(parsing: "tags[*].name").steps == [
                .child(Array("tags".utf8)), .wildcard, .child(Array("name".utf8)),
            ])
        #expect(try FieldPath(parsing: "[0]").steps == [.index(0)])
        #expect(try FieldPath(parsing: "@sku").steps == [.attribute(Array("sku".utf8))])
        #expect(try FieldPath(parsing: "loc/@id").steps == FieldPath(parsing: "loc@id").steps)
        #expect(try FieldPath(parsing: ".").steps == [.this])
        #expect(try FieldPath(parsing: "#3").steps == [.column(2)])
        #expect(try FieldPath(parsing: "#3").columnIndex == 2)
        #expect(try FieldPath(parsing: "\"a.b\".c").steps == [.child(Array("a.b".utf8)), .child(Array("c".utf8))])
        #expect(try FieldPath(parsing: "Unit Price").steps == [.child(Array("Unit Price".utf8))])
        #expect(FieldPath.column(4).text == "#4")
    }

    @Test func rejectsMalformedPaths() {
        let cases: [(String, Int)] = [
            ("", 0), ("a.", 2), (".a", 0), ("a..b", 2), ("tags[", 5), ("tags[x]", 5), ("tags[1", 6),
            ("a]", 1), ("@", 1), ("@a.b", 2), ("#", 1), ("#0", 2), ("#3a", 2), ("\"open", 5), ("a b[1]c", 6),
        ]
        for (text, offset) in cases {
            #expect(throws: PathSyntaxError.self, "\(text)") { try FieldPath(parsing: text) }
            do {
                _ = try FieldPath(parsing: text)
            } catch {
                #expect(error.offset == offset, "\(text): \(error)")
            }
        }
    }

    @Test func recordPathSyntax() throws {
        #expect(try JSONRecordPath(nil).expandsArray)
        #expect(try JSONRecordPath("$").steps.isEmpty)
        #expect(try !JSONRecordPath("$").expandsArray)
        #expect(
            try JSONRecordPath("data.rows[*]").steps == [.key(Array("data".utf8)), .key(Array("rows".utf8)), .wildcard])
        #expect(try !JSONRecordPath("items[*]").expandsArray)
        #expect(throws: PathSyntaxError.self) { try JSONRecordPath("items/@a") }
        #expect(try XMLRecordPath("/catalog/item").names == [Array("catalog".utf8), Array("item".utf8)])
        #expect(try XMLRecordPath("*/item").names == [[], Array("item".utf8)])
        #expect(throws: PathSyntaxError.self) { try XMLRecordPath("catalog/item[1]") }
    }
}
